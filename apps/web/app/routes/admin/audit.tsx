import type { TAuditEntry } from '@storefront/shared';
import { useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, FilterBar, inputClass, Pagination } from '../../components/admin/admin-ui.tsx';
import type { Route } from './+types/audit';

// The audit log, for owners (docs/decisions/0031): every back-office write, who made it,
// when, from which address, and what changed.

export function meta() {
  return [{ title: 'Audit log · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = new URLSearchParams();
  for (const k of ['page', 'entity', 'entityId']) {
    const v = url.searchParams.get(k);
    if (v) q.set(k, v);
  }
  return adminRead<{ items: TAuditEntry[]; total: number; page: number; size: number }>(context, request, `/api/admin/audit?${q}`);
}

function show(v: unknown): string {
  if (v == null || v === '') return '—';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
}

export default function Audit({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <AdminPage title="Audit log" description="Every change made in the back office, newest first.">
      <FilterBar>
        <label className="flex flex-col gap-1 text-sm font-medium">
          What
          <select className={inputClass} name="entity" defaultValue={params.get('entity') ?? ''}>
            <option value="">Everything</option>
            <option value="product">Products</option>
            <option value="stock">Stock</option>
            <option value="staff">Staff</option>
            <option value="import">Imports</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Id
          <input className={inputClass} name="entityId" defaultValue={params.get('entityId') ?? ''} />
        </label>
      </FilterBar>
      <ol className="flex flex-col gap-3">
        {loaderData.items.map((e) => (
          <li key={e.id} className="rounded-card border border-sand-200 bg-paper p-4 text-sm">
            <p className="flex flex-wrap gap-x-3 gap-y-1">
              <strong className="capitalize">{e.action.replace(/_/g, ' ')}</strong>
              <span>
                {e.entity} {e.entityId}
              </span>
              <span className="text-ink-muted">
                by {e.staffEmail} from {e.ip}
              </span>
              <time className="text-ink-muted" dateTime={e.createdAt}>
                {e.createdAt.slice(0, 19).replace('T', ' ')} UTC
              </time>
            </p>
            {Object.keys(e.diff).length > 0 && (
              <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[10rem_minmax(0,1fr)]">
                {Object.entries(e.diff).map(([field, [before, after]]) => (
                  <div key={field} className="contents">
                    <dt className="font-medium">{field}</dt>
                    <dd className="min-w-0 break-words text-ink-muted">
                      <span className="line-through decoration-danger-600/60">{show(before)}</span> → <span className="text-ink">{show(after)}</span>
                    </dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        ))}
        {!loaderData.items.length && <li className="text-ink-muted">Nothing recorded yet.</li>}
      </ol>
      <Pagination page={loaderData.page} size={loaderData.size} total={loaderData.total} />
    </AdminPage>
  );
}
