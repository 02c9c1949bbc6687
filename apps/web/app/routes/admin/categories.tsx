import { slugify, type TAdminCategory } from '@storefront/shared';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, describedBy, Field, inputClass, Notice } from '../../components/admin/admin-ui.tsx';
import { FileUploadField } from '../../components/files/file-upload-field.tsx';
import { Modal } from '../../components/ui/modal.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/categories';
import { may, useAdminSession } from './layout.tsx';

// The category tree (docs/decisions/0031): three levels, ordered by moving a category up or
// down among its siblings (buttons, reachable by keyboard), named, with a picture and a
// banner; only an empty category can be deleted.

export function meta() {
  return [{ title: 'Categories · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<{ items: TAdminCategory[] }>(context, request, '/api/admin/categories');
}

type Editing = { mode: 'new'; parent: TAdminCategory | null } | { mode: 'edit'; category: TAdminCategory };

export default function Categories({ loaderData }: Route.ComponentProps) {
  const session = useAdminSession();
  const canWrite = may(session, 'catalogue.write');
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const items = loaderData.items;
  const siblingsOf = (c: TAdminCategory) => items.filter((x) => x.parentId === c.parentId);

  const act = async (path: string, method: string, body?: unknown, done?: string) => {
    const r = await apiFetch(path, { method, body });
    if (r.ok) setMessage(done ? { tone: 'success', text: done } : null);
    else setMessage({ tone: 'error', text: r.error?.message ?? 'That did not work' });
    revalidator.revalidate();
  };

  return (
    <AdminPage
      title="Categories"
      description="The shop's menu and listings follow this tree: departments, groups and the categories products are filed under."
      actions={
        canWrite && (
          <button
            type="button"
            onClick={() => setEditing({ mode: 'new', parent: null })}
            className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800"
          >
            New department
          </button>
        )
      }
    >
      {message && (
        <div className="mb-4">
          <Notice tone={message.tone}>{message.text}</Notice>
        </div>
      )}
      <ul className="overflow-hidden rounded-card border border-sand-200 bg-paper" aria-label="Category tree">
        {items.map((c) => {
          const sibs = siblingsOf(c);
          const at = sibs.findIndex((s) => s.id === c.id);
          return (
            <li
              key={c.id}
              className="flex flex-wrap items-center gap-2 border-b border-sand-100 px-3 py-2 last:border-0"
              style={{ paddingLeft: `${0.75 + c.depth * 1.75}rem` }}
            >
              <div className="min-w-48 flex-1">
                <p className={c.depth === 0 ? 'font-semibold' : 'font-medium'}>
                  {c.name}
                  {c.nameBn ? (
                    <span lang="bn" className="ml-2 font-normal text-ink-muted">
                      {c.nameBn}
                    </span>
                  ) : null}
                </p>
                <p className="text-xs text-ink-muted">
                  /{c.slug} · {c.productCount} {c.productCount === 1 ? 'product' : 'products'}
                </p>
              </div>
              {canWrite && (
                <div className="flex flex-wrap gap-1 text-sm">
                  <button
                    type="button"
                    className="h-8 rounded-md border border-sand-300 px-2 disabled:opacity-40"
                    disabled={at === 0}
                    aria-label={`Move ${c.name} up`}
                    onClick={() => act(`/api/admin/categories/${c.id}/move`, 'POST', { direction: 'up', version: c.version })}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="h-8 rounded-md border border-sand-300 px-2 disabled:opacity-40"
                    disabled={at === sibs.length - 1}
                    aria-label={`Move ${c.name} down`}
                    onClick={() => act(`/api/admin/categories/${c.id}/move`, 'POST', { direction: 'down', version: c.version })}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="h-8 rounded-md border border-sand-300 px-2"
                    onClick={() => setEditing({ mode: 'edit', category: c })}
                    aria-label={`Edit ${c.name}`}
                  >
                    Edit
                  </button>
                  {c.depth < 2 && (
                    <button
                      type="button"
                      className="h-8 rounded-md border border-sand-300 px-2"
                      onClick={() => setEditing({ mode: 'new', parent: c })}
                      aria-label={`Add a category under ${c.name}`}
                    >
                      Add under
                    </button>
                  )}
                  <button
                    type="button"
                    className="h-8 rounded-md border border-sand-300 px-2 text-danger-600"
                    aria-label={`Delete ${c.name}`}
                    onClick={() => act(`/api/admin/categories/${c.id}`, 'DELETE', undefined, `“${c.name}” was deleted.`)}
                  >
                    Delete
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {editing && (
        <CategoryDialog
          editing={editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) {
              setMessage({ tone: 'success', text: saved });
              revalidator.revalidate();
            }
          }}
        />
      )}
    </AdminPage>
  );
}

function CategoryDialog({ editing, onClose }: { editing: Editing; onClose(saved: string | null): void }) {
  const c = editing.mode === 'edit' ? editing.category : null;
  const [name, setName] = useState(c?.name ?? '');
  const [nameBn, setNameBn] = useState(c?.nameBn ?? '');
  const [slug, setSlug] = useState(c?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(!!c);
  const [imageUrl, setImageUrl] = useState<string | null>(c?.imageUrl ?? null);
  const [bannerUrl, setBannerUrl] = useState<string | null>(c?.bannerUrl ?? null);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [busy, setBusy] = useState(false);
  const title = c ? `Edit ${c.name}` : editing.mode === 'new' && editing.parent ? `New category under ${editing.parent.name}` : 'New department';

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const body = { name, nameBn: nameBn.trim() || null, slug, imageUrl, bannerUrl };
    const r = c
      ? await apiFetch(`/api/admin/categories/${c.id}`, { method: 'PUT', body: { ...body, version: c.version } })
      : await apiFetch('/api/admin/categories', { method: 'POST', body: { ...body, parentId: editing.mode === 'new' ? (editing.parent?.id ?? null) : null } });
    setBusy(false);
    if (r.ok) onClose(`“${name.trim()}” was saved. The shop shows it now.`);
    else setError({ message: r.error?.message ?? 'The category was not saved', fields: r.error?.fields ?? {} });
  };
  const path = (url: string) => {
    try {
      return new URL(url, window.location.origin).pathname;
    } catch {
      return url;
    }
  };

  return (
    <Modal open onOpenChange={(o) => !o && onClose(null)} title={title} className="lg:max-w-xl">
      <form onSubmit={save} className="flex flex-col gap-4" noValidate>
        {error && <Notice tone="error">{error.message}</Notice>}
        <Field id="cat-name" label="Name" error={error?.fields.name}>
          <input
            className={inputClass}
            value={name}
            maxLength={120}
            onChange={(e) => {
              setName(e.target.value);
              if (!slugTouched) setSlug(slugify(e.target.value));
            }}
            {...describedBy('cat-name', error?.fields.name)}
          />
        </Field>
        <Field
          id="cat-name-bn"
          label="Name in Bangla"
          error={error?.fields.nameBn}
          hint="Shown to shoppers reading the shop in Bangla; empty: they see the English name."
        >
          <input
            className={inputClass}
            lang="bn"
            value={nameBn}
            maxLength={120}
            onChange={(e) => setNameBn(e.target.value)}
            {...describedBy('cat-name-bn', error?.fields.nameBn)}
          />
        </Field>
        <Field id="cat-slug" label="Slug" error={error?.fields.slug} hint="Lower-case letters, digits and dashes.">
          <input
            className={inputClass}
            value={slug}
            maxLength={140}
            onChange={(e) => {
              setSlug(e.target.value);
              setSlugTouched(true);
            }}
            {...describedBy('cat-slug', error?.fields.slug)}
          />
        </Field>
        {[['Picture', imageUrl, setImageUrl] as const, ['Banner', bannerUrl, setBannerUrl] as const].map(([label, url, set]) => (
          <div key={label} className="flex flex-wrap items-end gap-3">
            {url ? <img src={url} alt="" width={96} height={48} className="h-12 w-24 rounded-md border border-sand-200 object-cover" /> : null}
            <FileUploadField
              label={`${label} (optional)`}
              type="image"
              buttonText={url ? `Replace the ${label.toLowerCase()}` : `Choose a ${label.toLowerCase()}`}
              onUploaded={(f) => set(path(f.cdnUrl))}
            />
            {url && (
              <button type="button" className="text-sm text-danger-600 hover:underline" onClick={() => set(null)}>
                Remove
              </button>
            )}
          </div>
        ))}
        <div className="flex justify-end">
          <button
            type="submit"
            disabled={busy}
            className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
