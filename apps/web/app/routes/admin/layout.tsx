import { ROLE_LABELS, type TAdminSession, type TPermission, type TStaffRole } from '@storefront/shared';
import { NavLink, Outlet, useNavigate, useRouteLoaderData } from 'react-router';
import adminCss from '../../admin.css?url';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/layout';

// The back office's frame (docs/decisions/0031): who is signed in, what their role may open,
// and its own stylesheet. Every screen below reads through /api/admin, which checks the
// permission again: the menu only hides what would be refused.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

/** Back-office pages hold staff data: never kept by a browser or a proxy, never indexed. */
export function headers() {
  return { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<TAdminSession>(context, request, '/api/admin/session');
}

/** The signed-in staff member, for screens under the layout. */
export function useAdminSession(): TAdminSession {
  return useRouteLoaderData<typeof loader>('routes/admin/layout') as TAdminSession;
}

export function may(session: TAdminSession, permission: TPermission): boolean {
  return session.permissions.includes(permission);
}

const NAV: { to: string; label: string; permission: TPermission; end?: boolean }[] = [
  { to: '/admin', label: 'Dashboard', permission: 'reports.read', end: true },
  { to: '/admin/orders', label: 'Orders', permission: 'orders.read' },
  { to: '/admin/customers', label: 'Customers', permission: 'orders.read' },
  { to: '/admin/delivery', label: 'Delivery', permission: 'orders.read' },
  { to: '/admin/cod', label: 'Cash on delivery', permission: 'reports.read' },
  // Promotions
  { to: '/admin/discounts', label: 'Discounts', permission: 'catalogue.read' },
  { to: '/admin/coupons', label: 'Coupons', permission: 'catalogue.read' },
  // Content
  { to: '/admin/content', label: 'Content', permission: 'catalogue.read' },
  { to: '/admin/showrooms', label: 'Showrooms', permission: 'catalogue.read' },
  // Subscribers, messages and mail
  { to: '/admin/subscribers', label: 'Subscribers', permission: 'orders.read' },
  { to: '/admin/messages', label: 'Messages', permission: 'orders.read' },
  { to: '/admin/mail', label: 'Mail', permission: 'staff.manage' },
  // Settings and currencies
  { to: '/admin/settings', label: 'Settings', permission: 'catalogue.read' },
  { to: '/admin/currencies', label: 'Currencies', permission: 'catalogue.read' },
  { to: '/admin/products', label: 'Products', permission: 'catalogue.read' },
  { to: '/admin/categories', label: 'Categories', permission: 'catalogue.read' },
  { to: '/admin/attributes', label: 'Attributes', permission: 'catalogue.read' },
  { to: '/admin/stock', label: 'Low stock', permission: 'catalogue.read' },
  { to: '/admin/prices', label: 'Change prices', permission: 'prices.write' },
  { to: '/admin/import', label: 'Import and export', permission: 'catalogue.read' },
  { to: '/admin/staff', label: 'Staff', permission: 'staff.manage' },
  { to: '/admin/audit', label: 'Audit log', permission: 'audit.read' },
  { to: '/admin/account', label: 'My account', permission: 'self' },
];

export default function AdminLayout({ loaderData: session }: Route.ComponentProps) {
  const navigate = useNavigate();
  const signOut = async () => {
    await apiFetch('/api/admin/session', { method: 'DELETE' });
    navigate('/admin/sign-in', { replace: true });
  };
  const items = session.mustEnrolTwoFactor ? NAV.filter((n) => n.permission === 'self') : NAV.filter((n) => may(session, n.permission));
  return (
    <div data-admin-shell className="flex min-h-screen flex-col lg:flex-row">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 focus:rounded-md focus:bg-paper focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-sand-200 bg-brand-800 text-white lg:min-h-screen lg:w-60 lg:shrink-0 lg:border-b-0">
        <div className="flex items-center justify-between gap-3 px-4 py-3 lg:block lg:px-5 lg:py-6">
          <p className="text-lg font-semibold tracking-tight">
            Back office
            <a
              href="/"
              className="ml-2 text-xs font-normal text-brand-100 underline-offset-2 hover:underline lg:ml-0 lg:mt-1 lg:block"
              target="_blank"
              rel="noopener"
            >
              Open the shop ↗
            </a>
          </p>
          <div className="text-right text-xs lg:mt-6 lg:text-left">
            <p className="font-medium">{session.staff.fullName}</p>
            <p className="text-brand-100">{ROLE_LABELS[session.staff.role as TStaffRole]}</p>
          </div>
        </div>
        <nav aria-label="Back office" className="overflow-x-auto px-2 pb-2 lg:px-3">
          <ul className="flex gap-1 lg:flex-col">
            {items.map((n) => (
              <li key={n.to}>
                <NavLink
                  to={n.to}
                  end={n.end}
                  className={({ isActive }) =>
                    `block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium ${isActive ? 'bg-white text-brand-800' : 'text-white hover:bg-brand-700'}`
                  }
                >
                  {n.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button
                type="button"
                onClick={signOut}
                className="block w-full whitespace-nowrap rounded-lg px-3 py-2 text-left text-sm font-medium text-white hover:bg-brand-700"
              >
                Sign out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      {/* Inside the root layout's <main>: a region, not a second main. */}
      <div id="admin-main" className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
