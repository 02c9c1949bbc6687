import { BD_BOUNDS, BRANCH_KINDS, type TAdminBranch } from '@storefront/shared';
import { useState } from 'react';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, useSavedNotice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/showrooms';
import { may, useAdminSession } from './layout.tsx';

// Showrooms, outlets and warehouses (docs/decisions/0035): what /outlets and the checkout's
// pickup list show. A branch stock or orders refer to is hidden rather than removed.

export function meta() {
  return [{ title: 'Showrooms · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<{ items: TAdminBranch[] }>(context, request, '/api/admin/branches');
}

type Draft = { name: string; kind: string; address: string; city: string; phone: string; hours: string; latitude: string; longitude: string; hidden: boolean };

const draftOf = (b?: TAdminBranch): Draft => ({
  name: b?.name ?? '',
  kind: b?.kind ?? 'showroom',
  address: b?.address ?? '',
  city: b?.city ?? '',
  phone: b?.phone ?? '',
  hours: b?.hours ?? '',
  latitude: b ? String(b.latitude) : '',
  longitude: b ? String(b.longitude) : '',
  hidden: b?.hidden ?? false,
});

const KIND_LABELS: Record<string, string> = { showroom: 'Showroom', outlet: 'Outlet', warehouse: 'Warehouse (not for pickup)' };

function BranchForm({ branch, canWrite, onSaved }: { branch?: TAdminBranch; canWrite: boolean; onSaved: (message: string) => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(branch));
  const [problem, setProblem] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = branch ? `branch-${branch.id}` : 'branch-new';
  const fields = problem?.fields ?? {};

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const number = (v: string) => (v.trim() === '' ? null : Number(v.replace(',', '.')));
    const body = {
      name: draft.name,
      kind: draft.kind,
      address: draft.address,
      city: draft.city,
      phone: draft.phone,
      hours: draft.hours,
      latitude: number(draft.latitude),
      longitude: number(draft.longitude),
      hidden: draft.hidden,
      ...(branch ? { version: branch.version } : {}),
    };
    const res = await apiFetch<TAdminBranch>(branch ? `/api/admin/branches/${branch.id}` : '/api/admin/branches', { method: branch ? 'PUT' : 'POST', body });
    setBusy(false);
    if (!res.ok) return setProblem({ message: res.error?.message ?? 'Not saved', fields: res.error?.fields ?? {} });
    setProblem(null);
    if (!branch) setDraft(draftOf());
    onSaved(`${res.data.name}: saved.${res.data.hidden ? ' It is hidden from the shop.' : ' The shop shows it from the next page load.'}`);
  };
  const remove = async () => {
    if (!branch) return;
    const res = await apiFetch(`/api/admin/branches/${branch.id}`, { method: 'DELETE' });
    if (!res.ok) setProblem({ message: res.error?.message ?? 'Not removed', fields: {} });
    else onSaved(`${branch.name}: removed.`);
  };
  const input = (key: Exclude<keyof Draft, 'hidden' | 'kind'>, label: string, hint?: string, extra: Record<string, unknown> = {}) => (
    <Field id={`${id}-${key}`} label={label} hint={hint} error={fields[key]}>
      <input
        className={inputClass}
        value={draft[key]}
        disabled={!canWrite}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        {...describedBy(`${id}-${key}`, fields[key])}
        {...extra}
      />
    </Field>
  );
  return (
    <form onSubmit={save} noValidate className="grid gap-4 md:grid-cols-6">
      {problem && (!Object.keys(problem.fields).length || problem.message !== 'The request body is not valid') && (
        <div className="md:col-span-6">
          <Notice tone="error">{problem.message}</Notice>
        </div>
      )}
      <div className="md:col-span-3">{input('name', 'Name', undefined, { maxLength: 120 })}</div>
      <div className="md:col-span-3">
        <Field id={`${id}-kind`} label="Kind" error={fields.kind}>
          <select
            className={inputClass}
            value={draft.kind}
            disabled={!canWrite}
            onChange={(e) => setDraft({ ...draft, kind: e.target.value })}
            {...describedBy(`${id}-kind`, fields.kind)}
          >
            {BRANCH_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="md:col-span-4">{input('address', 'Address', undefined, { maxLength: 300 })}</div>
      <div className="md:col-span-2">{input('city', 'City', undefined, { maxLength: 80 })}</div>
      <div className="md:col-span-2">{input('phone', 'Phone', undefined, { maxLength: 40, inputMode: 'tel' })}</div>
      <div className="md:col-span-4">{input('hours', 'Opening hours', 'As shoppers read it, e.g. Every day 10:00–21:00', { maxLength: 200 })}</div>
      <div className="md:col-span-3">
        {input('latitude', 'Latitude', `North, between ${BD_BOUNDS.minLat} and ${BD_BOUNDS.maxLat}`, { inputMode: 'decimal' })}
      </div>
      <div className="md:col-span-3">
        {input('longitude', 'Longitude', `East, between ${BD_BOUNDS.minLng} and ${BD_BOUNDS.maxLng}`, { inputMode: 'decimal' })}
      </div>
      <label className="flex items-center gap-2 text-sm font-medium md:col-span-6">
        <input
          type="checkbox"
          className="h-4 w-4"
          checked={draft.hidden}
          disabled={!canWrite}
          onChange={(e) => setDraft({ ...draft, hidden: e.target.checked })}
        />
        Hidden from the shop (its stock and orders stay)
      </label>
      {canWrite && (
        <div className="flex flex-wrap items-center gap-2 md:col-span-6">
          <button
            type="submit"
            disabled={busy}
            className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {branch ? 'Save' : 'Add the branch'}
          </button>
          {branch &&
            (branch.inUse ? (
              <p className="text-sm text-ink-muted">Stock or orders refer to this branch: hide it rather than remove it.</p>
            ) : (
              <button
                type="button"
                onClick={remove}
                className="h-10 rounded-lg border border-danger-600 px-4 text-sm font-semibold text-danger-600 hover:bg-red-50"
              >
                Remove
              </button>
            ))}
        </div>
      )}
    </form>
  );
}

export default function AdminShowrooms({ loaderData }: Route.ComponentProps) {
  const session = useAdminSession();
  const canWrite = may(session, 'content.write');
  const { notice, saved } = useSavedNotice();
  return (
    <AdminPage
      title="Showrooms and outlets"
      description="What the shop's Outlets page and the checkout's pickup list show, in this order. Warehouses hold stock but are not offered for pickup."
    >
      <div className="flex flex-col gap-6">
        {notice && <Notice tone="success">{notice}</Notice>}
        {loaderData.items.map((b) => (
          <Card
            key={`${b.id}-${b.version}`}
            title={b.name}
            actions={
              <p className="text-sm text-ink-muted">
                {KIND_LABELS[b.kind]?.split(' ')[0] ?? b.kind} · {b.city}
                {b.hidden ? ' · hidden' : ''}
              </p>
            }
          >
            <BranchForm branch={b} canWrite={canWrite} onSaved={saved} />
          </Card>
        ))}
        {canWrite && (
          <Card title="Add a showroom or outlet">
            <BranchForm canWrite onSaved={saved} />
          </Card>
        )}
      </div>
    </AdminPage>
  );
}
