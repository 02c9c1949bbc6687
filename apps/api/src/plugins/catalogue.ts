import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { refreshPlannerStats } from '../db/dialect/planner-stats.ts';
import { ReadCache } from '../lib/read-cache.ts';
import { RenderGate } from '../web/render-gate.ts';
import { discountsInForce, readSideVersion, rebuildSearchIndex, searchIndexIsCurrent, storedSignature } from '../modules/catalogue/search-index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Catalogue and site reads (docs/decisions/0007). */
    readCache: ReadCache;
    /** Rebuilds the catalogue's search side and forgets every cached read. */
    reindexCatalogue(): Promise<number>;
    /** Turns for computing catalogue searches and listings (docs/decisions/0029). */
    searchGate: RenderGate;
    /** Rebuilds when the global discounts in force are not those the index was priced with. */
    checkCatalogueDiscounts(): Promise<boolean>;
    /**
     * After a back-office write committed (its read-side rows are written with it): forgets
     * every cached read and page of this process. Other processes learn of it by polling
     * the read side's version.
     */
    catalogueChanged(): Promise<void>;
  }
}

/** How often the discounts in force are compared with those the listings were priced with. */
const DISCOUNT_CHECK_MS = 60_000;
/**
 * How often each process reads the read side's version (one row by its key): a change made
 * through another process sharing the database is served within this, plus a request
 * (docs/decisions/0031).
 */
export const READ_SIDE_POLL_MS = 400;

/**
 * The catalogue's read side: the in-process read cache, and a search index that covers the
 * catalogue before the server takes requests (a catalogue seeded by the CLI, or by an older
 * version, is indexed at start) and is priced with the discounts in force.
 */
export const cataloguePlugin = fp(async (app: FastifyInstance) => {
  const ttl = app.config.readCacheMs;
  const cache = new ReadCache({ ttlMs: ttl, staleMs: ttl * 10, maxEntries: 5000, maxBytes: 48 * 1024 * 1024 });
  const db = app.db.kysely;
  let seen: string | null = null;

  app.decorate('readCache', cache);
  // A search over a large catalogue is the API's costliest read: past what the process can
  // compute in time, the rest are refused at once (503) rather than queued for seconds.
  app.decorate('searchGate', new RenderGate(app.config.searches));
  app.decorate('reindexCatalogue', async () => {
    const started = Date.now();
    const { products, signature } = await rebuildSearchIndex(db, app.db.dialect);
    seen = signature;
    cache.clear();
    app.log.info({ products, ms: Date.now() - started }, 'catalogue search index built');
    return products;
  });
  app.decorate('checkCatalogueDiscounts', async () => {
    const { signature } = await discountsInForce(db);
    if (signature === seen) return false;
    // Another process sharing the database may have rebuilt already: then only this
    // process's cache is out of date.
    if ((await storedSignature(db)) === signature) {
      seen = signature;
      cache.clear();
      return true;
    }
    await app.reindexCatalogue();
    return true;
  });

  let version = -1;
  app.decorate('catalogueChanged', async () => {
    version = await readSideVersion(db);
    cache.clear();
  });
  const pollVersion = async () => {
    const now = await readSideVersion(db);
    if (now !== version) {
      if (version !== -1) cache.clear();
      version = now;
    }
  };

  let timer: NodeJS.Timeout | undefined;
  let poller: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await pollVersion();
    poller = setInterval(() => {
      pollVersion().catch((err) => app.log.warn({ err }, 'could not read the read side version'));
    }, READ_SIDE_POLL_MS);
    poller.unref();
    const [current, stored, { signature }] = await Promise.all([searchIndexIsCurrent(db), storedSignature(db), discountsInForce(db)]);
    if (!current || stored !== signature) await app.reindexCatalogue();
    else {
      seen = stored;
      // A database written by the seed CLI or an older version may have no statistics yet.
      await refreshPlannerStats(db, app.db.dialect);
    }
    timer = setInterval(() => {
      app.checkCatalogueDiscounts().catch((err) => app.log.warn({ err }, 'could not check the discounts in force'));
    }, DISCOUNT_CHECK_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearInterval(poller);
  });
});
