import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD } from '@storefront/shared';
import fp from 'fastify-plugin';
import { ApiError } from '../lib/errors.ts';
import { addressPolicy } from '../modules/files/address-policy.ts';
import { cleanupExpired, type FilesDeps, sweepGuestFiles } from '../modules/files/files.service.ts';
import { LocalDiskStorage } from '../modules/files/local-disk.storage.ts';
import type { Resolver } from '../modules/files/safe-fetch.ts';
import type { FileStorage } from '../modules/files/storage.ts';
import type { Uploader } from '../modules/files/upload-quota.ts';
import { DEFAULT_PART_THROTTLE, DEFAULT_START_THROTTLE, type ThrottleOptions, UploadThrottle } from '../modules/files/upload-throttle.ts';
import { UrlImporter } from '../modules/files/url-import.service.ts';
import { ImageVariants } from '../modules/images/image-variants.ts';
import { ImageWork } from '../modules/images/image-work.ts';

export interface FilesPluginOptions {
  /** Where bytes go; the local disk under `<dataDir>/files` when absent. */
  storage?: FileStorage;
  throttle?: { start?: ThrottleOptions; parts?: ThrottleOptions };
  /**
   * TESTS ONLY: exact `address:port` pairs ("127.0.0.1:4567", "[::1]:4567") a URL import may
   * reach although the address policy refuses them, for the tests' own loopback servers.
   * Only code that builds the app can pass it (the test helper does); main.ts never does
   * and no setting or environment variable maps to it (decision 0013).
   */
  testOnlyAllowAddresses?: string[];
  /** TESTS ONLY: a DNS resolver standing in for the system's (a name that resolves to loopback). */
  testOnlyResolve?: Resolver;
  /** How often unfinished multipart uploads, expired quota holds and unclaimed guest files are swept; default hourly. */
  cleanupIntervalMs?: number;
  /** An import's event stream closes after this long without news (spec §9: 30 s). */
  eventsIdleMs?: number;
}

export interface FilesRuntime {
  deps: FilesDeps;
  importer: UrlImporter;
  eventsIdleMs: number;
  /** Throttles starting an upload or sending a part: a 429 with Retry-After when over. */
  throttle(kind: 'start' | 'part', request: FastifyRequest, reply: FastifyReply): void;
  /** Whose quota an upload counts against: the customer, or the guest's client address (docs/decisions/0024). */
  uploader(request: FastifyRequest): Uploader;
  /** Deletes unclaimed guest files past their retention now (the hourly sweep; tests call it directly). */
  sweepGuestFiles(now?: Date): Promise<{ files: number; bytes: number }>;
  /** Resized AVIF/WebP/JPEG copies of stored images and demo drawings, cached under `<dataDir>/image-cache`. */
  images: ImageVariants;
}

declare module 'fastify' {
  interface FastifyInstance {
    files: FilesRuntime;
  }
}

/** Uploaded files: storage, URL imports, throttles, quotas and the sweeps of abandoned uploads and unclaimed guest files. */
export const filesPlugin = fp(async (app: FastifyInstance, opts: FilesPluginOptions) => {
  const storage = opts.storage ?? new LocalDiskStorage(path.join(app.config.dataDir, 'files'));
  const limits = app.config.uploads;
  // One gate for every picture this process decodes: uploads and resized copies (docs/decisions/0050).
  const imageWork = new ImageWork(app.config.images);
  const images = new ImageVariants({ db: app.db.kysely, storage, cacheDir: path.join(app.config.dataDir, 'image-cache'), work: imageWork });
  const deps: FilesDeps = {
    db: app.db.kysely,
    dialect: app.db.dialect,
    storage,
    imageHost: app.config.imageHost,
    quota: {
      customerBytes: limits.customerQuotaBytes,
      guestBytes: limits.guestQuotaBytes,
      guestTotalBytes: limits.guestTotalBytes,
      minFreeDiskBytes: limits.minFreeDiskBytes,
      customerMegapixelsPerHour: limits.customerMegapixelsPerHour,
      guestMegapixelsPerHour: limits.guestMegapixelsPerHour,
    },
    imageWork,
    guestFileRetentionMs: limits.guestFileRetentionMs,
    onFileDeleted: (uuid) => images.forget(uuid),
  };
  const importer = new UrlImporter({
    ...deps,
    policy: addressPolicy(opts.testOnlyAllowAddresses),
    resolve: opts.testOnlyResolve,
    log: app.log,
  });
  const throttles = {
    start: new UploadThrottle(opts.throttle?.start ?? DEFAULT_START_THROTTLE),
    part: new UploadThrottle(opts.throttle?.parts ?? DEFAULT_PART_THROTTLE),
  };

  app.decorate('files', {
    deps,
    importer,
    images,
    eventsIdleMs: opts.eventsIdleMs ?? UPLOAD.socketIdleMs,
    throttle(kind, request, reply) {
      const key = request.customerId != null ? `c:${request.customerId}` : `address:${request.clientAddress}`;
      const wait = throttles[kind].take(key);
      if (wait === null) return;
      reply.header('retry-after', String(wait));
      throw new ApiError('rate_limited', 'Too many uploads at once. Please wait a moment and try again.', undefined, 429);
    },
    uploader(request) {
      return { customerId: request.customerId, address: request.clientAddress };
    },
    sweepGuestFiles(now) {
      return sweepGuestFiles(deps, now, app.log);
    },
  } satisfies FilesRuntime);

  const sweep = async () => {
    await cleanupExpired(deps).catch((err) => app.log.warn({ err }, 'cleaning up expired uploads failed'));
    await sweepGuestFiles(deps, new Date(), app.log)
      .then((r) => r.files && app.log.info(r, 'swept unclaimed guest files'))
      .catch((err) => app.log.warn({ err }, 'sweeping unclaimed guest files failed'));
  };
  const timer = setInterval(sweep, opts.cleanupIntervalMs ?? 60 * 60 * 1000);
  timer.unref();
  let first: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    // A first sweep shortly after start, off the start-up path.
    first = setTimeout(sweep, 60_000);
    first.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearTimeout(first);
    await importer.close();
  });
});
