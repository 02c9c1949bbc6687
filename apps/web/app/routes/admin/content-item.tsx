import {
  ADMIN_CONTENT_TYPES,
  CONTENT_TYPE_LABELS,
  dhakaInputToIso,
  isoToDhakaInput,
  SCHEDULED_TYPES,
  STATIC_PAGE_SLUGS,
  type TAdminContentItem,
  type TAdminContentType,
} from '@storefront/shared';
import { useRef, useState } from 'react';
import { data, Link, useNavigate } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice } from '../../components/admin/admin-ui.tsx';
import { RichText } from '../../components/content/rich-text.tsx';
import { FileUploadField } from '../../components/files/file-upload-field.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/content-item';
import { may, useAdminSession } from './layout.tsx';

// One content item (docs/decisions/0035). Pages are edited as the shop's rich text with a
// live preview drawn by the storefront's own RichText; slides and pop-ups show their picture.

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.item?.title ?? 'New content'} · Back office` }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  if (params.id) {
    const item = await adminRead<TAdminContentItem>(context, request, `/api/admin/content/${encodeURIComponent(params.id)}`);
    return { item, type: item.type as TAdminContentType, slug: item.slug };
  }
  const url = new URL(request.url);
  const type = url.searchParams.get('type') ?? '';
  if (!(ADMIN_CONTENT_TYPES as readonly string[]).includes(type)) throw data({ message: 'Choose what to add from the content list' }, { status: 404 });
  return { item: null, type: type as TAdminContentType, slug: url.searchParams.get('slug') ?? '' };
}

type Draft = {
  title: string;
  slug: string;
  body: string;
  /** The Bangla versions (docs/decisions/0038); empty: shoppers reading Bangla see the English. */
  titleBn: string;
  bodyBn: string;
  image: string;
  link: string;
  active: boolean;
  shownFrom: string;
  shownUntil: string;
};

const draftOf = (item: TAdminContentItem | null, slug: string): Draft => ({
  title: item?.title ?? '',
  slug: item?.slug ?? slug,
  body: item?.body ?? '',
  titleBn: item?.titleBn ?? '',
  bodyBn: item?.bodyBn ?? '',
  image: typeof item?.fields.image === 'string' ? item.fields.image : '',
  link: typeof item?.fields.link === 'string' ? item.fields.link : '',
  active: item?.active ?? true,
  shownFrom: isoToDhakaInput(item?.shownFrom ?? null),
  shownUntil: isoToDhakaInput(item?.shownUntil ?? null),
});

/** The path of an upload on this shop (as the product pictures keep it). */
function localPath(url: string): string {
  try {
    const u = new URL(url, window.location.origin);
    return u.origin === window.location.origin || u.pathname.startsWith('/files/') ? `${u.pathname}${u.search}` : url;
  } catch {
    return url;
  }
}

/** Heading, bold, list and link buttons over the page's text: they write the shop's rich text, never HTML. */
function Toolbar({ area, onChange, disabled }: { area: React.RefObject<HTMLTextAreaElement | null>; onChange(v: string): void; disabled: boolean }) {
  const edit = (make: (selected: string) => string, linePrefix?: string) => {
    const el = area.current;
    if (!el) return;
    const { selectionStart: a, selectionEnd: b, value } = el;
    let start = a;
    let text: string;
    if (linePrefix) {
      start = value.lastIndexOf('\n', a - 1) + 1;
      const lines = value.slice(start, b).split('\n');
      text = lines.map((l) => (l.startsWith(linePrefix) ? l : `${linePrefix}${l}`)).join('\n');
    } else text = make(value.slice(a, b));
    const next = value.slice(0, start) + text + value.slice(b);
    onChange(next);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(start + text.length, start + text.length);
    });
  };
  const button = (label: string, title: string, run: () => void) => (
    <button
      type="button"
      disabled={disabled}
      onClick={run}
      aria-label={title}
      title={title}
      className="h-8 min-w-8 rounded-md border border-sand-300 px-2 text-sm font-semibold hover:bg-sand-50 disabled:opacity-40"
    >
      {label}
    </button>
  );
  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1">
      {button('H', 'Heading', () => edit((s) => s, '## '))}
      {button('B', 'Bold', () => edit((s) => `**${s || 'bold text'}**`))}
      {button('•', 'List', () => edit((s) => s, '- '))}
      {button('Link', 'Link', () => edit((s) => `[${s || 'link text'}](/delivery-shipping)`))}
    </div>
  );
}

export default function AdminContentItem({ loaderData }: Route.ComponentProps) {
  const { item, type } = loaderData;
  const session = useAdminSession();
  const canWrite = may(session, 'content.write');
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(() => draftOf(item, loaderData.slug));
  const [problem, setProblem] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [version, setVersion] = useState(item?.version);
  const area = useRef<HTMLTextAreaElement>(null);
  const isPage = type === 'page';
  const scheduled = SCHEDULED_TYPES.includes(type);
  const hasImage = scheduled || type === 'article';
  const hasLink = type !== 'page';
  const fromIso = dhakaInputToIso(draft.shownFrom);
  const untilIso = dhakaInputToIso(draft.shownUntil);
  const fields: Record<string, string | undefined> = {
    ...problem?.fields,
    ...(fromIso === undefined ? { shownFrom: 'A date and time' } : {}),
    ...(untilIso === undefined ? { shownUntil: 'A date and time' } : {}),
  };
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (fromIso === undefined || untilIso === undefined) return;
    setBusy(true);
    // Fields the storefront reads that this form does not edit (an article's categories) are kept.
    const kept = { ...(item?.fields ?? {}) };
    delete kept.hasCampaign;
    const body = {
      type,
      title: draft.title,
      slug: draft.slug,
      body: draft.body,
      titleBn: draft.titleBn.trim() || null,
      bodyBn: draft.bodyBn.trim() ? draft.bodyBn : null,
      fields: { ...kept, ...(hasImage ? { image: draft.image || (type === 'article' ? null : '') } : {}), ...(hasLink ? { link: draft.link || null } : {}) },
      active: isPage ? true : draft.active,
      shownFrom: scheduled ? fromIso : null,
      shownUntil: scheduled ? untilIso : null,
      ...(item ? { version } : {}),
    };
    const res = await apiFetch<TAdminContentItem>(item ? `/api/admin/content/${item.id}` : '/api/admin/content', { method: item ? 'PUT' : 'POST', body });
    setBusy(false);
    if (!res.ok) {
      setNotice(null);
      setProblem({ message: res.error?.message ?? 'Not saved', fields: res.error?.fields ?? {} });
      return;
    }
    setProblem(null);
    if (!item) return navigate(`/admin/content/${res.data.id}`);
    setVersion(res.data.version);
    setNotice(
      res.data.live || isPage
        ? 'Saved. The shop shows it from the next page load.'
        : 'Saved. The shop does not show it now (switched off or outside its schedule).',
    );
  };

  const remove = async () => {
    if (!item) return;
    const res = await apiFetch(`/api/admin/content/${item.id}`, { method: 'DELETE' });
    if (!res.ok) return setProblem({ message: res.error?.message ?? 'Not removed', fields: {} });
    navigate(`/admin/content?type=${type}`);
  };

  const input = (key: 'title' | 'slug' | 'link' | 'image', label: string, hint?: string, extra: Record<string, unknown> = {}) => {
    const errKey = key === 'link' || key === 'image' ? `fields.${key}` : key;
    return (
      <Field id={`content-${key}`} label={label} hint={hint} error={fields[errKey]}>
        <input
          className={inputClass}
          value={draft[key]}
          disabled={!canWrite}
          onChange={(e) => set({ [key]: e.target.value })}
          {...describedBy(`content-${key}`, fields[errKey])}
          {...extra}
        />
      </Field>
    );
  };

  return (
    <AdminPage
      title={item ? item.title : `New: ${CONTENT_TYPE_LABELS[type].toLowerCase()}`}
      description={
        <Link to={`/admin/content?type=${type}`} className="underline">
          Back to {CONTENT_TYPE_LABELS[type].toLowerCase()}
        </Link>
      }
    >
      <form onSubmit={save} noValidate className="flex flex-col gap-6">
        {notice && <Notice tone="success">{notice}</Notice>}
        {problem && (
          <Notice tone="error">
            {problem.message}
            {problem.fields.body && problem.fields.body !== problem.message ? ` ${problem.fields.body}` : ''}
            {problem.fields.bodyBn && problem.fields.bodyBn !== problem.message ? ` ${problem.fields.bodyBn}` : ''}
          </Notice>
        )}
        <Card title="Text">
          <div className="grid gap-4 md:grid-cols-2">
            {input('title', isPage ? 'Page title' : type === 'bullet' ? 'Selling point' : 'Title', undefined, { maxLength: 200, required: true })}
            {isPage ? (
              <Field id="content-slug" label="Address" error={fields.slug}>
                <select
                  className={inputClass}
                  value={draft.slug}
                  disabled={!canWrite || !!item}
                  onChange={(e) => set({ slug: e.target.value })}
                  {...describedBy('content-slug', fields.slug)}
                >
                  <option value="">Choose the page</option>
                  {STATIC_PAGE_SLUGS.map((s) => (
                    <option key={s} value={s}>
                      /{s}
                    </option>
                  ))}
                </select>
              </Field>
            ) : (
              input('slug', 'Slug', 'Empty: made from the title', { maxLength: 120 })
            )}
          </div>
          {isPage ? (
            <div className="mt-4 grid gap-4 lg:grid-cols-2">
              <div className="flex flex-col gap-2">
                <Toolbar area={area} onChange={(body) => set({ body })} disabled={!canWrite} />
                <Field
                  id="content-body"
                  label="Page text"
                  hint="“## ” starts a heading, “- ” a list item; **bold**; [text](/path) a link. No HTML."
                  error={fields.body}
                >
                  <textarea
                    ref={area}
                    className={`${inputClass} min-h-96 font-mono text-sm`}
                    value={draft.body}
                    disabled={!canWrite}
                    onChange={(e) => set({ body: e.target.value })}
                    {...describedBy('content-body', fields.body)}
                  />
                </Field>
              </div>
              <section aria-label="Preview" className="rounded-lg border border-sand-200 bg-sand-50 p-4">
                <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-muted">Preview, as the shop shows it</p>
                <h2 className="text-2xl font-bold tracking-tight">{draft.title}</h2>
                <div className="mt-3 text-ink">
                  <RichText text={draft.body} />
                </div>
              </section>
            </div>
          ) : (
            <div className="mt-4">
              <Field id="content-body" label={type === 'bullet' ? 'More text (optional)' : 'Text'} error={fields.body}>
                <textarea
                  className={`${inputClass} min-h-24`}
                  value={draft.body}
                  maxLength={2000}
                  disabled={!canWrite}
                  onChange={(e) => set({ body: e.target.value })}
                  {...describedBy('content-body', fields.body)}
                />
              </Field>
            </div>
          )}
        </Card>

        <Card title="In Bangla">
          <p className="mb-4 text-sm text-ink-muted">Shown to shoppers reading the shop in Bangla. Left empty, they see the English.</p>
          <div className="grid gap-4 md:grid-cols-2">
            <Field id="content-titleBn" label={isPage ? 'Page title in Bangla' : 'Title in Bangla'} error={fields.titleBn}>
              <input
                className={inputClass}
                lang="bn"
                value={draft.titleBn}
                maxLength={200}
                disabled={!canWrite}
                onChange={(e) => set({ titleBn: e.target.value })}
                {...describedBy('content-titleBn', fields.titleBn)}
              />
            </Field>
          </div>
          {isPage ? (
            <div className="mt-4 grid gap-4 lg:grid-cols-2">
              <Field
                id="content-bodyBn"
                label="Page text in Bangla"
                hint="Written as the English text: “## ” a heading, “- ” a list item. No HTML."
                error={fields.bodyBn}
              >
                <textarea
                  className={`${inputClass} min-h-64 font-mono text-sm`}
                  lang="bn"
                  value={draft.bodyBn}
                  disabled={!canWrite}
                  onChange={(e) => set({ bodyBn: e.target.value })}
                  {...describedBy('content-bodyBn', fields.bodyBn)}
                />
              </Field>
              {draft.bodyBn.trim() ? (
                <section aria-label="Preview in Bangla" lang="bn" className="rounded-lg border border-sand-200 bg-sand-50 p-4">
                  <h2 className="text-2xl font-bold tracking-tight">{draft.titleBn || draft.title}</h2>
                  <div className="mt-3 text-ink">
                    <RichText text={draft.bodyBn} />
                  </div>
                </section>
              ) : null}
            </div>
          ) : (
            <div className="mt-4">
              <Field id="content-bodyBn" label={type === 'bullet' ? 'More text in Bangla (optional)' : 'Text in Bangla'} error={fields.bodyBn}>
                <textarea
                  className={`${inputClass} min-h-24`}
                  lang="bn"
                  value={draft.bodyBn}
                  maxLength={2000}
                  disabled={!canWrite}
                  onChange={(e) => set({ bodyBn: e.target.value })}
                  {...describedBy('content-bodyBn', fields.bodyBn)}
                />
              </Field>
            </div>
          )}
        </Card>

        {(hasImage || hasLink) && (
          <Card title={hasImage ? 'Picture and link' : 'Link'}>
            <div className="grid gap-4 md:grid-cols-2">
              {hasImage && (
                <div className="flex flex-col gap-3">
                  {input('image', 'Picture', 'Upload one, or a path on the shop (/files/… or /media/…)', { maxLength: 500 })}
                  {canWrite && (
                    <FileUploadField
                      label="Upload a picture"
                      type="image"
                      buttonText="Choose a picture"
                      onUploaded={(file) => set({ image: localPath(file.cdnUrl) })}
                    />
                  )}
                  {draft.image && (
                    <figure className="flex flex-col gap-1">
                      <figcaption className="text-xs text-ink-muted">Preview</figcaption>
                      <img src={draft.image} alt="" className="max-h-56 w-full rounded-lg border border-sand-200 bg-sand-50 object-contain" />
                    </figure>
                  )}
                </div>
              )}
              {hasLink && input('link', 'Leads to', 'A page of the shop, such as /shop?categoryName=Sofas; empty: nowhere', { maxLength: 500 })}
            </div>
          </Card>
        )}

        {!isPage && (
          <Card title="On the shop">
            <div className="grid gap-4 md:grid-cols-3">
              <label className="flex items-center gap-2 text-sm font-medium">
                <input type="checkbox" checked={draft.active} disabled={!canWrite} onChange={(e) => set({ active: e.target.checked })} className="h-4 w-4" />
                Show it on the shop
              </label>
              {scheduled && (
                <>
                  <Field id="content-shownFrom" label="Shown from (Dhaka time)" hint="Empty: from now" error={fields.shownFrom}>
                    <input
                      type="datetime-local"
                      className={inputClass}
                      value={draft.shownFrom}
                      disabled={!canWrite}
                      onChange={(e) => set({ shownFrom: e.target.value })}
                      {...describedBy('content-shownFrom', fields.shownFrom)}
                    />
                  </Field>
                  <Field id="content-shownUntil" label="Shown until (Dhaka time)" hint="Empty: until switched off" error={fields.shownUntil}>
                    <input
                      type="datetime-local"
                      className={inputClass}
                      value={draft.shownUntil}
                      disabled={!canWrite}
                      onChange={(e) => set({ shownUntil: e.target.value })}
                      {...describedBy('content-shownUntil', fields.shownUntil)}
                    />
                  </Field>
                </>
              )}
            </div>
          </Card>
        )}

        {canWrite && (
          <div className="flex flex-wrap gap-2">
            <button
              type="submit"
              disabled={busy}
              className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
            >
              {item ? 'Save' : 'Add'}
            </button>
            {item && !isPage && (
              <button
                type="button"
                onClick={() => (confirmRemove ? remove() : setConfirmRemove(true))}
                className="h-10 rounded-lg border border-danger-600 px-4 text-sm font-semibold text-danger-600 hover:bg-red-50"
              >
                {confirmRemove ? 'Remove it for good' : 'Remove'}
              </button>
            )}
          </div>
        )}
      </form>
    </AdminPage>
  );
}
