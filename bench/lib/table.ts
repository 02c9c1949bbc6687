import type { LoadResult } from './load.ts';

// Plain aligned text, readable in a terminal and pasteable into an issue or a commit message.

export type Align = 'left' | 'right';

export function formatTable(headers: string[], rows: string[][], align: Align[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const cell = (text: string, i: number) => ((align[i] ?? 'left') === 'right' ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  const line = (cells: string[]) => cells.map(cell).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export interface ResultRow {
  name: string;
  db: string;
  /** Absent when the scenario was not measured; `note` says why. */
  result?: LoadResult;
  note?: string;
  /** Resident memory of the server just before this scenario's load, bytes. */
  rssIdle: number | null;
  /** Highest resident memory seen during this scenario's load, bytes. */
  rssLoad: number | null;
}

const mb = (bytes: number | null) => (bytes === null ? '?' : (bytes / 1024 / 1024).toFixed(1));
const num = (n: number, digits = 0) => n.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => (Number.isInteger(n) || n >= 100 ? num(n) : num(n, n >= 10 ? 1 : 2));

export function formatResults(rows: ResultRow[]): string {
  const headers = ['scenario', 'db', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non2xx', 'RSS idle MB', 'RSS load MB'];
  const align: Align[] = ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'];
  const body = rows.map((r) => {
    const x = r.result;
    if (!x) return [r.name, r.db, '-', '-', '-', '-', '-', mb(r.rssIdle), '-'];
    return [r.name, r.db, num(x.requestsPerSec), ms(x.latencyP50Ms), ms(x.latencyP99Ms), num(x.errors), num(x.non2xx), mb(r.rssIdle), mb(r.rssLoad)];
  });
  let out = formatTable(headers, body, align);
  const notes = rows.filter((r) => r.note).map((r) => `  ${r.name} (${r.db}): ${r.note}`);
  if (notes.length) out += `\n\nnotes:\n${notes.join('\n')}`;
  return out;
}

export function printResults(rows: ResultRow[]): void {
  console.log(formatResults(rows));
}

export { mb as formatMb };
