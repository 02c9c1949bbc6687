import { CATALOGUE_IMPORT_KEPT_DAYS, CATALOGUE_IMPORT_MAX_MB, CATALOGUE_IMPORT_MAX_ROWS, ZApiError, ZCatalogueImport } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { everyInterval } from '../../../plugins/interval-job.ts';
import { CatalogueImportsService } from '../../../modules/admin-catalogue/imports.service.ts';
import { exportCatalogue } from '../../../modules/admin-catalogue/product-csv.ts';
import { ADMIN, ZIdParam } from './tags.ts';

/** A CSV file of up to 10 MB and 20,000 rows (docs/decisions/0051). */
const IMPORT_BYTES = CATALOGUE_IMPORT_MAX_MB * 1024 * 1024;
/** How often imports past their retention are deleted. */
const SWEEP_MS = 60 * 60 * 1000;
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 413: ZApiError };

/** CSV export and import of products with skus and stock (docs/decisions/0031; the column layout is in the README). */
export const adminImportRoutes: FastifyPluginAsyncZod = async (app) => {
  const imports = new CatalogueImportsService(
    app.db,
    () => app.reindexCatalogue(),
    () => app.catalogueChanged(),
    app.log,
  );
  everyInterval(app, SWEEP_MS, () => imports.sweep().catch((err) => app.log.warn({ err }, 'deleting old catalogue imports failed')));

  // The file comes as the body itself, read as bytes: its encoding is checked, not assumed.
  app.addContentTypeParser(['text/csv', 'application/octet-stream', 'text/plain'], { parseAs: 'buffer', bodyLimit: IMPORT_BYTES }, (_req, body, done) =>
    done(null, body),
  );

  app.get(
    '/api/admin/products/export',
    {
      config: { permission: 'catalogue.read' },
      // No response schema: the answer is a CSV file, not JSON (errors keep the one shape).
      schema: { ...ADMIN, summary: 'Every product with its skus and stock, as CSV (the import’s layout)' },
    },
    async (_req, reply) => {
      const csv = await exportCatalogue(app.db.kysely);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="products-${new Date().toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.post(
    '/api/admin/imports',
    {
      config: { permission: 'catalogue.write' },
      bodyLimit: IMPORT_BYTES,
      schema: {
        ...ADMIN,
        summary: 'Check a CSV file of products',
        description:
          `The body is the file (text/csv, UTF-8), at most ${CATALOGUE_IMPORT_MAX_MB} MB and ${CATALOGUE_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows ` +
          'after the header, empty rows counted: a larger file is a 413 (`payload_too_large`, or `file_too_large` naming the limit) and nothing is kept. ' +
          'Every row is checked against the file and the catalogue; nothing is written. ' +
          'The answer is `invalid` with every problem by line and column, or `ready` with what applying it would do. `x-file-name` names the file. ' +
          `An import is deleted ${CATALOGUE_IMPORT_KEPT_DAYS} days after its last change; the file of an invalid one is not kept.`,
        response: { 201: ZCatalogueImport, ...errors },
      },
    },
    async (req, reply) => {
      const body = req.body as unknown;
      const bytes = Buffer.isBuffer(body) ? body : typeof body === 'string' ? Buffer.from(body) : Buffer.alloc(0);
      const name = CatalogueImportsService.checkName(req.headers['x-file-name'] as string | undefined);
      return reply.status(201).send(await imports.create(name, bytes, actorOf(req)));
    },
  );

  app.get(
    '/api/admin/imports/:id',
    {
      config: { permission: 'catalogue.read' },
      schema: { ...ADMIN, summary: 'An import: its report, or how far its writing has got', params: ZIdParam, response: { 200: ZCatalogueImport, ...errors } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return imports.get(req.params.id);
    },
  );

  app.post(
    '/api/admin/imports/:id/apply',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Write a checked import, all or nothing',
        description: 'Answers at once (202, status `applying`); poll the import for its progress and result. Only a `ready` import can be applied, once.',
        params: ZIdParam,
        response: { 202: ZCatalogueImport, ...errors },
      },
    },
    async (req, reply) => reply.status(202).send(await imports.apply(req.params.id, actorOf(req))),
  );
};
