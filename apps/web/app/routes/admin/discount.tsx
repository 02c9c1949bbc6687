import { parseTaka, type TAdminDiscount, type TAdminProductRow, type TAdminReference, type TDiscountPreview, takaInput } from '@storefront/shared';
import { useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, taka } from '../../components/admin/admin-ui.tsx';
import {
  fromDhakaInput,
  OnOffSwitch,
  PERCENT_HINT,
  PromotionStateBadge,
  toDhakaInput,
  valueText,
  windowText,
} from '../../components/admin/promotion-parts.tsx';
import { Modal } from '../../components/ui/modal.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/discount';
import { may, useAdminSession } from './layout.tsx';

// One global discount (docs/decisions/0034): its terms, a preview of every price it would
// change (computed by the server with the storefront's own rule), and the switch that puts
// it in force. The shop shows a change from the next page a shopper opens.

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.discount?.title ?? 'New discount'} · Back office` }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const id = (params as { id?: string }).id;
  const [reference, discount] = await Promise.all([
    adminRead<TAdminReference>(context, request, '/api/admin/reference'),
    id ? adminRead<TAdminDiscount>(context, request, `/api/admin/promotions/discounts/${encodeURIComponent(id)}`) : Promise.resolve(null),
  ]);
  return { categories: reference.categories, discount };
}

type Item = { productId: number; title: string; skuCode: string };
type Draft = {
  title: string;
  type: 'FIXED_CATEGORY' | 'FIXED_PRODUCT';
  discountType: 'PERCENTAGE' | 'AMOUNT';
  value: string;
  categoryIds: number[];
  items: Item[];
  startsAt: string;
  endsAt: string;
  active: boolean;
};

const draftOf = (d: TAdminDiscount | null): Draft => ({
  title: d?.title ?? '',
  type: d?.type ?? 'FIXED_CATEGORY',
  discountType: d?.discountType ?? 'PERCENTAGE',
  value: d ? (d.discountType === 'PERCENTAGE' ? String(d.value) : takaInput(d.value)) : '',
  categoryIds: d?.categories.map((c) => c.id) ?? [],
  items: d?.items.map((i) => ({ productId: i.productId, title: i.title, skuCode: i.skuCode ?? '' })) ?? [],
  startsAt: toDhakaInput(d?.startsAt ?? null),
  endsAt: toDhakaInput(d?.endsAt ?? null),
  active: d?.active ?? false,
});

/** The draft as the API takes it, or the fields the browser can already tell are wrong. */
function bodyOf(draft: Draft): { body?: Record<string, unknown>; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  let value: number | null = null;
  if (draft.discountType === 'PERCENTAGE') {
    value = /^\d{1,3}$/.test(draft.value.trim()) ? Number(draft.value.trim()) : null;
    if (value === null) fields.value = 'Type a whole number of per cent';
  } else {
    value = parseTaka(draft.value);
    if (value === null) fields.value = 'Type an amount in taka';
  }
  const startsAt = fromDhakaInput(draft.startsAt);
  const endsAt = fromDhakaInput(draft.endsAt);
  if (startsAt === undefined) fields.startsAt = 'Pick a date and time';
  if (endsAt === undefined) fields.endsAt = 'Pick a date and time';
  if (Object.keys(fields).length) return { fields };
  return {
    fields,
    body: {
      title: draft.title,
      type: draft.type,
      discountType: draft.discountType,
      value,
      categoryIds: draft.type === 'FIXED_CATEGORY' ? draft.categoryIds : [],
      items: draft.type === 'FIXED_PRODUCT' ? draft.items.map((i) => ({ productId: i.productId, skuCode: i.skuCode.trim() || null })) : [],
      startsAt,
      endsAt,
      active: draft.active,
    },
  };
}

const PREVIEW_SIZE = 20;

function PreviewTable({ preview, onPage }: { preview: TDiscountPreview; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(preview.total / preview.size));
  return (
    <div>
      <p className="mb-3 text-sm" role="status">
        Reaches {preview.total.toLocaleString('en-US')} {preview.total === 1 ? 'sku' : 'skus'} in {preview.products.toLocaleString('en-US')}{' '}
        {preview.products === 1 ? 'product' : 'products'}; {preview.lowered.toLocaleString('en-US')} would get cheaper.
      </p>
      <div className="overflow-x-auto rounded-card border border-sand-200">
        <table className="w-full min-w-[40rem] border-collapse text-sm">
          <caption className="sr-only">Prices with this discount</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Product
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                SKU
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                List price
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Price now
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                With this discount
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.items.map((l) => (
              <tr key={l.skuCode} className="border-b border-sand-100 last:border-0">
                <td className="px-3 py-2">{l.title}</td>
                <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{l.skuCode}</td>
                <td className="px-3 py-2 text-right tabular-nums">{taka(l.salesPrice)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{taka(l.currentPrice)}</td>
                <td className="px-3 py-2 text-right tabular-nums">
                  <span className={l.newPrice < l.currentPrice ? 'font-semibold text-success-600' : ''}>{taka(l.newPrice)}</span>
                  {!l.wins && <span className="block text-xs text-ink-muted">A larger saving already applies</span>}
                </td>
              </tr>
            ))}
            {!preview.items.length && (
              <tr>
                <td colSpan={5} className="px-3 py-6 text-center text-ink-muted">
                  No product on sale is reached.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav aria-label="Preview pages" className="mt-3 flex items-center justify-end gap-2 text-sm">
          <button
            type="button"
            disabled={preview.page <= 1}
            onClick={() => onPage(preview.page - 1)}
            className="rounded-lg border border-sand-300 px-3 py-1.5 disabled:opacity-50"
          >
            Previous
          </button>
          <span>
            Page {preview.page} of {pages}
          </span>
          <button
            type="button"
            disabled={preview.page >= pages}
            onClick={() => onPage(preview.page + 1)}
            className="rounded-lg border border-sand-300 px-3 py-1.5 disabled:opacity-50"
          >
            Next
          </button>
        </nav>
      )}
    </div>
  );
}

function ProductPicker({ onAdd, disabled }: { onAdd: (p: TAdminProductRow) => void; disabled: boolean }) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<TAdminProductRow[] | null>(null);
  const search = async () => {
    const res = await apiFetch<{ items: TAdminProductRow[] }>(`/api/admin/products?size=10&q=${encodeURIComponent(q)}`);
    setFound(res.ok ? res.data.items : []);
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex gap-2">
        <label htmlFor="product-search" className="sr-only">
          Find a product
        </label>
        <input
          id="product-search"
          className={inputClass}
          type="search"
          value={q}
          disabled={disabled}
          placeholder="Title, model or sku code"
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void search();
            }
          }}
        />
        <button
          type="button"
          disabled={disabled}
          onClick={search}
          className="h-10 rounded-lg border border-sand-300 px-4 text-sm font-semibold hover:bg-sand-100"
        >
          Find
        </button>
      </div>
      {found && (
        <ul className="divide-y divide-sand-100 rounded-lg border border-sand-200" aria-label="Products found">
          {found.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-2 px-3 py-2 text-sm">
              <span>
                {p.title} <span className="text-ink-muted">· {p.category}</span>
              </span>
              <button type="button" onClick={() => onAdd(p)} className="rounded-lg border border-sand-300 px-3 py-1 text-xs font-semibold hover:bg-sand-100">
                Add {p.title}
              </button>
            </li>
          ))}
          {!found.length && <li className="px-3 py-2 text-sm text-ink-muted">No product matches.</li>}
        </ul>
      )}
    </div>
  );
}

export default function AdminDiscount({ loaderData }: Route.ComponentProps) {
  const { categories, discount } = loaderData;
  const session = useAdminSession();
  const canWrite = may(session, 'promotions.write');
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<Draft>(() => draftOf(discount));
  const [problem, setProblem] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [preview, setPreview] = useState<TDiscountPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const fields = problem?.fields ?? {};
  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    // What the preview showed is for the terms it was asked with.
    setPreview(null);
  };

  const runPreview = async (page = 1) => {
    const { body, fields: local } = bodyOf(draft);
    if (!body) return setProblem({ message: 'Please check the marked fields', fields: local });
    setBusy(true);
    const res = await apiFetch<TDiscountPreview>(`/api/admin/promotions/discounts/preview?page=${page}&size=${PREVIEW_SIZE}`, {
      method: 'POST',
      body: { ...body, ...(discount ? { id: discount.id } : {}) },
    });
    setBusy(false);
    if (!res.ok) return setProblem({ message: res.error?.message ?? 'The preview could not be made', fields: res.error?.fields ?? {} });
    setProblem(null);
    setPreview(res.data);
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const { body, fields: local } = bodyOf(draft);
    if (!body) return setProblem({ message: 'Please check the marked fields', fields: local });
    setBusy(true);
    const res = await apiFetch<TAdminDiscount>(discount ? `/api/admin/promotions/discounts/${discount.id}` : '/api/admin/promotions/discounts', {
      method: discount ? 'PUT' : 'POST',
      // The switch is its own control once saved: saving the terms keeps its position.
      body: discount ? { ...body, active: discount.active, version: discount.version } : body,
    });
    setBusy(false);
    if (!res.ok) return setProblem({ message: res.error?.message ?? 'The discount was not saved', fields: res.error?.fields ?? {} });
    setProblem(null);
    if (!discount) {
      navigate(`/admin/discounts/${res.data.id}`, { state: { saved: true } });
      return;
    }
    setNotice(res.data.state === 'in_force' ? 'Saved. The shop shows the new terms now.' : 'Saved.');
    revalidator.revalidate();
  };

  const toggle = async () => {
    if (!discount) return;
    setBusy(true);
    const res = await apiFetch<TAdminDiscount>(`/api/admin/promotions/discounts/${discount.id}`, {
      method: 'PATCH',
      body: { active: !discount.active, version: discount.version },
    });
    setBusy(false);
    if (!res.ok) return setProblem({ message: res.error?.message ?? 'The discount was not switched', fields: {} });
    setProblem(null);
    setDraft((d) => ({ ...d, active: res.data.active }));
    setNotice(
      !res.data.active
        ? 'Switched off. The shop shows its usual prices now.'
        : res.data.state === 'in_force'
          ? 'Switched on. The shop shows the discounted prices now.'
          : `Switched on. It applies ${windowText(res.data.startsAt, res.data.endsAt)}.`,
    );
    revalidator.revalidate();
  };

  const remove = async () => {
    if (!discount) return;
    const res = await apiFetch(`/api/admin/promotions/discounts/${discount.id}?version=${discount.version}`, { method: 'DELETE' });
    setConfirmRemove(false);
    if (!res.ok) return setProblem({ message: res.error?.message ?? 'The discount was not removed', fields: {} });
    navigate('/admin/discounts');
  };

  const input = (key: 'title' | 'value' | 'startsAt' | 'endsAt', label: string, hint?: string, extra: Record<string, unknown> = {}) => (
    <Field id={`discount-${key}`} label={label} hint={hint} error={fields[key]}>
      <input
        className={inputClass}
        value={draft[key]}
        disabled={!canWrite}
        onChange={(e) => set({ [key]: e.target.value })}
        {...describedBy(`discount-${key}`, fields[key])}
        {...extra}
      />
    </Field>
  );

  return (
    <AdminPage
      title={discount ? discount.title : 'New discount'}
      description={
        discount ? (
          <span className="inline-flex flex-wrap items-center gap-2">
            <PromotionStateBadge state={discount.state} /> {valueText(discount.discountType, discount.value)} · {windowText(discount.startsAt, discount.endsAt)}
          </span>
        ) : (
          'Set the terms, preview the prices, then switch it on.'
        )
      }
      actions={
        <Link to="/admin/discounts" className="inline-flex h-10 items-center rounded-lg border border-sand-300 px-4 text-sm font-semibold hover:bg-sand-100">
          All discounts
        </Link>
      }
    >
      <div className="flex flex-col gap-6">
        {notice && <Notice tone="success">{notice}</Notice>}
        {problem && !Object.keys(problem.fields).length && <Notice tone="error">{problem.message}</Notice>}

        {discount && (
          <Card title="In the shop">
            <div className="flex flex-wrap items-center gap-4">
              <OnOffSwitch on={discount.active} label="Discount in the shop" disabled={!canWrite || busy} onToggle={toggle} />
              <p className="text-sm text-ink-muted">
                {discount.active ? 'Shoppers get it while it is in its dates.' : 'Preview the prices below before switching it on.'}
              </p>
            </div>
          </Card>
        )}

        <Card title="Terms">
          <form onSubmit={save} noValidate className="grid gap-4 md:grid-cols-6" aria-label="Discount terms">
            <div className="md:col-span-6">{input('title', 'Title', 'Shown to shoppers beside the price')}</div>
            <fieldset className="md:col-span-3">
              <legend className="text-sm font-medium">Applies to</legend>
              <div className="mt-2 flex gap-4 text-sm">
                {(
                  [
                    ['FIXED_CATEGORY', 'Categories'],
                    ['FIXED_PRODUCT', 'Products'],
                  ] as const
                ).map(([v, label]) => (
                  <label key={v} className="inline-flex items-center gap-2">
                    <input type="radio" name="type" value={v} checked={draft.type === v} disabled={!canWrite} onChange={() => set({ type: v })} />
                    {label}
                  </label>
                ))}
              </div>
            </fieldset>
            <fieldset className="md:col-span-3">
              <legend className="text-sm font-medium">Kind</legend>
              <div className="mt-2 flex gap-4 text-sm">
                {(
                  [
                    ['PERCENTAGE', 'Percentage'],
                    ['AMOUNT', 'Amount in taka'],
                  ] as const
                ).map(([v, label]) => (
                  <label key={v} className="inline-flex items-center gap-2">
                    <input
                      type="radio"
                      name="discountType"
                      value={v}
                      checked={draft.discountType === v}
                      disabled={!canWrite}
                      onChange={() => set({ discountType: v })}
                    />
                    {label}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="md:col-span-2">
              {draft.discountType === 'PERCENTAGE'
                ? input('value', 'Per cent off', PERCENT_HINT, { inputMode: 'numeric' })
                : input('value', 'Taka off (৳)', 'Taken off each unit, never below ৳0', { inputMode: 'decimal' })}
            </div>
            <div className="md:col-span-2">{input('startsAt', 'Starts (Dhaka time)', 'Empty: at once', { type: 'datetime-local' })}</div>
            <div className="md:col-span-2">{input('endsAt', 'Ends (Dhaka time)', 'Empty: until switched off', { type: 'datetime-local' })}</div>

            {draft.type === 'FIXED_CATEGORY' ? (
              <fieldset className="md:col-span-6" aria-describedby={fields.categoryIds ? 'discount-categories-error' : undefined}>
                <legend className="text-sm font-medium">Categories (their sub-categories are included)</legend>
                {/* One block per top-level category, never split across columns, so the tree reads as a tree. */}
                <div className="mt-2 max-h-72 gap-6 overflow-y-auto rounded-lg border border-sand-200 p-3 text-sm sm:columns-2 lg:columns-3">
                  {categoryGroups(categories).map((group) => (
                    <div key={group[0].id} className="mb-2 flex break-inside-avoid flex-col gap-1">
                      {group.map((c) => (
                        <label key={c.id} className="inline-flex items-center gap-2" style={{ paddingLeft: `${c.depth * 1}rem` }}>
                          <input
                            type="checkbox"
                            checked={draft.categoryIds.includes(c.id)}
                            disabled={!canWrite}
                            onChange={(e) =>
                              set({ categoryIds: e.target.checked ? [...draft.categoryIds, c.id] : draft.categoryIds.filter((x) => x !== c.id) })
                            }
                          />
                          <span className={c.depth === 0 ? 'font-medium' : undefined}>{c.name}</span>
                        </label>
                      ))}
                    </div>
                  ))}
                </div>
                {fields.categoryIds && (
                  <p id="discount-categories-error" className="mt-1 text-xs font-medium text-danger-600">
                    {fields.categoryIds}
                  </p>
                )}
              </fieldset>
            ) : (
              <fieldset className="md:col-span-6" aria-describedby={fields.items ? 'discount-items-error' : undefined}>
                <legend className="text-sm font-medium">Products</legend>
                <ul className="mt-2 flex flex-col gap-2" aria-label="Chosen products">
                  {draft.items.map((i, n) => (
                    <li key={i.productId} className="flex flex-wrap items-end gap-2 text-sm">
                      <span className="min-w-48 flex-1 font-medium">{i.title}</span>
                      <label className="flex flex-col gap-1">
                        <span className="text-xs">Only this sku (optional)</span>
                        <input
                          className={`${inputClass} w-48`}
                          value={i.skuCode}
                          disabled={!canWrite}
                          onChange={(e) => set({ items: draft.items.map((x, k) => (k === n ? { ...x, skuCode: e.target.value } : x)) })}
                        />
                      </label>
                      {canWrite && (
                        <button
                          type="button"
                          onClick={() => set({ items: draft.items.filter((_, k) => k !== n) })}
                          className="h-10 rounded-lg border border-sand-300 px-3 text-xs font-semibold hover:bg-sand-100"
                        >
                          Remove {i.title}
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
                {canWrite && (
                  <div className="mt-3">
                    <ProductPicker
                      disabled={!canWrite}
                      onAdd={(p) =>
                        !draft.items.some((x) => x.productId === p.id) && set({ items: [...draft.items, { productId: p.id, title: p.title, skuCode: '' }] })
                      }
                    />
                  </div>
                )}
                {fields.items && (
                  <p id="discount-items-error" className="mt-1 text-xs font-medium text-danger-600">
                    {fields.items}
                  </p>
                )}
              </fieldset>
            )}

            {!discount && canWrite && (
              <label className="inline-flex items-center gap-2 text-sm md:col-span-6">
                <input type="checkbox" checked={draft.active} onChange={(e) => set({ active: e.target.checked })} />
                Switch it on when saved
              </label>
            )}

            <div className="flex flex-wrap gap-2 md:col-span-6">
              <button
                type="button"
                onClick={() => runPreview(1)}
                disabled={busy}
                className="h-10 rounded-lg border border-brand-700 px-4 text-sm font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
              >
                Preview prices
              </button>
              {canWrite && (
                <button
                  type="submit"
                  disabled={busy}
                  className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
                >
                  {discount ? 'Save' : 'Save the discount'}
                </button>
              )}
              {discount && canWrite && (
                <button
                  type="button"
                  onClick={() => setConfirmRemove(true)}
                  className="h-10 rounded-lg border border-danger-600 px-4 text-sm font-semibold text-danger-600 hover:bg-red-50"
                >
                  Remove
                </button>
              )}
            </div>
          </form>
        </Card>

        {preview && (
          <Card title="Preview">
            <PreviewTable preview={preview} onPage={(p) => void runPreview(p)} />
          </Card>
        )}
      </div>

      {confirmRemove && discount && (
        <Modal open onOpenChange={(o) => !o && setConfirmRemove(false)} title="Remove this discount?" className="lg:max-w-lg">
          <p className="text-sm">“{discount.title}” is removed for good. Orders already placed keep their prices. To pause it instead, switch it off.</p>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" onClick={() => setConfirmRemove(false)} className="h-10 rounded-lg border border-sand-300 px-4 text-sm font-semibold">
              Keep it
            </button>
            <button type="button" onClick={remove} className="h-10 rounded-lg bg-danger-600 px-4 text-sm font-semibold text-white">
              Remove the discount
            </button>
          </div>
        </Modal>
      )}
    </AdminPage>
  );
}

/** The categories in tree order, cut where each top-level category starts. */
function categoryGroups<T extends { depth: number }>(list: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (const c of list) {
    if (c.depth === 0 || groups.length === 0) groups.push([c]);
    else groups[groups.length - 1].push(c);
  }
  return groups;
}
