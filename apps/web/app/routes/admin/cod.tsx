import { CONSIGNMENT_COURIERS, parseTaka, type TConsignmentCourier } from '@storefront/shared';
import {
  COD_MAX_LINES,
  COD_OUTCOME_LABELS,
  COD_REPORT_MAX_ROWS,
  type TCodImportResult,
  type TCodLine,
  type TCodPayout,
  type TCodPayoutPage,
  type TCodSummary,
  type TCodSummaryLine,
} from '@storefront/shared/cod-schemas';
import { type ReactNode, useRef, useState } from 'react';
import { Link } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, EmptyRow, Field, inputClass, Notice, Pagination, taka, useSavedNotice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/cod';
import { may, useAdminSession } from './layout.tsx';

// Cash-on-delivery reconciliation (docs/decisions/0043): what the couriers still owe for the
// cash their riders collected, what they paid short, the lines of their payouts that match
// no parcel, and their payouts, recorded from the courier's payment report or by hand.
// Forms post through the browser's API client, as the other back-office screens do, and keep
// what was typed when the API refuses it.

export function meta() {
  return [{ title: 'Cash on delivery · Back office' }];
}

const PAYOUTS_PER_PAGE = 10;

export async function loader({ context, request }: Route.LoaderArgs) {
  const page = Math.max(1, Math.min(100_000, Number(new URL(request.url).searchParams.get('page')) || 1));
  const [summary, payouts] = await Promise.all([
    adminRead<TCodSummary>(context, request, '/api/admin/cod/summary'),
    adminRead<TCodPayoutPage>(context, request, `/api/admin/cod/payouts?page=${page}&size=${PAYOUTS_PER_PAGE}`),
  ]);
  // Today in Dhaka, from the server, so the forms' first render is the same in the browser.
  const today = new Date(Date.now() + 6 * 3_600_000).toISOString().slice(0, 10);
  return { summary, payouts, today };
}

// Days are YYYY-MM-DD: formatted as the date they name, in UTC, so server and browser agree.
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const day = (d: string) => DAY.format(new Date(`${d.slice(0, 10)}T00:00:00Z`));
const COUNT = new Intl.NumberFormat('en-US');
const courierName = (c: string) => c.charAt(0).toUpperCase() + c.slice(1);
const statusText = (s: string) => s.replace(/_/g, ' ');
const plural = (n: number, one: string, many = `${one}s`) => `${COUNT.format(n)} ${n === 1 ? one : many}`;

type Problem = { message: string; fields: Record<string, string> } | null;

export default function AdminCod({ loaderData }: Route.ComponentProps) {
  const { summary: s, payouts, today } = loaderData;
  const session = useAdminSession();
  const canWrite = may(session, 'refunds.write');
  const { notice, saved } = useSavedNotice();
  return (
    <AdminPage title="Cash on delivery" description="What the couriers collected on delivery and still owe the shop, what they paid short, and their payouts.">
      <div className="flex flex-col gap-6">
        {notice && <Notice tone="success">{notice}</Notice>}
        <Totals s={s} />
        <OwedTable s={s} />
        <LinesTable
          title="Short-paid"
          caption="Lines that collected less than the parcel’s cash-on-delivery amount"
          list={s.shortPaid}
          limit={s.listLimit}
          totalLabel="short in all"
          empty="No payout line collected less than its parcel’s amount."
          showDifference
        />
        <LinesTable
          title="Lines that match no parcel"
          caption="Payout lines naming no consignment of the courier"
          list={s.unmatched}
          limit={s.listLimit}
          totalLabel="collected"
          empty="Every payout line names a parcel of the shop."
        />
        <LinesTable
          title="Lines to check"
          caption="Payout lines that paid more, paid a parcel again, or name a parcel not delivered"
          list={s.toCheck}
          limit={s.listLimit}
          totalLabel="collected"
          empty="Nothing to check."
          showOutcome
        />
        {canWrite && (
          <div className="grid gap-6 xl:grid-cols-2">
            <ImportForm today={today} onSaved={saved} />
            <ManualForm today={today} onSaved={saved} />
          </div>
        )}
        <PayoutList page={payouts} />
      </div>
    </AdminPage>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-2 first:pt-0 last:pb-0">
      <dt className="min-w-0 text-sm">
        <span className="font-medium">{label}</span>
        {hint && <span className="block text-xs text-ink-muted">{hint}</span>}
      </dt>
      <dd className="shrink-0 text-xl font-semibold tabular-nums tracking-tight">{value}</dd>
    </div>
  );
}

function Totals({ s }: { s: TCodSummary }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Card title="Owed to the shop">
        <dl className="flex flex-col divide-y divide-sand-100">
          <Figure label="Still owed by the couriers" value={taka(s.totals.owed)} hint={`${plural(s.owed.count, 'delivered parcel')} not in a payout yet`} />
          <Figure label="Short-paid" value={taka(s.totals.shortPaid)} hint={plural(s.shortPaid.count, 'line')} />
          <Figure label="Lines matching no parcel" value={COUNT.format(s.unmatched.count)} hint={`${taka(s.unmatched.total)} collected`} />
          <Figure label="Lines to check" value={COUNT.format(s.toCheck.count)} />
        </dl>
      </Card>
      <Card title="Paid by the couriers">
        <dl className="flex flex-col divide-y divide-sand-100">
          <Figure label="Received" value={taka(s.totals.received)} hint={plural(s.totals.payouts, 'payout')} />
          <Figure label="Collected by riders" value={taka(s.totals.collected)} />
          <Figure label="Delivery charges" value={taka(s.totals.deliveryCharges)} />
          <Figure label="COD charges" value={taka(s.totals.codCharges)} />
        </dl>
      </Card>
    </div>
  );
}

function Th({ children, right }: { children: ReactNode; right?: boolean }) {
  return (
    <th scope="col" className={`px-3 py-2 font-semibold ${right ? 'text-right' : 'text-left'}`}>
      {children}
    </th>
  );
}

function Table({ caption, head, children }: { caption: string; head: ReactNode; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-sand-200">
      <table className="w-full min-w-[44rem] border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-sand-200 bg-sand-50">
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

const rowClass = 'border-b border-sand-100 last:border-0 hover:bg-sand-50';
const td = 'px-3 py-2';
const tdNum = 'px-3 py-2 text-right tabular-nums';

function OrderLink({ orderId, invoice }: { orderId: number; invoice: string }) {
  return (
    <Link to={`/admin/orders/${orderId}`} className="font-medium text-brand-700 hover:underline">
      {invoice}
    </Link>
  );
}

function Shown({ shown, count, limit }: { shown: number; count: number; limit: number }) {
  return count > shown ? (
    <p className="mt-2 text-sm text-ink-muted">
      The first {COUNT.format(Math.min(shown, limit))} are listed; the total covers all {COUNT.format(count)}.
    </p>
  ) : null;
}

function OwedTable({ s }: { s: TCodSummary }) {
  return (
    <Card title="Still owed by the couriers" actions={<p className="text-sm text-ink-muted">{`${plural(s.owed.count, 'parcel')} · ${taka(s.owed.total)}`}</p>}>
      <Table
        caption="Delivered cash-on-delivery parcels no payout has paid yet"
        head={
          <>
            <Th>Order</Th>
            <Th>Courier</Th>
            <Th>Consignment</Th>
            <Th>Tracking code</Th>
            <Th>Delivered</Th>
            <Th right>Cash on delivery</Th>
          </>
        }
      >
        {s.owed.items.map((p) => (
          <tr key={p.id} className={rowClass}>
            <td className={td}>
              <OrderLink orderId={p.orderId} invoice={p.invoice} />
              {p.status !== 'delivered' && <span className="ml-2 text-xs text-ink-muted">({statusText(p.status)})</span>}
            </td>
            <td className={td}>{courierName(p.courier)}</td>
            <td className={`${td} font-mono text-xs`}>{p.consignmentId ?? '—'}</td>
            <td className={`${td} font-mono text-xs`}>{p.trackingCode ?? '—'}</td>
            <td className={`${td} whitespace-nowrap`}>{day(p.deliveredAt)}</td>
            <td className={tdNum}>{taka(p.codAmount)}</td>
          </tr>
        ))}
        {!s.owed.items.length && <EmptyRow colSpan={6}>The couriers owe nothing: every delivered parcel is in a payout.</EmptyRow>}
      </Table>
      <Shown shown={s.owed.items.length} count={s.owed.count} limit={s.listLimit} />
    </Card>
  );
}

function Given({ l }: { l: TCodLine }) {
  const parts = [l.given.consignmentId, l.given.trackingCode, l.given.invoice].filter(Boolean);
  return <span className="font-mono text-xs">{parts.join(' · ') || '—'}</span>;
}

function LinesTable({
  title,
  caption,
  list,
  limit,
  totalLabel,
  empty,
  showDifference,
  showOutcome,
}: {
  title: string;
  caption: string;
  list: TCodSummary['shortPaid'];
  limit: number;
  totalLabel: string;
  empty: string;
  showDifference?: boolean;
  showOutcome?: boolean;
}) {
  const cols = 5 + (showDifference ? 2 : 0) + (showOutcome ? 1 : 0);
  return (
    <Card title={title} actions={<p className="text-sm text-ink-muted">{`${plural(list.count, 'line')} · ${taka(list.total)} ${totalLabel}`}</p>}>
      <Table
        caption={caption}
        head={
          <>
            <Th>Payout</Th>
            <Th>Line</Th>
            <Th>As the courier named it</Th>
            <Th>Order</Th>
            {showOutcome && <Th>What it is</Th>}
            {showDifference && <Th right>Cash on delivery</Th>}
            <Th right>Collected</Th>
            {showDifference && <Th right>Short by</Th>}
          </>
        }
      >
        {list.items.map((l: TCodSummaryLine) => (
          <tr key={l.id} className={rowClass}>
            <td className={td}>
              <span className="font-medium">{l.reference}</span>
              <span className="block text-xs text-ink-muted">
                {courierName(l.courier)}, {day(l.paidOn)}
              </span>
            </td>
            <td className={`${td} tabular-nums`}>{l.lineNo}</td>
            <td className={td}>
              <Given l={l} />
            </td>
            <td className={td}>{l.parcel ? <OrderLink orderId={l.parcel.orderId} invoice={l.parcel.invoice} /> : '—'}</td>
            {showOutcome && (
              <td className={td}>
                {COD_OUTCOME_LABELS[l.outcome]}
                {l.outcome === 'not_delivered' && l.parcel && <span className="block text-xs text-ink-muted">{statusText(l.parcel.status)}</span>}
              </td>
            )}
            {showDifference && <td className={tdNum}>{taka(l.parcel?.codAmount ?? null)}</td>}
            <td className={tdNum}>{taka(l.collected)}</td>
            {showDifference && <td className={`${tdNum} font-semibold text-danger-600`}>{taka(l.difference)}</td>}
          </tr>
        ))}
        {!list.items.length && <EmptyRow colSpan={cols}>{empty}</EmptyRow>}
      </Table>
      <Shown shown={list.items.length} count={list.count} limit={limit} />
    </Card>
  );
}

// ---- recording a payout ----------------------------------------------------------------------

type Head = { courier: TConsignmentCourier; reference: string; paidOn: string; note: string };

function HeadFields({ id, head, set, fields }: { id: string; head: Head; set(h: Head): void; fields: Record<string, string> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field id={`${id}-courier`} label="Courier" error={fields.courier}>
        <select
          className={inputClass}
          value={head.courier}
          onChange={(e) => set({ ...head, courier: e.target.value as TConsignmentCourier })}
          {...describedBy(`${id}-courier`, fields.courier)}
        >
          {CONSIGNMENT_COURIERS.map((c) => (
            <option key={c} value={c}>
              {courierName(c)}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-reference`} label="Payout reference" hint="The courier’s payment id or the bank transfer’s" error={fields.reference}>
        <input
          className={inputClass}
          value={head.reference}
          maxLength={80}
          required
          onChange={(e) => set({ ...head, reference: e.target.value })}
          {...describedBy(`${id}-reference`, fields.reference)}
        />
      </Field>
      <Field id={`${id}-paid`} label="Paid on" error={fields.paidOn}>
        <input
          className={inputClass}
          type="date"
          value={head.paidOn}
          required
          onChange={(e) => set({ ...head, paidOn: e.target.value })}
          {...describedBy(`${id}-paid`, fields.paidOn)}
        />
      </Field>
      <Field id={`${id}-note`} label="Note (optional)" error={fields.note}>
        <input
          className={inputClass}
          value={head.note}
          maxLength={300}
          onChange={(e) => set({ ...head, note: e.target.value })}
          {...describedBy(`${id}-note`, fields.note)}
        />
      </Field>
    </div>
  );
}

const headBody = (h: Head) => ({ courier: h.courier, reference: h.reference, paidOn: h.paidOn, ...(h.note.trim() ? { note: h.note } : {}) });
const newHead = (today: string): Head => ({ courier: 'steadfast', reference: '', paidOn: today, note: '' });

/** The refusal's problems that belong to no field of the form, in the order of their lines. */
function ProblemList({ problem, keys }: { problem: NonNullable<Problem>; keys: (k: string) => boolean }) {
  const lineOf = (k: string) => Number(/^lines?\.(\d+)/.exec(k)?.[1] ?? 0);
  const rows = Object.entries(problem.fields)
    .filter(([k]) => keys(k))
    .sort(([a], [b]) => lineOf(a) - lineOf(b));
  return (
    <Notice tone="error">
      <p>{problem.message}</p>
      {rows.length > 0 && (
        <ul className="mt-2 list-disc pl-5">
          {rows.map(([k, m]) => (
            <li key={k}>{m}</li>
          ))}
        </ul>
      )}
    </Notice>
  );
}

const HEAD_FIELDS = ['courier', 'reference', 'paidOn', 'note'];

function ImportForm({ today, onSaved }: { today: string; onSaved(message: string): void }) {
  const [head, setHead] = useState<Head>(() => newHead(today));
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem>(null);
  const [busy, setBusy] = useState(false);
  const fields = problem?.fields ?? {};
  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > 2_000_000) return setProblem({ message: `${file.name} is larger than 2 MB: split the report.`, fields: {} });
    setCsv(await file.text());
    setFileName(file.name);
    setProblem(null);
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const res = await apiFetch<TCodImportResult>('/api/admin/cod/imports', { method: 'POST', body: { ...headBody(head), csv } });
    setBusy(false);
    if (!res.ok) {
      // What was typed and pasted stays, so the report can be fixed and sent again.
      setProblem({
        message: res.error?.message ?? (res.networkError ? 'The back office cannot be reached.' : 'The report was not recorded.'),
        fields: res.error?.fields ?? {},
      });
      return;
    }
    const p = res.data.payout;
    setProblem(null);
    setHead(newHead(today));
    setCsv('');
    setFileName(null);
    const ignored = res.data.ignoredColumns.length ? ` Columns not read: ${res.data.ignoredColumns.join(', ')}.` : '';
    onSaved(`Payout ${p.reference} recorded: ${plural(p.lines.length, 'line')}, ${taka(p.total)} paid, ${p.counts.unmatched} matching no parcel.${ignored}`);
  };
  return (
    <Card title="Import a payment report">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <p className="text-sm">
          A CSV file with a header and one row per parcel: <code>consignment_id</code>, <code>tracking_code</code> or <code>invoice</code>, then{' '}
          <code>collected</code> (or <code>cod_amount</code>), <code>delivery_charge</code> and <code>cod_charge</code> in taka. Other columns are left out. A
          report with a bad row is refused whole. At most 2 MB and {COD_MAX_LINES.toLocaleString('en-US')} parcels per report (
          {COD_REPORT_MAX_ROWS.toLocaleString('en-US')} rows, empty ones counted): split a longer statement.
        </p>
        {problem && <ProblemList problem={problem} keys={(k) => !HEAD_FIELDS.includes(k) && k !== 'csv'} />}
        <HeadFields id="cod-import" head={head} set={setHead} fields={fields} />
        <label className="flex flex-col gap-1 text-sm font-medium">
          Report file (CSV, UTF-8)
          <input
            type="file"
            accept=".csv,text/csv"
            className="text-sm file:mr-3 file:h-10 file:rounded-lg file:border file:border-sand-300 file:bg-paper file:px-4 file:font-semibold"
            onChange={(e) => pick(e.target.files?.[0])}
          />
        </label>
        <Field id="cod-import-csv" label="Or paste the report" hint={fileName ? `From ${fileName}; you may change it here.` : undefined} error={fields.csv}>
          <textarea
            className={`${inputClass} min-h-48 font-mono text-xs`}
            value={csv}
            spellCheck={false}
            placeholder={'consignment_id,tracking_code,invoice,collected,delivery_charge,cod_charge\n1424107,,,"1,060.00",60,10.60'}
            onChange={(e) => setCsv(e.target.value)}
            {...describedBy('cod-import-csv', fields.csv)}
          />
        </Field>
        <div>
          <RecordButton busy={busy} />
        </div>
      </form>
    </Card>
  );
}

/** Both forms end the same way: one payout recorded, or its problems shown above. */
function RecordButton({ busy }: { busy: boolean }) {
  return (
    <button type="submit" disabled={busy} className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60">
      {busy ? 'Recording…' : 'Record the payout'}
    </button>
  );
}

type IdKind = 'consignmentId' | 'trackingCode' | 'invoice';
type LineDraft = { key: number; kind: IdKind; id: string; collected: string; deliveryCharge: string; codCharge: string };
const ID_KINDS: [IdKind, string][] = [
  ['consignmentId', 'Consignment id'],
  ['trackingCode', 'Tracking code'],
  ['invoice', 'Invoice'],
];
const newLine = (key: number): LineDraft => ({ key, kind: 'consignmentId', id: '', collected: '', deliveryCharge: '', codCharge: '' });

function ManualForm({ today, onSaved }: { today: string; onSaved(message: string): void }) {
  const [head, setHead] = useState<Head>(() => newHead(today));
  const [lines, setLines] = useState<LineDraft[]>(() => [newLine(0)]);
  // Keys (and the ids made from them) count from 0 in each form: the same on the server and in the browser.
  const keys = useRef(0);
  const addLine = () => setLines([...lines, newLine(++keys.current)]);
  const [problem, setProblem] = useState<Problem>(null);
  const [busy, setBusy] = useState(false);
  const fields = problem?.fields ?? {};
  const setLine = (i: number, change: Partial<LineDraft>) => setLines(lines.map((l, j) => (j === i ? { ...l, ...change } : l)));
  // Typed taka, read exactly into poisha (docs/decisions/0003); an empty charge is none.
  const amountOf = (text: string, emptyIsZero: boolean) => (text.trim() === '' ? (emptyIsZero ? 0 : null) : parseTaka(text));
  const typed = lines.map((l) => ({
    collected: amountOf(l.collected, false),
    deliveryCharge: amountOf(l.deliveryCharge, true),
    codCharge: amountOf(l.codCharge, true),
  }));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    typed.forEach((t, i) => {
      if (t.collected === null) local[`lines.${i}.collected`] = 'Type the taka collected (at most 2 decimals)';
      if (t.deliveryCharge === null) local[`lines.${i}.deliveryCharge`] = 'Type an amount in taka, or leave it empty';
      if (t.codCharge === null) local[`lines.${i}.codCharge`] = 'Type an amount in taka, or leave it empty';
    });
    if (Object.keys(local).length) return setProblem({ message: 'Some amounts are not taka and poisha: nothing was sent.', fields: local });
    setBusy(true);
    const res = await apiFetch<TCodPayout>('/api/admin/cod/payouts', {
      method: 'POST',
      body: {
        ...headBody(head),
        lines: lines.map((l, i) => ({ [l.kind]: l.id, collected: typed[i].collected, deliveryCharge: typed[i].deliveryCharge, codCharge: typed[i].codCharge })),
      },
    });
    setBusy(false);
    if (!res.ok) {
      setProblem({
        message: res.error?.message ?? (res.networkError ? 'The back office cannot be reached.' : 'The payout was not recorded.'),
        fields: res.error?.fields ?? {},
      });
      return;
    }
    setProblem(null);
    setHead(newHead(today));
    setLines([newLine(++keys.current)]);
    onSaved(`Payout ${res.data.reference} recorded: ${plural(res.data.lines.length, 'line')}, ${taka(res.data.total)} paid.`);
  };
  const lineError = (i: number, key: string) => fields[`lines.${i}.${key}`];
  return (
    <Card title="Enter a payout by hand">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {problem && (
          <ProblemList
            problem={problem}
            keys={(k) => !HEAD_FIELDS.includes(k) && !/^lines\.\d+\.(consignmentId|trackingCode|invoice|collected|deliveryCharge|codCharge)$/.test(k)}
          />
        )}
        <HeadFields id="cod-manual" head={head} set={setHead} fields={fields} />
        <div className="flex flex-col gap-4">
          {lines.map((l, i) => {
            const id = `cod-line-${l.key}`;
            const idError = lineError(i, 'consignmentId') ?? lineError(i, 'trackingCode') ?? lineError(i, 'invoice');
            return (
              <fieldset key={l.key} className="grid gap-3 rounded-lg border border-sand-200 p-3 sm:grid-cols-6">
                <legend className="px-1 text-sm font-semibold">Parcel {i + 1}</legend>
                <div className="sm:col-span-2">
                  <Field id={`${id}-kind`} label="Named by">
                    <select className={inputClass} id={`${id}-kind`} value={l.kind} onChange={(e) => setLine(i, { kind: e.target.value as IdKind })}>
                      {ID_KINDS.map(([k, label]) => (
                        <option key={k} value={k}>
                          {label}
                        </option>
                      ))}
                    </select>
                  </Field>
                </div>
                <div className="sm:col-span-4">
                  <Field id={`${id}-id`} label={ID_KINDS.find(([k]) => k === l.kind)![1]} error={idError}>
                    <input
                      className={inputClass}
                      value={l.id}
                      maxLength={60}
                      onChange={(e) => setLine(i, { id: e.target.value })}
                      {...describedBy(`${id}-id`, idError)}
                    />
                  </Field>
                </div>
                {(
                  [
                    ['collected', 'Collected (৳)'],
                    ['deliveryCharge', 'Delivery charge (৳)'],
                    ['codCharge', 'COD charge (৳)'],
                  ] as const
                ).map(([key, label]) => (
                  <div key={key} className="sm:col-span-2">
                    <Field id={`${id}-${key}`} label={label} error={lineError(i, key)}>
                      <input
                        className={inputClass}
                        inputMode="decimal"
                        value={l[key]}
                        onChange={(e) => setLine(i, { [key]: e.target.value })}
                        {...describedBy(`${id}-${key}`, lineError(i, key))}
                      />
                    </Field>
                  </div>
                ))}
                {lines.length > 1 && (
                  <div className="sm:col-span-6">
                    <button
                      type="button"
                      onClick={() => {
                        setLines(lines.filter((_, j) => j !== i));
                        // The refusal's line numbers no longer fit the lines left.
                        setProblem(null);
                      }}
                      className="text-sm font-semibold text-danger-600 hover:underline"
                    >
                      Remove parcel {i + 1}
                    </button>
                  </div>
                )}
              </fieldset>
            );
          })}
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" onClick={addLine} className="h-10 rounded-lg border border-sand-300 bg-paper px-4 text-sm font-semibold hover:bg-sand-100">
            Add a parcel
          </button>
          <RecordButton busy={busy} />
        </div>
      </form>
    </Card>
  );
}

// ---- the payouts -----------------------------------------------------------------------------

function PayoutList({ page }: { page: TCodPayoutPage }) {
  return (
    <Card title="Payouts" actions={<p className="text-sm text-ink-muted">{plural(page.total, 'payout')}, the latest paid first</p>}>
      {page.items.length ? (
        <ul className="flex flex-col gap-3">
          {page.items.map((p) => (
            <li key={p.id}>
              <PayoutItem p={p} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-ink-muted">No payout is recorded yet.</p>
      )}
      {page.total > page.size && <Pagination page={page.page} size={page.size} total={page.total} />}
    </Card>
  );
}

function PayoutItem({ p }: { p: TCodPayout }) {
  const notable = (['short', 'over', 'already_paid', 'not_delivered', 'unmatched'] as const).filter((o) => p.counts[o] > 0);
  return (
    <details className="rounded-lg border border-sand-200">
      <summary className="flex cursor-pointer flex-wrap items-baseline justify-between gap-2 px-3 py-2 hover:bg-sand-50">
        <span>
          <span className="font-semibold">{p.reference}</span>{' '}
          <span className="text-sm text-ink-muted">
            {courierName(p.courier)}, paid {day(p.paidOn)} · {plural(p.lines.length, 'line')}
            {notable.length > 0 && ` · ${notable.map((o) => `${p.counts[o]} ${COD_OUTCOME_LABELS[o].toLowerCase()}`).join(', ')}`}
          </span>
        </span>
        <span className="font-semibold tabular-nums">{taka(p.total)}</span>
      </summary>
      <div className="border-t border-sand-200 p-3">
        <p className="mb-3 text-sm text-ink-muted">
          {p.source === 'csv' ? 'Imported' : 'Entered by hand'}
          {p.recordedBy ? ` by ${p.recordedBy}` : ''}. Collected {taka(p.collected)}, charges {taka(p.charges)}.{p.note ? ` ${p.note}` : ''}
        </p>
        <Table
          caption={`Lines of payout ${p.reference}`}
          head={
            <>
              <Th>Line</Th>
              <Th>As the courier named it</Th>
              <Th>Order</Th>
              <Th>What it is</Th>
              <Th right>Collected</Th>
              <Th right>Charges</Th>
              <Th right>Paid</Th>
            </>
          }
        >
          {p.lines.map((l) => (
            <tr key={l.id} className={rowClass}>
              <td className={`${td} tabular-nums`}>{l.lineNo}</td>
              <td className={td}>
                <Given l={l} />
              </td>
              <td className={td}>{l.parcel ? <OrderLink orderId={l.parcel.orderId} invoice={l.parcel.invoice} /> : '—'}</td>
              <td className={td}>
                {COD_OUTCOME_LABELS[l.outcome]}
                {l.outcome === 'short' && <span className="block text-xs text-danger-600">short by {taka(l.difference)}</span>}
              </td>
              <td className={tdNum}>{taka(l.collected)}</td>
              <td className={tdNum}>{taka(l.deliveryCharge + l.codCharge)}</td>
              <td className={tdNum}>{taka(l.net)}</td>
            </tr>
          ))}
        </Table>
      </div>
    </details>
  );
}
