import {
  DELIVERY_METHOD_LABELS,
  ORDER_ACTION_LABELS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  parseTaka,
  REFUND_METHOD_LABELS,
  REFUND_METHODS,
  SALE_STATUS_LABELS,
  SHIPMENT_STATUS_LABELS,
  type TAdminOrder,
  type TConsignment,
  type TConsignmentCourier,
  type TCourierList,
  type TCourierPlaceList,
  type TOrderAction,
  type TRefundMethod,
} from '@storefront/shared';
import { useEffect, useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import { adminRead, adminReadOptional } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, OrderStatusBadge, taka } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import { OrderTotals } from '../../components/admin/order-totals.tsx';
import type { Route } from './+types/order';
import { may, useAdminSession } from './layout.tsx';

// One order or booking (docs/decisions/0032): what was bought and charged, who and where,
// the payment attempts as the gateway verified them, payment proofs to check, the history,
// notes for staff and refunds, with the steps staff may take now. Every change goes through
// /api/admin, which checks the step again and answers the order as it now is.

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.order.invoiceId ?? 'Order'} · Back office` }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw new Response('Not found', { status: 404 });
  const [order, couriers, consignment] = await Promise.all([
    adminRead<TAdminOrder>(context, request, `/api/admin/orders/${id}`),
    adminRead<TCourierList>(context, request, '/api/admin/couriers'),
    adminReadOptional<TConsignment>(context, request, `/api/admin/orders/${id}/consignment`),
  ]);
  return { order, couriers: couriers.items, consignment };
}

const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-GB', { timeZone: 'Asia/Dhaka', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })
    : '—';

type Problem = { message: string; fields: Record<string, string> } | null;

/** Sends one change and reloads the order; says what went wrong in the API's words. */
function useChange(orderId: number) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>(null);
  const [done, setDone] = useState<string | null>(null);
  const send = async (path: string, body: unknown, success: string): Promise<boolean> => {
    setBusy(true);
    setDone(null);
    const res = await apiFetch(`/api/admin/orders/${orderId}${path}`, { method: 'POST', body });
    setBusy(false);
    if (!res.ok) {
      setProblem({ message: res.error?.message ?? 'That did not work', fields: res.error?.fields ?? {} });
      return false;
    }
    setProblem(null);
    setDone(success);
    revalidator.revalidate();
    return true;
  };
  return { busy, problem, done, send };
}

const button = 'inline-flex h-10 items-center justify-center rounded-lg px-4 text-sm font-semibold disabled:opacity-60';
const primary = `${button} bg-brand-700 text-white hover:bg-brand-800`;
const secondary = `${button} border border-sand-300 bg-paper hover:bg-sand-100`;
const danger = `${button} border border-danger-600 text-danger-600 hover:bg-red-50`;

export default function AdminOrder({ loaderData }: Route.ComponentProps) {
  const { order, couriers, consignment } = loaderData;
  const session = useAdminSession();
  const canWrite = may(session, 'orders.write');
  const canRefund = may(session, 'refunds.write');
  const change = useChange(order.id);
  const thing = order.kind === 'booking' ? 'Booking' : 'Order';
  return (
    <AdminPage
      title={`${thing} ${order.invoiceId}`}
      description={
        <span className="flex flex-wrap items-center gap-2">
          <OrderStatusBadge status={order.status} label={SALE_STATUS_LABELS[order.status]} />
          <span>{PAYMENT_STATUS_LABELS[order.paymentStatus]}</span>
          <span aria-hidden="true">·</span>
          <span>{PAYMENT_METHOD_LABELS[order.paymentMethod]}</span>
          <span aria-hidden="true">·</span>
          <span>Placed {when(order.createdAt)}</span>
        </span>
      }
      actions={
        <>
          <Link to="/admin/orders" className={secondary}>
            All orders
          </Link>
          <a href={`/admin/orders/${order.id}/print?doc=invoice`} target="_blank" rel="noopener" className={secondary}>
            Print invoice
          </a>
          <a href={`/admin/orders/${order.id}/print?doc=slip`} target="_blank" rel="noopener" className={secondary}>
            Delivery slip
          </a>
        </>
      }
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          {change.problem && !Object.keys(change.problem.fields).length && <Notice tone="error">{change.problem.message}</Notice>}
          {change.done && <Notice tone="success">{change.done}</Notice>}
          <Lines order={order} />
          <People order={order} />
          {order.proofs.length > 0 && <Proofs order={order} canWrite={canWrite} />}
          {order.payments.length > 0 && <Payments order={order} />}
          <History order={order} />
        </div>
        <div className="flex flex-col gap-6">
          {(consignment || (canWrite && couriers.length > 0 && order.deliveryMethod === 'home_delivery' && order.kind === 'order')) && (
            <Courier order={order} couriers={couriers} consignment={consignment} canWrite={canWrite} />
          )}
          {canWrite && <Steps order={order} change={change} />}
          {canWrite && order.canCollectCash && <CollectCash order={order} change={change} />}
          {(order.refunds.length > 0 || (canRefund && order.refundable > 0)) && <Refunds order={order} canRefund={canRefund} />}
          <Notes order={order} canWrite={canWrite} />
        </div>
      </div>
    </AdminPage>
  );
}

function Lines({ order }: { order: TAdminOrder }) {
  return (
    <Card title="Items">
      <div className="overflow-x-auto">
        <table className="w-full min-w-[28rem] border-collapse text-sm">
          <caption className="sr-only">Items and prices as charged</caption>
          <thead className="border-b border-sand-200 text-left">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Item
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                Qty
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                Unit price
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                Discount
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Line total
              </th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((l) => (
              <tr key={l.lineNo} className="border-b border-sand-100">
                <td className="py-2 pr-3">
                  <p className="font-medium">{l.title}</p>
                  <p className="text-xs text-ink-muted">
                    {l.skuCode}
                    {l.variant ? ` · ${l.variant}` : ''}
                  </p>
                  {(l.returnedQuantity > 0 || l.refundedQuantity > 0) && (
                    <p className="text-xs font-medium text-danger-600">
                      {l.returnedQuantity > 0 && `${l.returnedQuantity} returned`}
                      {l.returnedQuantity > 0 && l.refundedQuantity > 0 && ' · '}
                      {l.refundedQuantity > 0 && `${l.refundedQuantity} refunded`}
                    </p>
                  )}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{l.quantity}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{taka(l.unitPrice)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{l.discount ? `−${taka(l.discount)}` : '—'}</td>
                <td className="py-2 text-right font-medium tabular-nums">{taka(l.lineTotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <OrderTotals order={order} className="mt-3 text-sm" />
    </Card>
  );
}

function People({ order }: { order: TAdminOrder }) {
  const a = order.deliveryAddress;
  return (
    <Card title="Customer and delivery">
      <div className="grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <h3 className="font-semibold">{order.contactName}</h3>
          <p>
            <a className="text-brand-700 hover:underline" href={`tel:${order.contactMobile}`}>
              {order.contactMobile}
            </a>
          </p>
          <p>
            <a className="text-brand-700 hover:underline" href={`mailto:${order.contactEmail}`}>
              {order.contactEmail}
            </a>
          </p>
          <p className="mt-1 text-ink-muted">
            {order.customerId ? (
              <Link className="text-brand-700 hover:underline" to={`/admin/customers/${order.customerId}`}>
                Customer account
              </Link>
            ) : (
              'Guest checkout'
            )}
          </p>
        </div>
        <div>
          <h3 className="font-semibold">{DELIVERY_METHOD_LABELS[order.deliveryMethod]}</h3>
          {order.pickupBranch ? (
            <p>
              {order.pickupBranch.name}, {order.pickupBranch.address}, {order.pickupBranch.city}
            </p>
          ) : a ? (
            <p>
              {a.fullName} ({a.phone})<br />
              {[a.addressLine, a.area, a.district, a.division].filter(Boolean).join(', ')}
            </p>
          ) : null}
          {order.branchName && <p className="mt-1 text-ink-muted">From {order.branchName}</p>}
          {order.note && <p className="mt-2 rounded-lg bg-sand-50 p-2">“{order.note}”</p>}
          {order.holdUntil && <p className="mt-2 text-ink-muted">Held until {when(order.holdUntil)}</p>}
        </div>
      </div>
    </Card>
  );
}

function Proofs({ order, canWrite }: { order: TAdminOrder; canWrite: boolean }) {
  const change = useChange(order.id);
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const open = order.kind === 'booking' && order.status === 'booked';
  return (
    <Card title="Payment proofs">
      {change.problem && <Notice tone="error">{change.problem.message}</Notice>}
      <ul className="flex flex-col gap-4">
        {order.proofs.map((p) => {
          const image = p.mimeType?.startsWith('image/') && p.url;
          const amount = amounts[p.id] ?? '';
          const parsed = amount ? parseTaka(amount) : undefined;
          return (
            <li key={p.id} className="grid gap-3 border-b border-sand-100 pb-4 last:border-0 sm:grid-cols-[12rem_minmax(0,1fr)]">
              {image ? (
                <a href={p.url!} target="_blank" rel="noopener" className="block">
                  <img
                    src={p.url!}
                    alt={`Payment proof ${p.name ?? ''}`}
                    width={192}
                    height={192}
                    className="aspect-square w-48 rounded-lg border border-sand-200 object-cover"
                  />
                </a>
              ) : p.url ? (
                <object
                  data={p.url}
                  type={p.mimeType ?? undefined}
                  className="h-48 w-48 rounded-lg border border-sand-200"
                  aria-label={`Payment proof ${p.name ?? ''}`}
                >
                  <a href={p.url} target="_blank" rel="noopener" className="text-brand-700 underline">
                    Open {p.name}
                  </a>
                </object>
              ) : (
                <p className="text-ink-muted">The file is no longer stored</p>
              )}
              <div className="text-sm">
                <p className="font-medium">{p.name}</p>
                <p className="text-ink-muted">Uploaded {when(p.createdAt)}</p>
                {p.note && <p className="mt-1">“{p.note}”</p>}
                {p.reviewStatus !== 'pending' ? (
                  <p className={`mt-2 font-medium ${p.reviewStatus === 'accepted' ? 'text-success-600' : 'text-danger-600'}`}>
                    {p.reviewStatus === 'accepted' ? `Accepted: ${taka(p.amount)} received` : `Rejected: ${p.reviewNote}`} ({p.reviewedBy}, {when(p.reviewedAt)}
                    )
                  </p>
                ) : canWrite && open ? (
                  <div className="mt-3 grid gap-3">
                    <Field
                      id={`proof-amount-${p.id}`}
                      label="Amount it shows (৳)"
                      hint={`Leave empty for what is still owed: ${taka(order.total - order.amountPaid)}`}
                    >
                      <input
                        className={inputClass}
                        inputMode="decimal"
                        value={amount}
                        onChange={(e) => setAmounts({ ...amounts, [p.id]: e.target.value })}
                        {...describedBy(`proof-amount-${p.id}`)}
                      />
                    </Field>
                    <button
                      type="button"
                      className={primary}
                      disabled={change.busy || parsed === null}
                      onClick={() =>
                        change.send(
                          `/proofs/${p.id}`,
                          { decision: 'accept', ...(parsed ? { amount: parsed } : {}) },
                          'The proof was accepted and the shopper told.',
                        )
                      }
                    >
                      Accept the payment
                    </button>
                    <Field id={`proof-reason-${p.id}`} label="Or reject it, because…" hint="The shopper reads this">
                      <input
                        className={inputClass}
                        value={reasons[p.id] ?? ''}
                        onChange={(e) => setReasons({ ...reasons, [p.id]: e.target.value })}
                        {...describedBy(`proof-reason-${p.id}`)}
                      />
                    </Field>
                    <button
                      type="button"
                      className={danger}
                      disabled={change.busy || !(reasons[p.id] ?? '').trim()}
                      onClick={() =>
                        change.send(`/proofs/${p.id}`, { decision: 'reject', reason: reasons[p.id] }, 'The proof was rejected and the shopper told why.')
                      }
                    >
                      Reject the proof
                    </button>
                  </div>
                ) : (
                  <p className="mt-2 text-ink-muted">Waiting to be checked</p>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

function Payments({ order }: { order: TAdminOrder }) {
  return (
    <Card title="Payment attempts">
      <ul className="flex flex-col gap-3 text-sm">
        {order.payments.map((p) => (
          <li key={p.id} className="rounded-lg border border-sand-200 p-3">
            <p className="flex flex-wrap gap-x-3">
              <strong className="capitalize">{p.status}</strong>
              <span>{taka(p.amount)}</span>
              <span className="text-ink-muted">
                {p.provider} · {when(p.createdAt)}
              </span>
            </p>
            <dl className="mt-1 grid grid-cols-[9rem_minmax(0,1fr)] gap-x-3 text-xs">
              <dt className="text-ink-muted">Transaction</dt>
              <dd className="break-all font-mono">{p.tranId}</dd>
              {p.valId && (
                <>
                  <dt className="text-ink-muted">Validation id</dt>
                  <dd className="break-all font-mono">{p.valId}</dd>
                </>
              )}
              {p.bankTranId && (
                <>
                  <dt className="text-ink-muted">Bank transaction</dt>
                  <dd className="break-all font-mono">{p.bankTranId}</dd>
                </>
              )}
              {p.cardType && (
                <>
                  <dt className="text-ink-muted">Card</dt>
                  <dd>{p.cardType}</dd>
                </>
              )}
              {p.verifiedAt && (
                <>
                  <dt className="text-ink-muted">Verified</dt>
                  <dd>
                    {when(p.verifiedAt)}
                    {p.riskLevel === 1 ? ' · high risk' : ''}
                  </dd>
                </>
              )}
              {p.failureReason && (
                <>
                  <dt className="text-ink-muted">Reason</dt>
                  <dd>{p.failureReason}</dd>
                </>
              )}
            </dl>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function History({ order }: { order: TAdminOrder }) {
  return (
    <Card title="History">
      <ol className="flex flex-col gap-3 border-l-2 border-sand-200 pl-4 text-sm">
        {[...order.history].reverse().map((h) => (
          <li key={`${h.createdAt}-${h.status}-${h.paymentStatus}-${h.note}`}>
            <p className="flex flex-wrap gap-x-2">
              <strong>{SALE_STATUS_LABELS[h.status]}</strong>
              <span className="text-ink-muted">{PAYMENT_STATUS_LABELS[h.paymentStatus]}</span>
            </p>
            <p>{h.note}</p>
            <p className="text-xs text-ink-muted">
              {h.staffName ?? (h.actor === 'system' ? 'The shop, automatically' : h.actor === 'provider' ? 'The payment gateway' : `The ${h.actor}`)} ·{' '}
              {when(h.createdAt)}
            </p>
          </li>
        ))}
      </ol>
    </Card>
  );
}

const STEP_HELP: Partial<Record<TOrderAction, string>> = {
  confirm: 'You have spoken to the customer and the order goes ahead.',
  convert: 'The booking becomes an order the shop prepares.',
  cancel: 'Stock and coupon go back; money received stays owed to the customer until refunded.',
};

function Steps({ order, change }: { order: TAdminOrder; change: ReturnType<typeof useChange> }) {
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState<TOrderAction | null>(null);
  const [back, setBack] = useState<Record<number, string>>({});
  const forward = order.actions.filter((a) => a !== 'cancel' && a !== 'return');
  const lines = () =>
    order.lines.map((l) => ({ lineNo: l.lineNo, quantity: Number(back[l.lineNo] || 0) })).filter((l) => Number.isInteger(l.quantity) && l.quantity > 0);
  const act = async (action: TOrderAction, withLines = false) => {
    const ok = await change.send(
      '/actions',
      { action, ...(note.trim() ? { note } : {}), ...(withLines && lines().length ? { lines: lines() } : {}) },
      `${ORDER_ACTION_LABELS[action]}: done. The customer was mailed.`,
    );
    if (ok) {
      setNote('');
      setConfirming(null);
      setBack({});
    }
  };
  if (!order.actions.length) {
    return (
      <Card title="Next step">
        <p className="text-sm text-ink-muted">Nothing more to do for this {order.kind}.</p>
      </Card>
    );
  }
  const returnable = order.lines.filter((l) => l.quantity > l.returnedQuantity);
  return (
    <Card title="Next step">
      <div className="flex flex-col gap-3">
        <Field
          id="step-note"
          label="Note for the history (optional)"
          hint="The customer sees it in the order’s history; a cancellation’s reason is also mailed"
        >
          <textarea
            className={`${inputClass} h-20 py-2`}
            value={note}
            maxLength={500}
            onChange={(e) => setNote(e.target.value)}
            {...describedBy('step-note')}
          />
        </Field>
        {forward.map((a) => (
          <div key={a}>
            <button type="button" className={`${primary} w-full`} disabled={change.busy} onClick={() => act(a, a === 'deliver')}>
              {ORDER_ACTION_LABELS[a]}
            </button>
            {STEP_HELP[a] && <p className="mt-1 text-xs text-ink-muted">{STEP_HELP[a]}</p>}
          </div>
        ))}
        {(order.actions.includes('return') || order.actions.includes('deliver')) && returnable.length > 0 && (
          <fieldset className="rounded-lg border border-sand-200 p-3">
            <legend className="px-1 text-sm font-semibold">
              {order.actions.includes('deliver') ? 'Refused at the door (optional)' : 'Items that came back'}
            </legend>
            {returnable.map((l) => (
              <label key={l.lineNo} className="mt-2 flex items-center justify-between gap-3 text-sm">
                <span className="min-w-0 truncate">
                  {l.title} <span className="text-ink-muted">(up to {l.quantity - l.returnedQuantity})</span>
                </span>
                <input
                  className={`${inputClass} w-20`}
                  type="number"
                  min={0}
                  max={l.quantity - l.returnedQuantity}
                  value={back[l.lineNo] ?? ''}
                  onChange={(e) => setBack({ ...back, [l.lineNo]: e.target.value })}
                  aria-invalid={change.problem?.fields[`lines.${returnable.indexOf(l)}.quantity`] ? true : undefined}
                />
              </label>
            ))}
            {order.actions.includes('return') && (
              <button type="button" className={`${secondary} mt-3 w-full`} disabled={change.busy} onClick={() => act('return', true)}>
                {lines().length ? 'Record these as returned' : 'Record a return of everything'}
              </button>
            )}
          </fieldset>
        )}
        {order.actions.includes('cancel') &&
          (confirming === 'cancel' ? (
            <div className="rounded-lg border border-danger-600 p-3">
              <p className="text-sm">{STEP_HELP.cancel}</p>
              <div className="mt-2 flex gap-2">
                <button type="button" className={danger} disabled={change.busy} onClick={() => act('cancel')}>
                  Cancel the {order.kind}
                </button>
                <button type="button" className={secondary} onClick={() => setConfirming(null)}>
                  Keep it
                </button>
              </div>
            </div>
          ) : (
            <button type="button" className={danger} onClick={() => setConfirming('cancel')}>
              Cancel…
            </button>
          ))}
      </div>
    </Card>
  );
}

function CollectCash({ order, change }: { order: TAdminOrder; change: ReturnType<typeof useChange> }) {
  const [amount, setAmount] = useState(String(order.total / 100));
  const [day, setDay] = useState('');
  const parsed = parseTaka(amount);
  return (
    <Card title="Cash on delivery">
      <form
        className="flex flex-col gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (parsed) change.send('/cash', { amount: parsed, ...(day ? { collectedOn: day } : {}) }, 'The cash was recorded and the customer thanked.');
        }}
      >
        <Field id="cash-amount" label="Amount collected (৳)" error={change.problem?.fields.amount ?? (parsed === null ? 'Type an amount in taka' : undefined)}>
          <input
            className={inputClass}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            {...describedBy('cash-amount', change.problem?.fields.amount)}
          />
        </Field>
        <Field id="cash-day" label="Collected on" hint="Leave empty for today" error={change.problem?.fields.collectedOn}>
          <input
            className={inputClass}
            type="date"
            value={day}
            onChange={(e) => setDay(e.target.value)}
            {...describedBy('cash-day', change.problem?.fields.collectedOn)}
          />
        </Field>
        <button type="submit" className={primary} disabled={change.busy || !parsed}>
          Record the cash
        </button>
      </form>
    </Card>
  );
}

const newKey = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);

function Refunds({ order, canRefund }: { order: TAdminOrder; canRefund: boolean }) {
  const change = useChange(order.id);
  const [key, setKey] = useState(newKey);
  const [by, setBy] = useState<'amount' | 'lines'>('amount');
  const [amount, setAmount] = useState('');
  const [units, setUnits] = useState<Record<number, string>>({});
  const [method, setMethod] = useState<TRefundMethod>(order.gatewayRefund ? 'gateway' : 'bank');
  const [reason, setReason] = useState('');
  const [reference, setReference] = useState('');
  const fields = change.problem?.fields ?? {};
  const parsed = amount ? parseTaka(amount) : null;
  const lines = order.lines
    .map((l) => ({ lineNo: l.lineNo, quantity: Number(units[l.lineNo] || 0) }))
    .filter((l) => Number.isInteger(l.quantity) && l.quantity > 0);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = {
      idempotencyKey: key,
      method,
      reason,
      ...(reference.trim() ? { reference } : {}),
      ...(by === 'amount' ? { amount: parsed ?? 0 } : { lines }),
    };
    if (await change.send('/refunds', body, 'The refund was recorded and the customer told.')) {
      setKey(newKey());
      setAmount('');
      setUnits({});
      setReason('');
      setReference('');
    }
  };
  const methods = REFUND_METHODS.filter((m) => m !== 'gateway' || order.gatewayRefund);
  return (
    <Card title="Refunds">
      {order.refunds.length > 0 && (
        <ul className="mb-4 flex flex-col gap-2 text-sm">
          {order.refunds.map((r) => (
            <li key={r.id} className="rounded-lg border border-sand-200 p-3">
              <p className="flex flex-wrap justify-between gap-2">
                <strong className="tabular-nums">{taka(r.amount)}</strong>
                <span className={r.status === 'failed' ? 'text-danger-600' : r.status === 'refunded' ? 'text-success-600' : ''}>
                  {r.status === 'processing' ? 'With the gateway' : r.status === 'refunded' ? 'Refunded' : 'Failed'}
                </span>
              </p>
              <p className="text-ink-muted">
                {REFUND_METHOD_LABELS[r.method]}
                {r.reference ? ` · ${r.reference}` : ''}
              </p>
              <p>{r.reason}</p>
              {r.failureReason && <p className="text-danger-600">{r.failureReason}</p>}
              <p className="text-xs text-ink-muted">
                {r.staffName} · {when(r.createdAt)}
              </p>
              {r.status === 'processing' && canRefund && (
                <button
                  type="button"
                  className="mt-1 text-xs font-semibold text-brand-700 hover:underline"
                  onClick={() => change.send(`/refunds/${r.id}/refresh`, undefined, 'Asked the gateway.')}
                >
                  Ask the gateway again
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canRefund && order.refundable > 0 && (
        <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
          {change.problem && <Notice tone="error">{change.problem.message}</Notice>}
          <p className="text-sm text-ink-muted">Up to {taka(order.refundable)} can be refunded.</p>
          <fieldset className="flex gap-4 text-sm">
            <legend className="sr-only">Refund by</legend>
            {(['amount', 'lines'] as const).map((b) => (
              <label key={b} className="flex items-center gap-2">
                <input type="radio" name="refund-by" checked={by === b} onChange={() => setBy(b)} />
                {b === 'amount' ? 'An amount' : 'Items'}
              </label>
            ))}
          </fieldset>
          {by === 'amount' ? (
            <Field id="refund-amount" label="Amount (৳)" error={fields.amount}>
              <input
                className={inputClass}
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                {...describedBy('refund-amount', fields.amount)}
              />
            </Field>
          ) : (
            <div className="flex flex-col gap-2">
              {order.lines.map((l, i) => (
                <label key={l.lineNo} className="flex items-center justify-between gap-3 text-sm">
                  <span className="min-w-0 truncate">
                    {l.title} <span className="text-ink-muted">({taka(l.lineTotal)})</span>
                  </span>
                  <input
                    className={`${inputClass} w-20`}
                    type="number"
                    min={0}
                    max={l.quantity - l.refundedQuantity}
                    value={units[l.lineNo] ?? ''}
                    onChange={(e) => setUnits({ ...units, [l.lineNo]: e.target.value })}
                    aria-label={`Units of ${l.title} to refund`}
                    aria-invalid={fields[`lines.${i}.quantity`] ? true : undefined}
                  />
                </label>
              ))}
            </div>
          )}
          <Field id="refund-method" label="How the money goes back">
            <select className={inputClass} id="refund-method" value={method} onChange={(e) => setMethod(e.target.value as TRefundMethod)}>
              {methods.map((m) => (
                <option key={m} value={m}>
                  {REFUND_METHOD_LABELS[m]}
                </option>
              ))}
            </select>
          </Field>
          {method !== 'gateway' && (
            <Field id="refund-reference" label="Reference" hint="The bank transfer, receipt or wallet transaction number" error={fields.reference}>
              <input
                className={inputClass}
                value={reference}
                onChange={(e) => setReference(e.target.value)}
                {...describedBy('refund-reference', fields.reference)}
              />
            </Field>
          )}
          <Field id="refund-reason" label="Reason" hint="The customer is told the amount" error={fields.reason}>
            <input className={inputClass} value={reason} onChange={(e) => setReason(e.target.value)} {...describedBy('refund-reason', fields.reason)} />
          </Field>
          <button type="submit" className={primary} disabled={change.busy || !reason.trim() || (by === 'amount' ? !parsed : !lines.length)}>
            Refund
          </button>
        </form>
      )}
    </Card>
  );
}

function Notes({ order, canWrite }: { order: TAdminOrder; canWrite: boolean }) {
  const change = useChange(order.id);
  const [body, setBody] = useState('');
  return (
    <Card title="Notes for staff">
      {canWrite && (
        <form
          className="mb-4 flex flex-col gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await change.send('/notes', { body }, 'Note added.')) setBody('');
          }}
        >
          <label htmlFor="note-body" className="sr-only">
            A note for staff
          </label>
          <textarea
            id="note-body"
            className={`${inputClass} h-20 py-2`}
            value={body}
            maxLength={2000}
            onChange={(e) => setBody(e.target.value)}
            placeholder="Only staff see this"
          />
          {change.problem && <Notice tone="error">{change.problem.message}</Notice>}
          <button type="submit" className={secondary} disabled={change.busy || !body.trim()}>
            Add note
          </button>
        </form>
      )}
      <ul className="flex flex-col gap-3 text-sm">
        {order.notes.map((n) => (
          <li key={n.id}>
            <p className="whitespace-pre-wrap">{n.body}</p>
            <p className="text-xs text-ink-muted">
              {n.staffName} · {when(n.createdAt)}
            </p>
          </li>
        ))}
        {!order.notes.length && <li className="text-ink-muted">No notes yet.</li>}
      </ul>
    </Card>
  );
}

const SOURCE_LABELS: Record<string, string> = { webhook: 'courier’s update', poll: 'asked the courier', staff: 'staff' };

/**
 * The parcel (docs/decisions/0040): booking it with a configured courier where the ship step
 * is allowed (a packed home delivery), then the courier's tracking code, status history and
 * the label to stick on the parcel. The courier's reports move the order; staff do not here.
 */
function Courier({
  order,
  couriers,
  consignment,
  canWrite,
}: {
  order: TAdminOrder;
  couriers: TCourierList['items'];
  consignment: TConsignment | null;
  canWrite: boolean;
}) {
  const change = useChange(order.id);
  const [courier, setCourier] = useState<TConsignmentCourier | ''>(couriers[0]?.id ?? '');
  const [note, setNote] = useState('');
  const [destination, setDestination] = useState<Destination>({});
  const [weightKg, setWeightKg] = useState('');
  const live = consignment?.active ? consignment : null;
  const canBook = canWrite && !live && couriers.length > 0 && order.actions.includes('ship');
  const courierName = (id: string) => couriers.find((c) => c.id === id)?.name ?? (id === 'steadfast' ? 'Steadfast' : id === 'pathao' ? 'Pathao' : id);
  return (
    <Card title="Courier">
      <div className="flex flex-col gap-3 text-sm" data-testid="courier-card">
        {change.problem && (
          <Notice tone="error">
            {change.problem.message}
            {Object.keys(change.problem.fields).length > 0 && (
              <ul className="mt-1 list-disc pl-5">
                {Object.entries(change.problem.fields).map(([field, message]) => (
                  <li key={field}>{message}</li>
                ))}
              </ul>
            )}
          </Notice>
        )}
        {change.done && <Notice tone="success">{change.done}</Notice>}
        {consignment && (
          <div>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
              <dt className="text-ink-muted">Courier</dt>
              <dd className="font-medium">{courierName(consignment.courier)}</dd>
              <dt className="text-ink-muted">Status</dt>
              <dd className="font-medium" data-testid="consignment-status">
                {SHIPMENT_STATUS_LABELS[consignment.status] ?? consignment.status}
                {consignment.courierStatus && <span className="font-normal text-ink-muted"> ({consignment.courierStatus})</span>}
              </dd>
              <dt className="text-ink-muted">Consignment</dt>
              <dd className="font-mono" data-testid="consignment-id">
                {consignment.consignmentId ?? 'Being requested…'}
              </dd>
              {consignment.trackingCode && (
                <>
                  <dt className="text-ink-muted">Tracking code</dt>
                  <dd className="font-mono" data-testid="tracking-code">
                    {consignment.trackingCode}
                  </dd>
                </>
              )}
              <dt className="text-ink-muted">Rider collects</dt>
              <dd className="tabular-nums">{consignment.codAmount > 0 ? taka(consignment.codAmount) : 'Nothing (paid)'}</dd>
              <dt className="text-ink-muted">Booked</dt>
              <dd>
                {when(consignment.createdAt)}
                {consignment.bookedBy ? ` by ${consignment.bookedBy}` : ''}
              </dd>
            </dl>
            {consignment.history.length > 0 && (
              <ol className="mt-3 flex flex-col gap-2 border-l-2 border-sand-200 pl-3" aria-label="Courier status history" data-testid="consignment-history">
                {consignment.history.map((h) => (
                  <li key={`${h.at}:${h.status}:${h.source}:${h.message ?? ''}`}>
                    <p className="font-medium">{SHIPMENT_STATUS_LABELS[h.status] ?? h.status}</p>
                    <p className="text-xs text-ink-muted">
                      {when(h.at)} · {SOURCE_LABELS[h.source] ?? h.source}
                      {h.message ? ` · ${h.message}` : ''}
                    </p>
                  </li>
                ))}
              </ol>
            )}
            {consignment.consignmentId && (
              <a href={`/admin/orders/${order.id}/label`} target="_blank" rel="noopener" className={`${secondary} mt-3 w-full`}>
                Print the parcel label
              </a>
            )}
            {!live && <p className="mt-2 text-ink-muted">This parcel is finished with the courier.</p>}
          </div>
        )}
        {canBook && (
          <form
            className="flex flex-col gap-3 border-t border-sand-200 pt-3 first:border-0 first:pt-0"
            onSubmit={(e) => {
              e.preventDefault();
              if (!courier) return;
              void (async () => {
                const pathao =
                  courier === 'pathao'
                    ? {
                        destination: { cityId: destination.cityId, zoneId: destination.zoneId, ...(destination.areaId ? { areaId: destination.areaId } : {}) },
                        ...(weightKg.trim() && Number(weightKg) > 0 ? { weightGrams: Math.round(Number(weightKg) * 1000) } : {}),
                      }
                    : {};
                if (
                  await change.send(
                    '/consignment',
                    { courier, ...(note.trim() ? { note: note.trim() } : {}), ...pathao },
                    `Booked with ${courierName(courier)}.`,
                  )
                ) {
                  setNote('');
                }
              })();
            }}
          >
            {couriers.length > 1 ? (
              <Field id="courier-choice" label="Courier">
                <select
                  className={inputClass}
                  value={courier}
                  onChange={(e) => setCourier(e.target.value as TConsignmentCourier)}
                  {...describedBy('courier-choice')}
                >
                  {couriers.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
            {courier === 'pathao' && (
              <>
                <PathaoDestination value={destination} onChange={setDestination} address={order.deliveryAddress} />
                <Field id="courier-weight" label="Weight in kg (optional)" hint="Pathao takes 0.5 to 10 kg a parcel; a kilogram an item when empty">
                  <input
                    className={inputClass}
                    inputMode="decimal"
                    value={weightKg}
                    onChange={(e) => setWeightKg(e.target.value)}
                    {...describedBy('courier-weight')}
                  />
                </Field>
              </>
            )}
            <Field id="courier-note" label="Note for the rider (optional)" hint="For example: call before coming">
              <input className={inputClass} value={note} maxLength={300} onChange={(e) => setNote(e.target.value)} {...describedBy('courier-note')} />
            </Field>
            <p className="text-ink-muted">
              The rider collects {order.total - order.amountPaid > 0 ? taka(order.total - order.amountPaid) : 'nothing: the order is paid'}.
            </p>
            <button
              type="submit"
              className={primary}
              disabled={change.busy || !courier || (courier === 'pathao' && !(destination.cityId && destination.zoneId))}
            >
              {change.busy ? 'Booking…' : `Book with ${courierName(courier)}`}
            </button>
          </form>
        )}
        {canWrite && !live && !canBook && couriers.length > 0 && !order.actions.includes('ship') && !consignment && (
          <p className="text-ink-muted">A parcel can be booked once the order is packed.</p>
        )}
      </div>
    </Card>
  );
}

type Destination = { cityId?: number; zoneId?: number; areaId?: number };

/** One of Pathao's place lists, asked through /api/admin (which keeps them ten minutes). */
function usePlaces(path: string | null) {
  const [places, setPlaces] = useState<TCourierPlaceList['items'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setPlaces(null);
    setError(null);
    if (!path) return;
    let live = true;
    void apiFetch<TCourierPlaceList>(path).then((res) => {
      if (!live) return;
      if (res.ok) setPlaces(res.data.items);
      else setError(res.error?.message ?? 'Pathao could not be asked');
    });
    return () => {
      live = false;
    };
  }, [path]);
  return { places, error };
}

/**
 * Pathao delivers by its own city, zone and area ids, not by our address text: staff pick
 * them, with the order's address beside them to go by (docs/decisions/0040).
 */
function PathaoDestination({ value, onChange, address }: { value: Destination; onChange: (d: Destination) => void; address: TAdminOrder['deliveryAddress'] }) {
  const cities = usePlaces('/api/admin/couriers/pathao/cities');
  const zones = usePlaces(value.cityId ? `/api/admin/couriers/pathao/cities/${value.cityId}/zones` : null);
  const areas = usePlaces(value.zoneId ? `/api/admin/couriers/pathao/zones/${value.zoneId}/areas` : null);
  const select = (
    id: string,
    label: string,
    list: ReturnType<typeof usePlaces>,
    selected: number | undefined,
    pick: (n: number | undefined) => void,
    optional = false,
  ) => (
    <Field id={id} label={label} error={list.error ?? undefined}>
      <select
        className={inputClass}
        value={selected ?? ''}
        disabled={!list.places}
        onChange={(e) => pick(e.target.value ? Number(e.target.value) : undefined)}
        {...describedBy(id, list.error ?? undefined)}
      >
        <option value="">{list.places ? (optional ? 'Not needed' : 'Choose…') : 'Loading…'}</option>
        {(list.places ?? []).map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </Field>
  );
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-sand-200 p-3">
      <legend className="px-1 font-semibold">Pathao destination</legend>
      {address && <p className="text-ink-muted">{[address.addressLine, address.area, address.district, address.division].filter(Boolean).join(', ')}</p>}
      {select('pathao-city', 'City', cities, value.cityId, (cityId) => onChange({ cityId }))}
      {value.cityId && select('pathao-zone', 'Zone', zones, value.zoneId, (zoneId) => onChange({ cityId: value.cityId, zoneId }))}
      {value.zoneId && select('pathao-area', 'Area (optional)', areas, value.areaId, (areaId) => onChange({ ...value, areaId }), true)}
    </fieldset>
  );
}
