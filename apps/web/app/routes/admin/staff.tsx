import { ROLE_LABELS, STAFF_PASSWORD_MIN, STAFF_ROLES, type TStaffMember, type TStaffRole } from '@storefront/shared';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/staff';
import { useAdminSession } from './layout.tsx';

// Staff accounts, for owners (docs/decisions/0031): invite a member by mail (they choose their
// own password) or add one with a first password to hand over, change a role, disable an
// account, reset a lost authenticator.

export function meta() {
  return [{ title: 'Staff · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<{ items: TStaffMember[] }>(context, request, '/api/admin/staff');
}

const ROLE_HELP: Record<TStaffRole, string> = {
  owner: 'Everything, and manages staff.',
  manager: 'Catalogue, prices, stock, orders, promotions and content.',
  staff: 'Orders and stock.',
  read_only: 'Sees everything it may read, changes nothing.',
};

export default function StaffScreen({ loaderData }: Route.ComponentProps) {
  const me = useAdminSession();
  const revalidator = useRevalidator();
  const [form, setForm] = useState({ email: '', fullName: '', role: 'staff' as TStaffRole, password: '' });
  const [how, setHow] = useState<'invite' | 'password'>('invite');
  const [errors, setErrors] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setNotice(null);
    const { password, ...invite } = form;
    const res =
      how === 'invite'
        ? await apiFetch<TStaffMember>('/api/admin/staff/invites', { method: 'POST', body: invite })
        : await apiFetch<TStaffMember>('/api/admin/staff', { method: 'POST', body: { ...invite, password } });
    setBusy(false);
    if (res.ok) {
      setErrors(null);
      setForm({ email: '', fullName: '', role: 'staff', password: '' });
      setNotice(
        how === 'invite'
          ? `An invitation was mailed to ${res.data.email}. ${res.data.fullName} chooses a password with its link, then signs in.`
          : `${res.data.fullName} can now sign in at /admin/sign-in with the password you chose. Hand it over in person or by phone, never by mail.`,
      );
      revalidator.revalidate();
    } else setErrors({ message: res.error?.message ?? 'The account could not be created', fields: res.error?.fields ?? {} });
  };

  const resend = async (member: TStaffMember) => {
    setNotice(null);
    const res = await apiFetch<TStaffMember>(`/api/admin/staff/${member.id}/invite`, { method: 'POST' });
    if (res.ok) {
      setErrors(null);
      setNotice(`A new invitation was mailed to ${res.data.email}; the earlier link no longer works.`);
    } else setErrors({ message: res.error?.message ?? 'The invitation was not sent', fields: {} });
  };

  const update = async (member: TStaffMember, patch: { role?: TStaffRole; disabled?: boolean; resetTwoFactor?: boolean }) => {
    setNotice(null);
    const res = await apiFetch<TStaffMember>(`/api/admin/staff/${member.id}`, { method: 'PATCH', body: { ...patch, version: member.version } });
    if (res.ok) {
      setErrors(null);
      setNotice(`${res.data.fullName}: saved.`);
    } else setErrors({ message: res.error?.message ?? 'The change was not saved', fields: {} });
    revalidator.revalidate();
  };

  return (
    <AdminPage title="Staff" description="Who can sign in to the back office, and what each may do.">
      <div className="flex flex-col gap-6">
        {errors && !Object.keys(errors.fields).length && <Notice tone="error">{errors.message}</Notice>}
        {notice && <Notice tone="success">{notice}</Notice>}
        <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
          <table className="w-full min-w-[48rem] border-collapse text-sm">
            <caption className="sr-only">Staff accounts</caption>
            <thead className="border-b border-sand-200 bg-sand-50">
              <tr>
                <th scope="col" className="px-3 py-2 text-left font-semibold">
                  Name
                </th>
                <th scope="col" className="px-3 py-2 text-left font-semibold">
                  Role
                </th>
                <th scope="col" className="px-3 py-2 text-left font-semibold">
                  Two-factor
                </th>
                <th scope="col" className="px-3 py-2 text-left font-semibold">
                  Account
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.items.map((m) => (
                <tr key={m.id} className="border-b border-sand-100 last:border-0">
                  <td className="px-3 py-2">
                    <p className="font-medium">{m.fullName}</p>
                    <p className="text-xs text-ink-muted">{m.email}</p>
                  </td>
                  <td className="px-3 py-2">
                    <label className="sr-only" htmlFor={`role-${m.id}`}>
                      Role of {m.fullName}
                    </label>
                    <select
                      id={`role-${m.id}`}
                      className={`${inputClass} max-w-44`}
                      value={m.role}
                      onChange={(e) => update(m, { role: e.target.value as TStaffRole })}
                    >
                      {STAFF_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {ROLE_LABELS[r]}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="px-3 py-2">
                    {m.twoFactor ? 'On' : 'Off'}
                    {m.twoFactor && m.id !== me.staff.id && (
                      <button type="button" className="ml-2 text-xs text-brand-700 hover:underline" onClick={() => update(m, { resetTwoFactor: true })}>
                        Reset
                      </button>
                    )}
                  </td>
                  <td className="px-3 py-2">
                    {m.id === me.staff.id ? (
                      <span className="text-ink-muted">You</span>
                    ) : (
                      <button
                        type="button"
                        className={`rounded-md border px-2 py-1 text-xs font-semibold ${m.disabled ? 'border-brand-600 text-brand-700' : 'border-danger-600 text-danger-600'}`}
                        onClick={() => update(m, { disabled: !m.disabled })}
                      >
                        {m.disabled ? 'Enable' : 'Disable'}
                      </button>
                    )}
                    {m.disabled && <span className="ml-2 text-xs text-ink-muted">Disabled</span>}
                    {m.invitePending && (
                      <span className="ml-2 text-xs text-ink-muted">
                        Invited, no password yet{' '}
                        <button type="button" className="text-brand-700 hover:underline" onClick={() => resend(m)}>
                          Send again
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>

        <Card title="Add a staff member">
          <form onSubmit={create} noValidate className="grid gap-4 md:grid-cols-2">
            {errors && Object.keys(errors.fields).length > 0 && (
              <div className="md:col-span-2">
                <Notice tone="error">{errors.message}</Notice>
              </div>
            )}
            <Field id="new-name" label="Full name" error={errors?.fields.fullName}>
              <input
                className={inputClass}
                value={form.fullName}
                onChange={(e) => setForm({ ...form, fullName: e.target.value })}
                {...describedBy('new-name', errors?.fields.fullName)}
              />
            </Field>
            <Field id="new-email" label="Email" error={errors?.fields.email}>
              <input
                className={inputClass}
                type="email"
                value={form.email}
                onChange={(e) => setForm({ ...form, email: e.target.value })}
                {...describedBy('new-email', errors?.fields.email)}
              />
            </Field>
            <Field id="new-role" label="Role" hint={ROLE_HELP[form.role]}>
              <select
                id="new-role"
                className={inputClass}
                value={form.role}
                onChange={(e) => setForm({ ...form, role: e.target.value as TStaffRole })}
                aria-describedby="new-role-hint"
              >
                {STAFF_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </option>
                ))}
              </select>
            </Field>
            <fieldset className="md:col-span-2">
              <legend className="text-sm font-medium">How they get their password</legend>
              <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2 text-sm">
                <label className="flex items-center gap-2">
                  <input type="radio" name="how" value="invite" checked={how === 'invite'} onChange={() => setHow('invite')} />
                  Mail them an invitation to choose one
                </label>
                <label className="flex items-center gap-2">
                  <input type="radio" name="how" value="password" checked={how === 'password'} onChange={() => setHow('password')} />
                  Set a first password and hand it over
                </label>
              </div>
            </fieldset>
            {how === 'password' && (
              <Field id="new-password" label="First password" error={errors?.fields.password} hint={`At least ${STAFF_PASSWORD_MIN} characters.`}>
                <input
                  className={inputClass}
                  type="password"
                  autoComplete="new-password"
                  value={form.password}
                  onChange={(e) => setForm({ ...form, password: e.target.value })}
                  {...describedBy('new-password', errors?.fields.password)}
                />
              </Field>
            )}
            <div className="md:col-span-2">
              <button
                type="submit"
                disabled={busy}
                className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
              >
                {busy ? 'Adding…' : how === 'invite' ? 'Send the invitation' : 'Add staff member'}
              </button>
            </div>
          </form>
        </Card>
      </div>
    </AdminPage>
  );
}
