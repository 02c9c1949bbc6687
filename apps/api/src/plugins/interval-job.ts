import type { FastifyInstance } from 'fastify';

/**
 * Runs `job` every `everyMs` once the app is ready, never two at once in this process (a slow
 * run makes the next tick skip), and stops when the app closes. The timer does not keep the
 * process alive. Jobs that several processes run must claim their rows themselves.
 */
export function everyInterval(app: FastifyInstance, everyMs: number, job: () => Promise<unknown>): void {
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (running) return;
      running = true;
      job().finally(() => {
        running = false;
      });
    }, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
