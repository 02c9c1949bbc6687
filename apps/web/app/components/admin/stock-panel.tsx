import { STOCK_REASONS, type TAdminReference, type TAdminSku, type TStockMovement, type TStockReason } from '@storefront/shared';
import { useState } from 'react';
import { apiFetch } from '../../lib/api-client.ts';
import { Modal } from '../ui/modal.tsx';
import { describedBy, Field, inputClass, Notice } from './admin-ui.tsx';

// Stock per sku and branch. A change is a movement with a reason and a note (received,
// sold, returned, or a correction to the quantity counted), never a bare overwrite
// (docs/decisions/0031).

const REASON_LABEL: Record<TStockReason, string> = {
  received: 'Received (units in)',
  sold: 'Sold outside the shop (units out)',
  returned: 'Returned (units in)',
  correction: 'Counted (set the quantity)',
};

export function StockPanel({
  skus,
  branches,
  canAdjust,
  onChanged,
}: {
  skus: TAdminSku[];
  branches: TAdminReference['branches'];
  canAdjust: boolean;
  onChanged(): void;
}) {
  const [target, setTarget] = useState<{ sku: TAdminSku; branchId: number } | null>(null);
  if (!skus.length) return <p className="text-sm text-ink-muted">Save the product to manage its stock.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[32rem] border-collapse text-sm">
        <caption className="sr-only">Stock per sku and branch</caption>
        <thead>
          <tr className="border-b border-sand-200">
            <th scope="col" className="py-2 pr-3 text-left font-semibold">
              Sku
            </th>
            {branches.map((b) => (
              <th key={b.id} scope="col" className="px-2 py-2 text-right font-semibold">
                {b.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {skus.map((s) => (
            <tr key={s.id} className="border-b border-sand-100 last:border-0">
              <th scope="row" className="whitespace-nowrap py-2 pr-3 text-left font-medium">
                {s.code}
              </th>
              {branches.map((b) => {
                const q = s.stock.find((x) => x.branchId === b.id)?.quantity ?? 0;
                return (
                  <td key={b.id} className="px-2 py-1 text-right tabular-nums">
                    {canAdjust ? (
                      <button
                        type="button"
                        className="min-w-12 rounded-md border border-sand-300 px-2 py-1 hover:bg-sand-100"
                        aria-label={`Change stock of ${s.code} at ${b.name}: ${q}`}
                        onClick={() => setTarget({ sku: s, branchId: b.id })}
                      >
                        {q}
                      </button>
                    ) : (
                      q
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {target && (
        <AdjustDialog
          sku={target.sku}
          branch={branches.find((b) => b.id === target.branchId) ?? { id: target.branchId, name: '', kind: '' }}
          onClose={(changed) => {
            setTarget(null);
            if (changed) onChanged();
          }}
        />
      )}
    </div>
  );
}

function AdjustDialog({ sku, branch, onClose }: { sku: TAdminSku; branch: { id: number; name: string }; onClose(changed: boolean): void }) {
  const current = sku.stock.find((x) => x.branchId === branch.id)?.quantity ?? 0;
  const [reason, setReason] = useState<TStockReason>('received');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [history, setHistory] = useState<TStockMovement[] | null>(null);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const n = Number(amount);
    if (!amount.trim() || !Number.isInteger(n) || n < 0) {
      setError({ message: 'Enter a whole number of units (0 or more)', fields: { amount: 'Enter a whole number of units (0 or more)' } });
      return;
    }
    setBusy(true);
    const body =
      reason === 'correction'
        ? { skuId: sku.id, branchId: branch.id, reason, countedQuantity: n, note }
        : { skuId: sku.id, branchId: branch.id, reason, delta: reason === 'sold' ? -n : n, note };
    const res = await apiFetch<TStockMovement>('/api/admin/stock/adjustments', { method: 'POST', body });
    setBusy(false);
    if (res.ok) onClose(true);
    else setError({ message: res.error?.message ?? 'The stock could not be changed', fields: { amount: Object.values(res.error?.fields ?? {})[0] ?? '' } });
  };

  const loadHistory = async () => {
    const res = await apiFetch<{ items: TStockMovement[] }>(`/api/admin/skus/${sku.id}/movements`);
    if (res.ok) setHistory(res.data.items.filter((m) => m.branchId === branch.id));
  };

  return (
    <Modal open onOpenChange={(o) => !o && onClose(false)} title={`Stock of ${sku.code} at ${branch.name}`} className="lg:max-w-lg">
      <form onSubmit={save} className="flex flex-col gap-4" noValidate>
        <p className="text-sm">
          Now in stock: <strong className="tabular-nums">{current}</strong>
        </p>
        {error && <Notice tone="error">{error.message}</Notice>}
        <Field id="reason" label="What happened">
          <select id="reason" className={inputClass} value={reason} onChange={(e) => setReason(e.target.value as TStockReason)}>
            {STOCK_REASONS.map((r) => (
              <option key={r} value={r}>
                {REASON_LABEL[r]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="amount" label={reason === 'correction' ? 'Quantity counted' : 'Units'} error={error?.fields.amount || undefined}>
          <input
            className={inputClass}
            inputMode="numeric"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            {...describedBy('amount', error?.fields.amount)}
          />
        </Field>
        <Field id="note" label="Note" hint="For example the delivery note or who counted.">
          <input className={inputClass} value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} {...describedBy('note')} />
        </Field>
        <div className="flex flex-wrap justify-between gap-2">
          <button type="button" className="text-sm text-brand-700 hover:underline" onClick={loadHistory}>
            Show recent changes
          </button>
          <button
            type="submit"
            disabled={busy}
            className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {busy ? 'Saving…' : 'Save stock change'}
          </button>
        </div>
        {history && (
          <ul className="max-h-48 overflow-y-auto text-xs text-ink-muted" aria-label="Recent stock changes">
            {!history.length && <li>No changes recorded here yet.</li>}
            {history.map((m) => (
              <li key={m.id} className="border-b border-sand-100 py-1">
                {m.createdAt.slice(0, 16).replace('T', ' ')} · {m.reason} {m.delta > 0 ? `+${m.delta}` : m.delta} → {m.quantityAfter}
                {m.staffEmail ? ` · ${m.staffEmail}` : ''}
                {m.note ? ` · ${m.note}` : ''}
              </li>
            ))}
          </ul>
        )}
      </form>
    </Modal>
  );
}
