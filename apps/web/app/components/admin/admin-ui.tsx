import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useNavigation, useRevalidator, useSearchParams } from 'react-router';

// The back office's building blocks: page frame, data table headers, paging and form
// fields, in the storefront's design tokens (admin.css), keyboard reachable and labelled.

export function AdminPage({ title, actions, children, description }: { title: string; actions?: ReactNode; children: ReactNode; description?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6 md:px-8">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {description && <p className="mt-1 text-sm text-ink-muted">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {children}
    </div>
  );
}

export function Card({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="rounded-card border border-sand-200 bg-paper p-4 shadow-card md:p-6" aria-label={title}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          {title && <h2 className="text-lg font-semibold">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

/** A column header that sorts the table on the server: its link flips the direction. */
export function SortHeader({ column, label, className = '' }: { column: string; label: string; className?: string }) {
  const [params] = useSearchParams();
  const sort = params.get('sort') ?? 'updated';
  const dir = params.get('dir') ?? 'desc';
  const active = sort === column;
  const next = new URLSearchParams(params);
  next.set('sort', column);
  next.set('dir', active && dir === 'asc' ? 'desc' : 'asc');
  next.delete('page');
  return (
    <th scope="col" aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'} className={`px-3 py-2 text-left font-semibold ${className}`}>
      <Link to={`?${next}`} className="inline-flex items-center gap-1 hover:underline" preventScrollReset>
        {label}
        <span aria-hidden="true" className="text-xs text-ink-muted">
          {active ? (dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </Link>
    </th>
  );
}

export function Pagination({ page, size, total }: { page: number; size: number; total: number }) {
  const [params] = useSearchParams();
  const pages = Math.max(1, Math.ceil(total / size));
  const to = (p: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(p));
    return `?${next}`;
  };
  const from = total === 0 ? 0 : (page - 1) * size + 1;
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-ink-muted">
        {from}–{Math.min(page * size, total)} of {total.toLocaleString('en-US')}
      </p>
      <div className="flex items-center gap-2">
        {page > 1 ? (
          <Link className="rounded-lg border border-sand-300 bg-paper px-3 py-1.5 hover:bg-sand-100" to={to(page - 1)} rel="prev">
            Previous
          </Link>
        ) : (
          <span className="rounded-lg border border-sand-200 px-3 py-1.5 text-ink-muted" aria-disabled="true">
            Previous
          </span>
        )}
        <span aria-current="page">
          Page {page} of {pages}
        </span>
        {page < pages ? (
          <Link className="rounded-lg border border-sand-300 bg-paper px-3 py-1.5 hover:bg-sand-100" to={to(page + 1)} rel="next">
            Next
          </Link>
        ) : (
          <span className="rounded-lg border border-sand-200 px-3 py-1.5 text-ink-muted" aria-disabled="true">
            Next
          </span>
        )}
      </div>
    </nav>
  );
}

/** Filters of a data table: a GET form, so the page's address holds the view and back works. */
export function FilterBar({ children }: { children: ReactNode }) {
  const navigation = useNavigation();
  const navigate = useNavigate();
  // A plain GET form (it works before the script loads); once it has, the page's data is
  // fetched without a reload, and empty filters stay out of the address.
  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(e.currentTarget)) if (typeof v === 'string' && v !== '') q.set(k, v);
    navigate(`?${q}`);
  };
  return (
    <form method="get" onSubmit={submit} className="mb-4 flex flex-wrap items-end gap-3 rounded-card border border-sand-200 bg-paper p-3" role="search">
      {children}
      <button type="submit" className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800">
        {navigation.state === 'loading' ? 'Loading…' : 'Apply'}
      </button>
    </form>
  );
}

export const inputClass =
  'h-10 w-full rounded-lg border border-sand-300 bg-paper px-3 text-sm text-ink placeholder:text-ink-muted focus:border-brand-600 aria-[invalid=true]:border-danger-600';

export function Field({ label, error, hint, children, id }: { label: string; error?: string; hint?: string; children: ReactNode; id: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-ink-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-danger-600">
          {error}
        </p>
      )}
    </div>
  );
}

/** Attributes that tie an input to its Field's hint or error. */
export function describedBy(id: string, error?: string) {
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : `${id}-hint` } as const;
}

const STATUS_STYLE: Record<string, string> = {
  published: 'bg-brand-50 text-brand-800',
  draft: 'bg-sand-100 text-ink',
  archived: 'bg-sand-200 text-ink-muted',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${STATUS_STYLE[status] ?? STATUS_STYLE.draft}`}>{status}</span>
  );
}

const ORDER_STYLE: Record<string, string> = {
  pending_payment: 'bg-sand-100 text-ink',
  placed: 'bg-amber-100 text-amber-900',
  booked: 'bg-amber-100 text-amber-900',
  on_hold: 'bg-red-50 text-danger-600',
  confirmed: 'bg-brand-50 text-brand-800',
  packed: 'bg-brand-50 text-brand-800',
  shipped: 'bg-blue-50 text-blue-900',
  fulfilled: 'bg-green-50 text-success-600',
  cancelled: 'bg-sand-200 text-ink-muted',
  returned: 'bg-sand-200 text-ink-muted',
};

/** An order's status, coloured by what it asks of staff: new (amber), in hand (green), done (grey). */
export function OrderStatusBadge({ status, label }: { status: string; label: string }) {
  return (
    <span className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${ORDER_STYLE[status] ?? 'bg-sand-100 text-ink'}`}>
      {label}
    </span>
  );
}

const TAKA = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount as staff check it: taka with its paisa ("৳12,500.50"), where the shop shows whole taka. */
export function taka(poisha: number | null): string {
  return poisha == null ? '—' : `৳${TAKA.format(poisha / 100)}`;
}

export function Notice({ tone = 'info', children }: { tone?: 'info' | 'error' | 'success'; children: ReactNode }) {
  const style = {
    info: 'border-sand-300 bg-sand-50',
    error: 'border-danger-600 bg-red-50 text-danger-600',
    success: 'border-success-600 bg-green-50 text-success-600',
  }[tone];
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border px-4 py-3 text-sm ${style}`}>
      {children}
    </div>
  );
}

/** A screen's "saved" notice: shows the message and reads the screen's data again. */
export function useSavedNotice(): { notice: string | null; saved(message: string): void } {
  const revalidator = useRevalidator();
  const [notice, setNotice] = useState<string | null>(null);
  return {
    notice,
    saved: (message) => {
      setNotice(message);
      revalidator.revalidate();
    },
  };
}

/** The one row of a table with nothing to list. */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-3 py-10 text-center text-ink-muted">
        {children}
      </td>
    </tr>
  );
}
