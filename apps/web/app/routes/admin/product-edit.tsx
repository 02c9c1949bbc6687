import type { TAdminProduct, TAdminReference } from '@storefront/shared';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, StatusBadge } from '../../components/admin/admin-ui.tsx';
import { ProductImages } from '../../components/admin/product-images.tsx';
import { bodyOf, draftOf, emptySku, newKey, type ProductDraft, type SkuDraft, withTitle } from '../../components/admin/product-form.ts';
import { StockPanel } from '../../components/admin/stock-panel.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/product-edit';
import { may, useAdminSession } from './layout.tsx';

// The product editor (docs/decisions/0031): the product with its categories, pictures and
// skus, saved in one request with the version it was opened at (someone else's save in
// between is a clear 409, not a silent overwrite); stock per branch beside it. What was
// typed stays on the screen when the server refuses it, with the reason by each field.

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.product?.title ?? 'New product'} · Back office` }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const [product, reference] = await Promise.all([
    params.id ? adminRead<TAdminProduct>(context, request, `/api/admin/products/${encodeURIComponent(params.id)}`) : Promise.resolve(null),
    adminRead<TAdminReference>(context, request, '/api/admin/reference'),
  ]);
  return { product, reference };
}

type Errors = { message: string; fields: Record<string, string>; stale?: boolean } | null;

export default function ProductEdit({ loaderData }: Route.ComponentProps) {
  const { product, reference } = loaderData;
  const session = useAdminSession();
  const canWrite = may(session, 'catalogue.write');
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<ProductDraft>(() => draftOf(product));
  const [version, setVersion] = useState(product?.version ?? 0);
  const [errors, setErrors] = useState<Errors>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Another product opened in the same screen (a duplicate), or this one saved, archived or
  // restored: the form shows what the server now holds.
  const productId = product?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the product or its version changes
  useEffect(() => {
    setDraft(draftOf(product));
    setVersion(product?.version ?? 0);
    setErrors(null);
  }, [productId, product?.version]);

  const set = (patch: Partial<ProductDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setSku = (i: number, patch: Partial<SkuDraft>) => setDraft((d) => ({ ...d, skus: d.skus.map((s, j) => (j === i ? { ...s, ...patch } : s)) }));
  const err = (field: string) => errors?.fields[field];
  // A refused save takes the eye to what to fix: the first marked field, else the message.
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!errors) return;
    const field = document.querySelector<HTMLElement>('#admin-main [aria-invalid="true"]');
    if (field) field.focus();
    else notice.current?.scrollIntoView({ block: 'center' });
  }, [errors]);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setSaved(null);
    const { body, errors: local } = bodyOf(draft);
    if (Object.keys(local).length) {
      setErrors({ message: 'Some amounts are not in taka: see the marked fields', fields: local });
      return;
    }
    setBusy(true);
    const res = product
      ? await apiFetch<TAdminProduct>(`/api/admin/products/${product.id}`, { method: 'PUT', body: { ...body, version } })
      : await apiFetch<TAdminProduct>('/api/admin/products', { method: 'POST', body });
    setBusy(false);
    if (res.ok) {
      setErrors(null);
      if (!product) {
        navigate(`/admin/products/${res.data.id}`, { replace: true });
        return;
      }
      setVersion(res.data.version);
      setDraft(draftOf(res.data));
      setSaved('Saved. The shop shows the change now.');
      revalidator.revalidate();
      return;
    }
    setErrors({
      message:
        res.ok === false && res.networkError
          ? 'The back office cannot be reached. Nothing was saved; try again.'
          : (res.error?.message ?? 'The product could not be saved'),
      fields: (!res.ok && res.error?.fields) || {},
      stale: !res.ok && res.error?.code === 'stale_version',
    });
  };

  const act = async (path: string, body?: unknown) => {
    setBusy(true);
    const res = await apiFetch<TAdminProduct>(path, { method: 'POST', body: body ?? {} });
    setBusy(false);
    if (!res.ok) {
      setErrors({ message: res.error?.message ?? 'That did not work', fields: {}, stale: res.error?.code === 'stale_version' });
      return;
    }
    if (res.data.id !== product?.id) navigate(`/admin/products/${res.data.id}`);
    else revalidator.revalidate();
  };

  const topCategories = reference.categories;
  return (
    <AdminPage
      title={product ? product.title : 'New product'}
      description={
        product ? (
          <span className="inline-flex flex-wrap items-center gap-2">
            <StatusBadge status={product.status} /> Model {product.modelCode ?? '—'} · version {version}
            {product.status === 'published' && (
              <a className="text-brand-700 hover:underline" href={`/products/${product.slug}`} target="_blank" rel="noopener">
                View in the shop ↗
              </a>
            )}
          </span>
        ) : (
          'A new product starts as a draft: shoppers see it once it is published.'
        )
      }
      actions={
        <>
          <Link
            to="/admin/products"
            className="inline-flex h-10 items-center rounded-lg border border-sand-300 bg-paper px-4 text-sm font-semibold hover:bg-sand-100"
          >
            All products
          </Link>
          {product && canWrite && (
            <>
              <button
                type="button"
                disabled={busy}
                onClick={() => act(`/api/admin/products/${product.id}/duplicate`)}
                className="h-10 rounded-lg border border-sand-300 bg-paper px-4 text-sm font-semibold hover:bg-sand-100"
              >
                Duplicate
              </button>
              {product.status === 'archived' ? (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => act(`/api/admin/products/${product.id}/restore`, { version })}
                  className="h-10 rounded-lg border border-sand-300 bg-paper px-4 text-sm font-semibold hover:bg-sand-100"
                >
                  Restore as draft
                </button>
              ) : (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => act(`/api/admin/products/${product.id}/archive`, { version })}
                  className="h-10 rounded-lg border border-danger-600 bg-paper px-4 text-sm font-semibold text-danger-600 hover:bg-red-50"
                >
                  Archive
                </button>
              )}
            </>
          )}
        </>
      }
    >
      <form onSubmit={save} noValidate className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="flex min-w-0 flex-col gap-6">
          {errors && (
            <div ref={notice}>
              <Notice tone="error">
                {errors.message}
                {errors.stale && (
                  <>
                    {' '}
                    <Link to="." reloadDocument className="font-semibold underline">
                      Reload the product
                    </Link>{' '}
                    (your changes here will be lost; copy what you need first).
                  </>
                )}
              </Notice>
            </div>
          )}
          {saved && <Notice tone="success">{saved}</Notice>}
          <Card title="Details">
            <div className="grid gap-4 md:grid-cols-2">
              <div className="md:col-span-2">
                <Field id="title" label="Title" error={err('title')}>
                  <input
                    className={inputClass}
                    value={draft.title}
                    onChange={(e) => setDraft((d) => withTitle(d, e.target.value))}
                    maxLength={200}
                    {...describedBy('title', err('title'))}
                  />
                </Field>
              </div>
              <div className="md:col-span-2">
                <Field
                  id="titleBn"
                  label="Title in Bangla"
                  error={err('titleBn')}
                  hint="Shown to shoppers reading the shop in Bangla; empty: they see the English title."
                >
                  <input
                    className={inputClass}
                    lang="bn"
                    value={draft.titleBn}
                    onChange={(e) => set({ titleBn: e.target.value })}
                    maxLength={200}
                    {...describedBy('titleBn', err('titleBn'))}
                  />
                </Field>
              </div>
              <Field id="slug" label="Address (slug)" error={err('slug')} hint={`Shown at /products/${draft.slug || '…'}; an old address keeps working.`}>
                <input
                  className={inputClass}
                  value={draft.slug}
                  onChange={(e) => set({ slug: e.target.value, slugTouched: true })}
                  maxLength={140}
                  {...describedBy('slug', err('slug'))}
                />
              </Field>
              <Field id="modelCode" label="Model code" error={err('modelCode')} hint="For example AFL-1021.">
                <input
                  className={inputClass}
                  value={draft.modelCode}
                  onChange={(e) => set({ modelCode: e.target.value })}
                  maxLength={60}
                  {...describedBy('modelCode', err('modelCode'))}
                />
              </Field>
              <div className="md:col-span-2">
                <Field id="description" label="Description" error={err('description')}>
                  <textarea
                    className={`${inputClass} h-40 py-2`}
                    value={draft.description}
                    onChange={(e) => set({ description: e.target.value })}
                    maxLength={20000}
                    {...describedBy('description', err('description'))}
                  />
                </Field>
              </div>
              <div className="md:col-span-2">
                <Field id="descriptionBn" label="Description in Bangla" error={err('descriptionBn')}>
                  <textarea
                    className={`${inputClass} h-40 py-2`}
                    lang="bn"
                    value={draft.descriptionBn}
                    onChange={(e) => set({ descriptionBn: e.target.value })}
                    maxLength={20000}
                    {...describedBy('descriptionBn', err('descriptionBn'))}
                  />
                </Field>
              </div>
            </div>
          </Card>

          {draft.kind === 'bundle' && (
            <Card
              title="Bundle contents"
              actions={
                <button
                  type="button"
                  className="h-9 rounded-lg border border-sand-300 px-3 text-sm font-semibold hover:bg-sand-100"
                  onClick={() => set({ bundleItems: [...draft.bundleItems, { key: newKey(), skuCode: '', quantity: '1' }] })}
                >
                  Add a sku
                </button>
              }
            >
              {err('bundleItems') && <p className="mb-3 text-sm font-medium text-danger-600">{err('bundleItems')}</p>}
              {!draft.bundleItems.length && <p className="text-sm text-ink-muted">No skus in this bundle yet.</p>}
              <ul className="flex flex-col gap-3">
                {draft.bundleItems.map((b, i) => (
                  <li key={b.key} className="flex flex-wrap items-end gap-3">
                    <div className="min-w-48 flex-1">
                      <Field id={`bundle-${i}-sku`} label="Sku code" error={err(`bundleItems.${i}.skuCode`)}>
                        <input
                          className={inputClass}
                          value={b.skuCode}
                          onChange={(e) => set({ bundleItems: draft.bundleItems.map((x, j) => (j === i ? { ...x, skuCode: e.target.value } : x)) })}
                          {...describedBy(`bundle-${i}-sku`, err(`bundleItems.${i}.skuCode`))}
                        />
                      </Field>
                    </div>
                    <div className="w-28">
                      <Field id={`bundle-${i}-qty`} label="How many" error={err(`bundleItems.${i}.quantity`)}>
                        <input
                          className={inputClass}
                          inputMode="numeric"
                          value={b.quantity}
                          onChange={(e) => set({ bundleItems: draft.bundleItems.map((x, j) => (j === i ? { ...x, quantity: e.target.value } : x)) })}
                          {...describedBy(`bundle-${i}-qty`, err(`bundleItems.${i}.quantity`))}
                        />
                      </Field>
                    </div>
                    <button
                      type="button"
                      className="h-10 text-sm font-medium text-danger-600 hover:underline"
                      onClick={() => set({ bundleItems: draft.bundleItems.filter((_, j) => j !== i) })}
                    >
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
            </Card>
          )}

          <Card title="Pictures">
            <ProductImages images={draft.images} onChange={(images) => set({ images })} errors={errors?.fields ?? {}} />
          </Card>

          <Card
            title="Skus"
            actions={
              <button
                type="button"
                className="h-9 rounded-lg border border-sand-300 px-3 text-sm font-semibold hover:bg-sand-100"
                onClick={() => set({ skus: [...draft.skus, emptySku()] })}
              >
                Add a sku
              </button>
            }
          >
            {err('skus') && <p className="mb-3 text-sm font-medium text-danger-600">{err('skus')}</p>}
            <div className="flex flex-col gap-4">
              {draft.skus.map((s, i) => (
                <fieldset key={s.key} className="rounded-lg border border-sand-200 p-3">
                  <legend className="px-1 text-sm font-semibold">{s.code || `Sku ${i + 1}`}</legend>
                  <div className="grid gap-3 sm:grid-cols-2 2xl:grid-cols-4">
                    <Field id={`sku-${i}-code`} label="Sku code" error={err(`skus.${i}.code`)}>
                      <input
                        className={inputClass}
                        value={s.code}
                        onChange={(e) => setSku(i, { code: e.target.value })}
                        maxLength={80}
                        {...describedBy(`sku-${i}-code`, err(`skus.${i}.code`))}
                      />
                    </Field>
                    <Field id={`sku-${i}-price`} label="Price (৳)" error={err(`skus.${i}.salesPrice`)}>
                      <input
                        className={inputClass}
                        inputMode="decimal"
                        value={s.price}
                        onChange={(e) => setSku(i, { price: e.target.value })}
                        {...describedBy(`sku-${i}-price`, err(`skus.${i}.salesPrice`))}
                      />
                    </Field>
                    <Field id={`sku-${i}-discounted`} label="Discounted price (৳)" error={err(`skus.${i}.discountedSalesPrice`)} hint="Empty when not on sale.">
                      <input
                        className={inputClass}
                        inputMode="decimal"
                        value={s.discounted}
                        onChange={(e) => setSku(i, { discounted: e.target.value })}
                        {...describedBy(`sku-${i}-discounted`, err(`skus.${i}.discountedSalesPrice`))}
                      />
                    </Field>
                    <Field id={`sku-${i}-low`} label="Low stock at" error={err(`skus.${i}.lowStockThreshold`)} hint="Empty: the shop's default (3).">
                      <input
                        className={inputClass}
                        inputMode="numeric"
                        value={s.lowStock}
                        onChange={(e) => setSku(i, { lowStock: e.target.value })}
                        {...describedBy(`sku-${i}-low`, err(`skus.${i}.lowStockThreshold`))}
                      />
                    </Field>
                    {reference.attributes.map((a) => {
                      const current = s.attributes.find((x) => x.attributeId === a.id);
                      const listId = `attr-${a.id}-values`;
                      return (
                        <Field key={a.id} id={`sku-${i}-attr-${a.id}`} label={a.label}>
                          <input
                            id={`sku-${i}-attr-${a.id}`}
                            className={inputClass}
                            list={listId}
                            value={current?.displayLabel ?? ''}
                            onChange={(e) => {
                              const label = e.target.value;
                              const known = a.values.find((v) => v.displayLabel === label);
                              const others = s.attributes.filter((x) => x.attributeId !== a.id);
                              setSku(i, {
                                attributes: label.trim()
                                  ? [
                                      ...others,
                                      { attributeId: a.id, value: known?.value ?? label.trim().toLowerCase().replace(/\s+/g, '-'), displayLabel: label },
                                    ]
                                  : others,
                              });
                            }}
                          />
                        </Field>
                      );
                    })}
                  </div>
                  {draft.skus.length > 1 && (
                    <button
                      type="button"
                      className="mt-3 text-sm font-medium text-danger-600 hover:underline"
                      onClick={() => set({ skus: draft.skus.filter((_, j) => j !== i) })}
                    >
                      Remove this sku
                    </button>
                  )}
                </fieldset>
              ))}
            </div>
            {reference.attributes.map((a) => (
              <datalist key={a.id} id={`attr-${a.id}-values`}>
                {a.values.map((v) => (
                  <option key={v.value} value={v.displayLabel} />
                ))}
              </datalist>
            ))}
          </Card>
        </div>

        <div className="flex min-w-0 flex-col gap-6">
          <Card title="Publishing">
            <div className="flex flex-col gap-4">
              <Field id="status" label="Status" hint="Only published products reach the shop.">
                <select id="status" className={inputClass} value={draft.status} onChange={(e) => set({ status: e.target.value as ProductDraft['status'] })}>
                  <option value="draft">Draft</option>
                  <option value="published">Published</option>
                </select>
              </Field>
              <Field id="kind" label="Kind" hint="A bundle is sold as one item made of other products’ skus.">
                <select
                  className={inputClass}
                  value={draft.kind}
                  onChange={(e) => set({ kind: e.target.value as ProductDraft['kind'] })}
                  {...describedBy('kind')}
                >
                  <option value="single">Single product</option>
                  <option value="bundle">Bundle</option>
                </select>
              </Field>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-brand-700"
                  checked={draft.isNewArrival}
                  onChange={(e) => set({ isNewArrival: e.target.checked })}
                />
                Show among new arrivals
              </label>
              {canWrite && (
                <button type="submit" disabled={busy} className="h-11 rounded-lg bg-brand-700 font-semibold text-white hover:bg-brand-800 disabled:opacity-60">
                  {busy ? 'Saving…' : product ? 'Save changes' : 'Create product'}
                </button>
              )}
            </div>
          </Card>

          <Card title="Categories">
            {err('categoryIds') && <p className="mb-2 text-sm font-medium text-danger-600">{err('categoryIds')}</p>}
            <p className="mb-3 text-sm" data-testid="chosen-categories">
              {draft.categoryIds.length
                ? topCategories
                    .filter((c) => draft.categoryIds.includes(c.id))
                    .map((c) => (c.id === draft.primaryCategoryId ? `${c.path} (main)` : c.path))
                    .join('; ')
                : 'No category chosen yet.'}
            </p>
            <fieldset className="max-h-80 overflow-y-auto pr-1" aria-describedby={err('categoryIds') ? undefined : 'categories-hint'}>
              <legend id="categories-hint" className="mb-2 text-xs text-ink-muted">
                Tick every category the product belongs to, and choose its main one.
              </legend>
              {topCategories.map((c) => {
                const checked = draft.categoryIds.includes(c.id);
                return (
                  <div key={c.id} className="flex items-center justify-between gap-2 py-0.5" style={{ paddingLeft: `${c.depth * 1.25}rem` }}>
                    <label className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        className="h-4 w-4 accent-brand-700"
                        checked={checked}
                        onChange={(e) => {
                          const ids = e.target.checked ? [...draft.categoryIds, c.id] : draft.categoryIds.filter((x) => x !== c.id);
                          set({
                            categoryIds: ids,
                            primaryCategoryId: ids.includes(draft.primaryCategoryId ?? -1) ? draft.primaryCategoryId : (ids[0] ?? null),
                          });
                        }}
                      />
                      {c.name}
                    </label>
                    {checked && (
                      <label className="flex items-center gap-1 text-xs text-ink-muted">
                        <input
                          type="radio"
                          name="primaryCategory"
                          className="accent-brand-700"
                          checked={draft.primaryCategoryId === c.id}
                          onChange={() => set({ primaryCategoryId: c.id })}
                        />
                        Main
                      </label>
                    )}
                  </div>
                );
              })}
            </fieldset>
            {err('primaryCategoryId') && <p className="mt-2 text-sm font-medium text-danger-600">{err('primaryCategoryId')}</p>}
          </Card>

          <Card title="Stock">
            <StockPanel
              skus={product?.skus ?? []}
              branches={reference.branches}
              canAdjust={may(session, 'stock.write') && !!product}
              onChanged={() => revalidator.revalidate()}
            />
          </Card>
        </div>
        {canWrite && (
          // On narrower screens the publishing card is far below: saving stays in reach.
          <div className="sticky bottom-0 -mx-4 flex justify-end gap-3 border-t border-sand-200 bg-paper/95 px-4 py-3 xl:hidden">
            <button type="submit" disabled={busy} className="h-11 rounded-lg bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800 disabled:opacity-60">
              {busy ? 'Saving…' : product ? 'Save changes' : 'Create product'}
            </button>
          </div>
        )}
      </form>
    </AdminPage>
  );
}
