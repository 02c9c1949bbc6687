import type { FastifyInstance } from 'fastify';
import { scheduleEdgesBetween } from './content.service.ts';

/** How often each process looks for a slide or pop-up whose schedule began or ended. */
export const SCHEDULE_CHECK_MS = 15_000;

/**
 * The storefront's reads are cached (docs/decisions/0007) and filter content by its
 * schedule when they are made: when a scheduled start or end passes, this process forgets
 * its cached reads and pages, so the slide or pop-up shows or goes within SCHEDULE_CHECK_MS
 * without anyone saving anything (docs/decisions/0035). Each process watches for itself.
 */
export function watchContentSchedules(app: FastifyInstance) {
  let since = new Date().toISOString();
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    const until = new Date().toISOString();
    const edges = await scheduleEdgesBetween(app.db.kysely, since, until);
    since = until;
    if (edges > 0) app.readCache.clear();
  };
  app.addHook('onReady', async () => {
    since = new Date().toISOString();
    timer = setInterval(() => {
      check().catch((err) => app.log.warn({ err }, 'could not check the content schedules'));
    }, SCHEDULE_CHECK_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
