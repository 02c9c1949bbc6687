import { CATALOGUE_IMPORT_KEPT_DAYS, type TCatalogueImport, type TImportProblem, type TImportSummary } from '@storefront/shared';
import type { Db } from '../../db/database.ts';
import { CsvTooLargeError, decodeUtf8 } from '../../lib/csv.ts';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { bumpReadSideVersion, syncProducts } from '../catalogue/search-index.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import { deleteImportsBefore, dropImportFile, readImportFile, saveImportFile } from './imports.repository.ts';
import { applyPlan, planImport, summarize } from './product-csv.ts';

type Row = {
  id: number;
  status: string;
  file_name: string;
  total_rows: number;
  errors: string;
  error_count: number;
  summary: string | null;
  created_at: string;
};

const iso = () => new Date().toISOString();
/** The report of an import whose file was not all kept (the writing stopped half-way). */
const NOT_KEPT: TImportProblem = { line: 0, column: '', message: 'The file could not be kept: check it again.' };

/** Past this many products, the read side is rebuilt whole after an import. */
const SYNC_LIMIT = 500;

/**
 * CSV imports of products (docs/decisions/0031): a file is checked in full when it is
 * uploaded (a report of every problem by line and column, or what it will do), and written
 * only when someone applies it: checked again against the catalogue as it is then, and
 * written in one transaction, all or nothing; the read side is rebuilt after. While it is
 * written, the process writing it knows how far it has got; others see "applying".
 */
export class CatalogueImportsService {
  private readonly progress = new Map<number, { done: number; total: number }>();

  constructor(
    private readonly db: Db,
    /** Rebuilds the read side and empties this process's caches. */
    private readonly rebuild: () => Promise<unknown>,
    /** Empties this process's caches (the read side was written with the import). */
    private readonly changedHere: () => Promise<void>,
    private readonly log: { error(obj: unknown, msg: string): void },
  ) {}

  private get k() {
    return this.db.kysely;
  }

  async create(fileName: string, bytes: Uint8Array, actor: Actor): Promise<TCatalogueImport> {
    const text = await decodeUtf8(bytes);
    let problems: TImportProblem[];
    let problemCount: number;
    let rows = 0;
    let summary: TImportSummary | null = null;
    if (text == null) {
      problems = [{ line: 1, column: '', message: 'The file is not UTF-8 text: in your spreadsheet, save it as “CSV UTF-8”.' }];
      problemCount = 1;
    } else {
      const plan = await planImport(this.k, text).catch((err) => {
        if (!(err instanceof CsvTooLargeError)) throw err;
        // Refused before the rest is read, and nothing of it kept (docs/decisions/0051).
        const message = `${err.message}: split it into several files.`;
        throw new ApiError('file_too_large', message, { file: message }, 413);
      });
      problems = plan.problems;
      problemCount = plan.problemCount;
      rows = plan.rows;
      if (!problemCount) summary = await summarize(this.k, plan);
    }
    const now = iso();
    const kept = !problemCount;
    const row = await this.k
      .insertInto('catalogue_imports')
      .values({
        staff_id: actor.staffId,
        // A file to keep is written after its row, in parts each committed alone (a single
        // commit of 10 MB held SQLite for a tenth of a second): the import is ready once all
        // of it is, and stays failed if the writing stops half-way (docs/decisions/0051).
        status: kept ? 'failed' : 'invalid',
        file_name: fileName.slice(0, 200),
        total_rows: rows,
        errors: JSON.stringify(kept ? [NOT_KEPT] : problems),
        error_count: kept ? 1 : problemCount,
        summary: summary ? JSON.stringify(summary) : null,
        created_at: now,
        updated_at: now,
      })
      .returning(['id', 'status', 'file_name', 'total_rows', 'errors', 'error_count', 'summary', 'created_at'])
      .executeTakeFirstOrThrow();
    // Only a file that can be applied is kept, and only until it is.
    if (kept) {
      await saveImportFile(this.k, row.id, bytes);
      await this.k.updateTable('catalogue_imports').set({ status: 'ready', errors: '[]', error_count: 0 }).where('id', '=', row.id).execute();
      Object.assign(row, { status: 'ready', errors: '[]', error_count: 0 });
    }
    return this.view(row);
  }

  async get(id: number): Promise<TCatalogueImport> {
    const row = await this.k
      .selectFrom('catalogue_imports')
      .select(['id', 'status', 'file_name', 'total_rows', 'errors', 'error_count', 'summary', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('The import');
    return this.view(row);
  }

  /** Starts writing a checked import; answers at once, the writing goes on (poll get()). */
  async apply(id: number, actor: Actor): Promise<TCatalogueImport> {
    // One writer: the status moves from ready to applying once, whoever asks at the same time.
    const claimed = await this.k
      .updateTable('catalogue_imports')
      .set({ status: 'applying', updated_at: iso() })
      .where('id', '=', id)
      .where('status', '=', 'ready')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      const now = await this.get(id);
      throw conflict(
        'import_not_ready',
        now.status === 'invalid' ? 'This file has problems: fix them and upload it again' : `This import is ${now.status} already`,
      );
    }
    this.progress.set(id, { done: 0, total: 0 });
    void this.write(id, actor).finally(() => this.progress.delete(id));
    return this.get(id);
  }

  private async write(id: number, actor: Actor) {
    try {
      const text = (await decodeUtf8(await readImportFile(this.k, id))) ?? '';
      const result = await this.k.transaction().execute(async (trx) => {
        // Checked again against the catalogue as it is now: it may have changed since.
        const plan = await planImport(trx, text);
        if (plan.problemCount) return { plan, summary: null };
        this.progress.set(id, { done: 0, total: plan.products.length });
        const summary = await applyPlan(trx, plan, {
          staffId: actor.staffId,
          onProduct: (done) => this.progress.set(id, { done, total: plan.products.length }),
        });
        const { productIds, ...counts } = summary;
        await recordAudit(trx, actor, { action: 'import', entity: 'import', entityId: id, before: null, after: { ...counts, products: productIds.length } });
        // A few hundred products: their read-side rows are written with them; more: the
        // read side is rebuilt whole once they are committed.
        const synced = productIds.length <= SYNC_LIMIT;
        if (synced) await syncProducts(trx, this.db.dialect, productIds);
        await bumpReadSideVersion(trx);
        return { plan, summary: counts, synced };
      });
      if (!result.summary) {
        await this.finish(id, 'invalid', { errors: JSON.stringify(result.plan.problems), error_count: result.plan.problemCount });
        return;
      }
      // "Applied" once the shop shows it.
      if (result.synced) await this.changedHere();
      else await this.rebuild();
      await this.finish(id, 'applied', { summary: JSON.stringify(result.summary) });
    } catch (err) {
      this.log.error({ err, importId: id }, 'a catalogue import failed; nothing was written');
      await this.finish(id, 'failed', {
        errors: JSON.stringify([
          {
            line: 0,
            column: '',
            message: 'The import could not be written, and nothing of it was. Try again; if it fails again, tell whoever runs the shop’s server.',
          },
        ]),
        error_count: 1,
      }).catch(() => {});
    }
  }

  private async finish(id: number, status: string, set: { summary?: string; errors?: string; error_count?: number }) {
    await this.k
      .updateTable('catalogue_imports')
      .set({ status, ...set, updated_at: iso() })
      .where('id', '=', id)
      .execute();
    // Written or not, the file is of no more use: only its report is kept.
    await dropImportFile(this.k, id);
  }

  /**
   * Deletes the imports (their reports and any file left) last changed more than
   * CATALOGUE_IMPORT_KEPT_DAYS before `now` (docs/decisions/0051): a file checked and never
   * applied is not kept for ever, and no screen lists past imports (the audit log keeps what
   * each applied one did). Answers how many went.
   */
  async sweep(now = new Date()): Promise<number> {
    return deleteImportsBefore(this.k, new Date(now.getTime() - CATALOGUE_IMPORT_KEPT_DAYS * 86_400_000).toISOString());
  }

  private view(row: Row): TCatalogueImport {
    const p = this.progress.get(row.id);
    return {
      id: row.id,
      status: row.status as TCatalogueImport['status'],
      fileName: row.file_name,
      totalRows: row.total_rows,
      doneProducts: p?.done ?? 0,
      totalProducts: p?.total ?? 0,
      errors: JSON.parse(row.errors) as TImportProblem[],
      errorCount: row.error_count,
      summary: row.summary ? (JSON.parse(row.summary) as TImportSummary) : null,
      createdAt: row.created_at,
    };
  }

  /** Refuses what is not a file to read. */
  static checkName(name: string | undefined): string {
    const n = (name ?? 'products.csv').replace(/[^\p{L}\p{N} ._-]/gu, '').slice(0, 120) || 'products.csv';
    if (!/\.(csv|txt)$/i.test(n)) throw new ApiError('validation_error', 'Choose a .csv file', { file: 'Choose a .csv file' });
    return n;
  }
}
