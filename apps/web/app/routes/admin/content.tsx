import { ADMIN_CONTENT_TYPES, CONTENT_TYPE_LABELS, STATIC_PAGE_SLUGS, type TAdminContentItem, type TAdminContentType } from '@storefront/shared';
import { useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, Notice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/content';
import { may, useAdminSession } from './layout.tsx';

// Site content (docs/decisions/0035): the home carousel, articles, bullets, the site pages
// and the two pop-ups, one kind at a time, in the order the shop shows them.

export function meta() {
  return [{ title: 'Content · Back office' }];
}

const typeOf = (request: Request): TAdminContentType => {
  const t = new URL(request.url).searchParams.get('type');
  return (ADMIN_CONTENT_TYPES as readonly string[]).includes(t ?? '') ? (t as TAdminContentType) : 'slider';
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const type = typeOf(request);
  const { items } = await adminRead<{ items: TAdminContentItem[] }>(context, request, `/api/admin/content?type=${encodeURIComponent(type)}`);
  return { type, items };
}

/** What the storefront does with an item now, in words. */
function statusOf(item: TAdminContentItem): { label: string; tone: string } {
  if (item.type === 'page') return { label: 'Published', tone: 'bg-brand-50 text-brand-800' };
  if (!item.active) return { label: 'Off', tone: 'bg-sand-200 text-ink-muted' };
  if (item.live) return { label: 'Showing', tone: 'bg-green-50 text-success-600' };
  if (item.shownFrom && Date.parse(item.shownFrom) > Date.now()) return { label: 'Scheduled', tone: 'bg-sand-100 text-ink' };
  return { label: 'Ended', tone: 'bg-sand-200 text-ink-muted' };
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB', { timeZone: 'Asia/Dhaka', dateStyle: 'medium', timeStyle: 'short' }) : null);

export default function AdminContent({ loaderData }: Route.ComponentProps) {
  const { type, items } = loaderData;
  const session = useAdminSession();
  const canWrite = may(session, 'content.write');
  const revalidator = useRevalidator();
  const [problem, setProblem] = useState<string | null>(null);
  const missingPages = type === 'page' ? STATIC_PAGE_SLUGS.filter((s) => !items.some((i) => i.slug === s)) : [];

  const move = async (index: number, by: number) => {
    const ids = items.map((i) => i.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id);
    const res = await apiFetch('/api/admin/content/order', { method: 'POST', body: { type, ids } });
    setProblem(res.ok ? null : (res.error?.message ?? 'The order was not saved'));
    revalidator.revalidate();
  };

  return (
    <AdminPage
      title="Content"
      description="What the shop's home page, site pages and pop-ups show. A change is on the shop at the next page load."
      actions={
        canWrite && type !== 'page' ? (
          <Link
            to={`/admin/content/new?type=${type}`}
            className="inline-flex h-10 items-center rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800"
          >
            Add to {CONTENT_TYPE_LABELS[type].toLowerCase()}
          </Link>
        ) : null
      }
    >
      <nav aria-label="Kinds of content" className="mb-4 flex flex-wrap gap-2">
        {ADMIN_CONTENT_TYPES.map((t) => (
          <Link
            key={t}
            to={`/admin/content?type=${t}`}
            aria-current={t === type ? 'page' : undefined}
            className={`rounded-full border px-3 py-1.5 text-sm font-medium ${t === type ? 'border-brand-700 bg-brand-700 text-white' : 'border-sand-300 hover:bg-sand-50'}`}
          >
            {CONTENT_TYPE_LABELS[t]}
          </Link>
        ))}
      </nav>
      {problem && <Notice tone="error">{problem}</Notice>}
      <Card title={CONTENT_TYPE_LABELS[type]}>
        {!items.length ? (
          <p className="text-sm text-ink-muted">Nothing here yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-sand-200 text-ink-muted">
                  {type === 'slider' || type === 'campaign' || type === 'subscription-offer' ? <th className="py-2 pr-3 font-medium">Picture</th> : null}
                  <th className="py-2 pr-3 font-medium">Title</th>
                  <th className="py-2 pr-3 font-medium">{type === 'page' ? 'Address' : 'On the shop'}</th>
                  {type !== 'page' && <th className="py-2 pr-3 font-medium">Schedule</th>}
                  {canWrite && type !== 'page' && <th className="py-2 pr-3 font-medium">Order</th>}
                </tr>
              </thead>
              <tbody>
                {items.map((item, i) => {
                  const status = statusOf(item);
                  const image = typeof item.fields.image === 'string' ? item.fields.image : null;
                  return (
                    <tr key={item.id} className="border-b border-sand-100 align-middle">
                      {type === 'slider' || type === 'campaign' || type === 'subscription-offer' ? (
                        <td className="py-2 pr-3">
                          {image && <img src={image} alt="" width={96} height={40} className="h-10 w-24 rounded border border-sand-200 object-cover" />}
                        </td>
                      ) : null}
                      <td className="py-2 pr-3">
                        <Link to={`/admin/content/${item.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline">
                          {item.title}
                        </Link>
                      </td>
                      <td className="py-2 pr-3">
                        {type === 'page' ? (
                          <a href={`/${item.slug}`} className="underline-offset-2 hover:underline">
                            /{item.slug}
                          </a>
                        ) : (
                          <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${status.tone}`}>{status.label}</span>
                        )}
                      </td>
                      {type !== 'page' && (
                        <td className="py-2 pr-3 text-ink-muted">
                          {item.shownFrom || item.shownUntil ? `${when(item.shownFrom) ?? 'now'} – ${when(item.shownUntil) ?? 'no end'}` : 'Always'}
                        </td>
                      )}
                      {canWrite && type !== 'page' && (
                        <td className="py-2 pr-3">
                          <div className="flex gap-1">
                            <button
                              type="button"
                              className="h-8 rounded-md border border-sand-300 px-2 disabled:opacity-40"
                              disabled={i === 0}
                              onClick={() => move(i, -1)}
                              aria-label={`Move “${item.title}” up`}
                            >
                              ↑
                            </button>
                            <button
                              type="button"
                              className="h-8 rounded-md border border-sand-300 px-2 disabled:opacity-40"
                              disabled={i === items.length - 1}
                              onClick={() => move(i, 1)}
                              aria-label={`Move “${item.title}” down`}
                            >
                              ↓
                            </button>
                          </div>
                        </td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {canWrite && missingPages.length > 0 && (
          <p className="mt-4 text-sm">
            Pages without text yet:{' '}
            {missingPages.map((s, i) => (
              <span key={s}>
                {i > 0 && ', '}
                <Link to={`/admin/content/new?type=page&slug=${s}`} className="text-brand-800 underline">
                  /{s}
                </Link>
              </span>
            ))}
          </p>
        )}
      </Card>
    </AdminPage>
  );
}
