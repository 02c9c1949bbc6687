import { etaText, parseTaka, type TAdminDeliveryZone, takaInput } from '@storefront/shared';
import { useState } from 'react';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, taka, useSavedNotice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/delivery';
import { may, useAdminSession } from './layout.tsx';

// Delivery zones (docs/decisions/0033): what home delivery costs by district, from which
// amount it is free, and how long it takes. The next checkout charges what is saved here.

export function meta() {
  return [{ title: 'Delivery · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<{ items: TAdminDeliveryZone[] }>(context, request, '/api/admin/delivery/zones');
}

type Draft = { name: string; districts: string; fee: string; freeFrom: string; etaMinDays: string; etaMaxDays: string };

const draftOf = (z?: TAdminDeliveryZone): Draft => ({
  name: z?.name ?? '',
  districts: z?.districts.join(', ') ?? '',
  fee: z ? takaInput(z.fee) : '',
  freeFrom: z?.freeFrom != null ? takaInput(z.freeFrom) : '',
  etaMinDays: String(z?.etaMinDays ?? 1),
  etaMaxDays: String(z?.etaMaxDays ?? 3),
});

function ZoneForm({ zone, canWrite, onSaved }: { zone?: TAdminDeliveryZone; canWrite: boolean; onSaved: (message: string) => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(zone));
  const [problem, setProblem] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = zone ? `zone-${zone.id}` : 'zone-new';
  const fee = parseTaka(draft.fee);
  const freeFrom = draft.freeFrom.trim() ? parseTaka(draft.freeFrom) : null;
  const fields: Record<string, string | undefined> = {
    ...problem?.fields,
    ...(draft.fee && fee === null ? { fee: 'Type an amount in taka' } : {}),
    ...(draft.freeFrom.trim() && freeFrom === null ? { freeFrom: 'Type an amount in taka, or leave it empty' } : {}),
  };
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (fee === null || (draft.freeFrom.trim() && freeFrom === null)) return;
    setBusy(true);
    const body = {
      name: draft.name,
      districts: draft.districts
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean),
      fee,
      freeFrom,
      etaMinDays: Number(draft.etaMinDays),
      etaMaxDays: Number(draft.etaMaxDays),
      ...(zone ? { version: zone.version, sortOrder: zone.sortOrder } : {}),
    };
    const res = await apiFetch<TAdminDeliveryZone>(zone ? `/api/admin/delivery/zones/${zone.id}` : '/api/admin/delivery/zones', {
      method: zone ? 'PUT' : 'POST',
      body,
    });
    setBusy(false);
    if (!res.ok) {
      setProblem({ message: res.error?.message ?? 'The zone was not saved', fields: res.error?.fields ?? {} });
      return;
    }
    setProblem(null);
    if (!zone) setDraft(draftOf());
    onSaved(`${res.data.name}: saved. The next checkout charges it.`);
  };
  const remove = async () => {
    if (!zone) return;
    const res = await apiFetch(`/api/admin/delivery/zones/${zone.id}`, { method: 'DELETE' });
    if (!res.ok) setProblem({ message: res.error?.message ?? 'The zone was not removed', fields: {} });
    else onSaved(`${zone.name}: removed.`);
  };
  const input = (key: keyof Draft, label: string, hint?: string, extra: Record<string, unknown> = {}) => (
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
      {problem && !Object.keys(problem.fields).length && (
        <div className="md:col-span-6">
          <Notice tone="error">{problem.message}</Notice>
        </div>
      )}
      <div className="md:col-span-2">{input('name', 'Name')}</div>
      <div className="md:col-span-4">
        {input(
          'districts',
          'Districts',
          zone && !zone.districts.length ? 'Empty: every district no other zone names' : 'Separated by commas, e.g. Gazipur, Narayanganj',
        )}
      </div>
      <div className="md:col-span-2">{input('fee', 'Fee (৳)', undefined, { inputMode: 'decimal' })}</div>
      <div className="md:col-span-2">
        {input('freeFrom', 'Free from (৳)', 'Items worth this much or more are delivered free; empty: never', { inputMode: 'decimal' })}
      </div>
      <div>{input('etaMinDays', 'Days, at least', undefined, { type: 'number', min: 0 })}</div>
      <div>{input('etaMaxDays', 'Days, at most', undefined, { type: 'number', min: 0 })}</div>
      {canWrite && (
        <div className="flex flex-wrap gap-2 md:col-span-6">
          <button
            type="submit"
            disabled={busy}
            className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {zone ? 'Save' : 'Add the zone'}
          </button>
          {zone && zone.districts.length > 0 && (
            <button
              type="button"
              onClick={remove}
              className="h-10 rounded-lg border border-danger-600 px-4 text-sm font-semibold text-danger-600 hover:bg-red-50"
            >
              Remove
            </button>
          )}
        </div>
      )}
    </form>
  );
}

export default function AdminDelivery({ loaderData }: Route.ComponentProps) {
  const session = useAdminSession();
  const canWrite = may(session, 'content.write');
  const { notice, saved } = useSavedNotice();
  return (
    <AdminPage
      title="Delivery"
      description="Home delivery and assembly by zone: a district is in the first zone that names it, else in the zone for every other district. Collecting from a showroom is always free."
    >
      <div className="flex flex-col gap-6">
        {notice && <Notice tone="success">{notice}</Notice>}
        {loaderData.items.map((z) => (
          <Card
            key={`${z.id}-${z.version}`}
            title={z.name}
            actions={
              <p className="text-sm text-ink-muted">
                {taka(z.fee)}
                {z.freeFrom !== null ? `, free from ${taka(z.freeFrom)}` : ''} · {etaText(z)}
              </p>
            }
          >
            <ZoneForm zone={z} canWrite={canWrite} onSaved={saved} />
          </Card>
        ))}
        {canWrite && (
          <Card title="Add a zone">
            <ZoneForm canWrite onSaved={saved} />
          </Card>
        )}
      </div>
    </AdminPage>
  );
}
