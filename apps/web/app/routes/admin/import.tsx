import { CATALOGUE_IMPORT_KEPT_DAYS, CATALOGUE_IMPORT_MAX_MB, CATALOGUE_IMPORT_MAX_ROWS, type TCatalogueImport } from '@storefront/shared';
import { useEffect, useRef, useState } from 'react';
import { ProgressBar } from '../../components/ui/progress.tsx';
import { AdminPage, Card, Notice } from '../../components/admin/admin-ui.tsx';
import { apiFetch, apiHeaders } from '../../lib/api-client.ts';
import { may, useAdminSession } from './layout.tsx';

// CSV import and export of products (docs/decisions/0031; the column layout is in the
// README): a file is sent and checked in full first, with a report of every problem by line
// and column, or of what it will do; it is written only when applied, all or nothing.

export function meta() {
  return [{ title: 'Import and export · Back office' }];
}

function send(file: File, onProgress: (loaded: number) => void): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/admin/imports');
    for (const [k, v] of Object.entries(apiHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('content-type', 'text/csv');
    xhr.setRequestHeader('x-file-name', file.name.replace(/[^\x20-\x7e]/g, '_'));
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.send(file);
  });
}

const SUMMARY: [keyof NonNullable<TCatalogueImport['summary']>, string][] = [
  ['productsCreated', 'new products'],
  ['productsChanged', 'products changed'],
  ['productsUnchanged', 'products left as they are'],
  ['skusCreated', 'new skus'],
  ['skusChanged', 'skus changed'],
  ['stockChanges', 'stock counts set'],
];

export default function ImportScreen() {
  const session = useAdminSession();
  const canWrite = may(session, 'catalogue.write');
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const [current, setCurrent] = useState<TCatalogueImport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const poll = useRef<number | null>(null);
  useEffect(() => () => void (poll.current && window.clearTimeout(poll.current)), []);

  const check = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!file) return setError('Choose a CSV file first');
    if (file.size > CATALOGUE_IMPORT_MAX_MB * 1024 * 1024)
      return setError(`${file.name} is larger than ${CATALOGUE_IMPORT_MAX_MB} MB: split it into several files.`);
    setError(null);
    setCurrent(null);
    setSent(0);
    const r = await send(file, setSent);
    setSent(null);
    if (r.status === 201) setCurrent(r.body as TCatalogueImport);
    else
      setError(
        (r.body as { error?: { message?: string } } | null)?.error?.message ??
          (r.status === 0 ? 'The back office cannot be reached.' : 'The file could not be checked.'),
      );
  };

  const follow = async (id: number) => {
    const r = await apiFetch<TCatalogueImport>(`/api/admin/imports/${id}`);
    if (r.ok) {
      setCurrent(r.data);
      if (r.data.status === 'applying') poll.current = window.setTimeout(() => follow(id), 500);
    } else poll.current = window.setTimeout(() => follow(id), 1500);
  };

  const apply = async () => {
    if (!current) return;
    const r = await apiFetch<TCatalogueImport>(`/api/admin/imports/${current.id}/apply`, { method: 'POST', body: {} });
    if (!r.ok) return setError(r.error?.message ?? 'The import could not be started');
    setCurrent(r.data);
    follow(r.data.id);
  };

  return (
    <AdminPage title="Import and export" description="Products with their skus and stock, as a spreadsheet (CSV, one row per sku).">
      <div className="flex max-w-4xl flex-col gap-6">
        <Card title="Export">
          <p className="mb-4 text-sm">
            Every product, draft and archived ones included. Change it in a spreadsheet and import it back: only what you changed is written.
          </p>
          <a
            href="/admin/products.csv"
            download
            className="inline-flex h-10 items-center rounded-lg border border-sand-300 bg-paper px-4 text-sm font-semibold hover:bg-sand-100"
          >
            Download products.csv
          </a>
        </Card>

        {canWrite && (
          <Card title="Import">
            <form onSubmit={check} className="flex flex-col gap-4" noValidate>
              <p className="text-sm">
                The file is checked in full first: nothing changes until you apply it, and then everything in it changes at once, or nothing does.
              </p>
              <p className="text-sm text-ink-muted">
                At most {CATALOGUE_IMPORT_MAX_MB} MB and {CATALOGUE_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows per file, empty rows counted: import a larger
                catalogue in several files. A checked file is kept until it is applied, for {CATALOGUE_IMPORT_KEPT_DAYS} days at most.
              </p>
              <label className="flex flex-col gap-1 text-sm font-medium">
                CSV file (UTF-8)
                <input
                  type="file"
                  accept=".csv,text/csv"
                  className="text-sm file:mr-3 file:h-10 file:rounded-lg file:border file:border-sand-300 file:bg-paper file:px-4 file:font-semibold"
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null);
                    setCurrent(null);
                  }}
                />
              </label>
              {sent != null && file && (
                <div className="flex flex-col gap-1 text-sm">
                  <ProgressBar value={sent} max={file.size} label={`Sending ${file.name}`} />
                  <span className="text-ink-muted">{sent < file.size ? `Sending ${file.name}…` : 'Checking every row…'}</span>
                </div>
              )}
              {error && <Notice tone="error">{error}</Notice>}
              <div>
                <button
                  type="submit"
                  disabled={sent != null}
                  className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
                >
                  Check the file
                </button>
              </div>
            </form>
          </Card>
        )}

        {current && <ImportReport current={current} onApply={apply} />}
      </div>
    </AdminPage>
  );
}

function ImportReport({ current, onApply }: { current: TCatalogueImport; onApply(): void }) {
  const summary = current.summary;
  return (
    <Card title={`${current.fileName}: ${current.totalRows.toLocaleString('en-US')} rows`}>
      <div className="flex flex-col gap-4" data-testid="import-report" data-status={current.status}>
        {current.status === 'invalid' && (
          <>
            <Notice tone="error">
              {current.errorCount === 1 ? 'One problem' : `${current.errorCount.toLocaleString('en-US')} problems`}: nothing was written. Fix the file and check
              it again.
            </Notice>
            <div className="max-h-[28rem] overflow-auto rounded-lg border border-sand-200">
              <table className="w-full border-collapse text-sm">
                <caption className="sr-only">Problems in the file, by line and column</caption>
                <thead className="sticky top-0 bg-sand-50">
                  <tr className="border-b border-sand-200 text-left">
                    <th scope="col" className="px-3 py-2 font-semibold">
                      Line
                    </th>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      Column
                    </th>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      Problem
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {current.errors.map((p) => (
                    <tr key={`${p.line}-${p.column}-${p.message}`} className="border-b border-sand-100 last:border-0">
                      <td className="px-3 py-1.5 tabular-nums">{p.line || '—'}</td>
                      <td className="px-3 py-1.5 font-mono text-xs">{p.column || '—'}</td>
                      <td className="px-3 py-1.5">{p.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {current.errorCount > current.errors.length && <p className="text-sm text-ink-muted">The first {current.errors.length} are listed.</p>}
          </>
        )}
        {summary && (
          <ul className="grid gap-2 sm:grid-cols-3" aria-label={current.status === 'applied' ? 'What the import did' : 'What the import will do'}>
            {SUMMARY.map(([k, label]) => (
              <li key={k} className="rounded-lg bg-sand-50 px-3 py-2 text-sm">
                <strong className="block text-lg tabular-nums">{summary[k].toLocaleString('en-US')}</strong>
                {label}
              </li>
            ))}
          </ul>
        )}
        {current.status === 'ready' && (
          <div>
            <button type="button" onClick={onApply} className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800">
              Apply this import
            </button>
          </div>
        )}
        {current.status === 'applying' && (
          <div className="flex flex-col gap-1 text-sm">
            <ProgressBar value={current.doneProducts} max={current.totalProducts || null} label="Writing the import" />
            <span className="text-ink-muted">
              {current.totalProducts
                ? `Writing: ${current.doneProducts.toLocaleString('en-US')} of ${current.totalProducts.toLocaleString('en-US')} products`
                : 'Writing…'}
            </span>
          </div>
        )}
        {current.status === 'applied' && <Notice tone="success">Imported. The shop shows the changes now.</Notice>}
        {current.status === 'failed' && <Notice tone="error">{current.errors[0]?.message ?? 'The import failed; nothing of it was written.'}</Notice>}
      </div>
    </Card>
  );
}
