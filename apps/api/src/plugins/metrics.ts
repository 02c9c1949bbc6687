import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAYMENT_METHODS } from '@storefront/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import client from 'prom-client';
import { storageFullOf } from '../lib/storage-full.ts';
import { MAX_ATTEMPTS } from '../modules/mail/mailer.ts';
import { errorBody } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Present when metrics are on (METRICS_PORT or METRICS_TOKEN; docs/decisions/0027). */
    metrics?: { registry: client.Registry; address(): AddressInfo | null };
  }
}

/** Route label of requests no route matched (404s, probes for random paths): one series, not one per URL. */
export const UNMATCHED_ROUTE = '(unmatched)';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Prometheus metrics. Per app instance (its own registry), so that tests can run several
 * apps in one process. Served on a listener of its own (METRICS_PORT, 127.0.0.1 unless
 * METRICS_HOST says otherwise) and/or at /metrics on the shop's port behind a bearer
 * token (METRICS_TOKEN); off, and no cost per request, when neither is set.
 */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const cfg = app.config.metrics;
  if (cfg.port === null && !cfg.token) return;

  const registry = new client.Registry();
  // Event-loop lag (nodejs_eventloop_lag_*), heap (nodejs_heap_size_*), RSS
  // (process_resident_memory_bytes), GC, handles.
  client.collectDefaultMetrics({ register: registry });

  // Labelled by the route's pattern (/api/items/:slug), never the raw URL, so the number
  // of series is bounded by the number of routes whatever clients ask for.
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request arriving to the answer being sent, by route pattern.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Per process: a restart starts it at 0 again, which rate() and increase() allow for.
  // A count(*) of the sales table on every scrape would read the whole table.
  const ordersPlaced = new client.Counter({
    name: 'storefront_orders_placed_total',
    help: 'Orders and bookings placed through this process (POST /api/checkouts answered 201).',
    labelNames: ['payment_method'],
    registers: [registry],
  });
  // Every method shows from the start (at 0), so a query for one finds a series before its first order.
  for (const method of PAYMENT_METHODS) ordersPlaced.inc({ payment_method: method }, 0);

  const db = app.db;
  // Read at scrape time. Only unsent rows are counted, through the (status, id) index: the
  // cost follows the backlog, not the years of sent mail. One read serves both gauges
  // below, which prom-client collects side by side.
  let reading: Promise<{ waiting: number; failed: number } | null> | null = null;
  const readOutbox = () => {
    reading ??= sql<{ waiting: number | string | null; failed: number | string | null }>`
      select sum(case when attempts < ${MAX_ATTEMPTS} then 1 else 0 end) as waiting,
             sum(case when attempts >= ${MAX_ATTEMPTS} then 1 else 0 end) as failed
        from mail_outbox where status in ('pending', 'sending')`
      .execute(db.kysely)
      .then(({ rows }) => ({ waiting: Number(rows[0]?.waiting ?? 0), failed: Number(rows[0]?.failed ?? 0) }))
      .catch((err) => {
        app.log.warn({ err }, 'metrics: the database could not be read');
        return null;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  new client.Gauge({
    name: 'storefront_database_up',
    help: '1 when the database answered this scrape, else 0.',
    registers: [registry],
    async collect() {
      this.set((await readOutbox()) ? 1 : 0);
    },
  });
  new client.Gauge({
    name: 'storefront_mail_outbox_messages',
    help: `Mail not yet sent: waiting (to be tried) or failed (${MAX_ATTEMPTS} attempts, no longer tried).`,
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await readOutbox();
      if (!counts) return;
      this.set({ state: 'waiting' }, counts.waiting);
      this.set({ state: 'failed' }, counts.failed);
    },
  });
  if (db.poolStats) {
    const stats = db.poolStats;
    new client.Gauge({
      name: 'storefront_db_pool_connections',
      help: 'PostgreSQL connections of this process: total open, idle, and requests waiting for one (PG_POOL_SIZE).',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const s = stats();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
  }
  if (db.file) {
    // SQLite has one connection and no pool; what grows and hurts is the file and its
    // write-ahead log (a WAL that keeps growing means checkpoints cannot keep up).
    const file = db.file;
    new client.Gauge({
      name: 'storefront_sqlite_file_bytes',
      help: 'Size of the SQLite database file and of its write-ahead log.',
      labelNames: ['file'],
      registers: [registry],
      collect() {
        for (const [label, name] of [
          ['db', file],
          ['wal', `${file}-wal`],
        ] as const) {
          try {
            this.set({ file: label }, fs.statSync(name).size);
          } catch {
            this.set({ file: label }, 0);
          }
        }
      },
    });
  }

  // Requests refused because the disk is full (docs/decisions/0053): the error handler logs
  // them once a minute, this counts every one, by what could not be written.
  const storageFull = new client.Counter({
    name: 'storefront_storage_full_errors_total',
    help: 'Requests answered 503 because there was no room to write: the database (SQLITE_FULL, PostgreSQL 53100) or uploaded files (ENOSPC, EDQUOT).',
    labelNames: ['store'],
    registers: [registry],
  });
  for (const store of ['database', 'files']) storageFull.inc({ store }, 0);
  app.addHook('onError', async (_req, _reply, error) => {
    const store = storageFullOf(error);
    if (store) storageFull.inc({ store });
  });

  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    duration.observe({ method: req.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    if (reply.statusCode === 201 && req.method === 'POST' && route === '/api/checkouts') {
      // The body passed the checkout schema, so this is one of the few payment methods.
      ordersPlaced.inc({ payment_method: String((req.body as { paymentMethod?: unknown } | undefined)?.paymentMethod ?? 'unknown') });
    }
  });

  if (cfg.token) {
    const token = cfg.token;
    app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
      const auth = req.headers.authorization ?? '';
      const given = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
      if (!given || !sameToken(given, token)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send(errorBody('unauthorized', 'A valid metrics token is required (Authorization: Bearer …)'));
      }
      const text = await registry.metrics();
      return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
    });
  }

  let server: http.Server | null = null;
  if (cfg.port !== null) {
    const port = cfg.port;
    server = http.createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics\n');
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
        (err) => {
          app.log.warn({ err }, 'metrics: collecting failed');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('collecting metrics failed\n');
        },
      );
    });
    const listening = server;
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, cfg.host, () => {
          listening.off('error', reject);
          resolve();
        });
      });
    });
    app.addHook('onClose', async () => {
      if (listening.listening) await new Promise<void>((resolve) => listening.close(() => resolve()));
    });
  }

  app.decorate('metrics', {
    registry,
    address: () => (server?.listening ? (server.address() as AddressInfo) : null),
  });
});
