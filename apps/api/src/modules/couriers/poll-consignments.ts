import * as repo from './consignments.repository.ts';
import type { Courier, CourierName } from './courier.ts';
import { type CourierReport, pathaoReport, recordCourierReport } from './courier-status.ts';
import type { CourierDeps } from './deps.ts';

/** How long one poller holds a consignment: longer than a status call may take (20 s by default). */
const CLAIM_MS = 2 * 60_000;

/**
 * Asks the courier where each live parcel is that it has not reported on for a while
 * (COURIER_POLL_STALE_MINUTES): a webhook can be lost, or never configured. Bounded to
 * `limit` parcels a run for each courier. Every process runs it; each consignment is claimed
 * with a conditional update first, so two processes never ask about the same one at once,
 * and what the answer changes is recorded once (courier-status.ts).
 */
export async function pollConsignments(deps: CourierDeps, now = new Date(), limit = 25): Promise<{ asked: number; changed: number }> {
  let asked = 0;
  let changed = 0;
  const configured: [CourierName, Courier | null][] = [
    ['steadfast', deps.couriers.steadfast],
    ['pathao', deps.couriers.pathao],
  ];
  for (const [name, client] of configured) {
    if (!client) continue;
    const r = await pollCourier(deps, name, client, now, limit);
    asked += r.asked;
    changed += r.changed;
  }
  return { asked, changed };
}

async function pollCourier(deps: CourierDeps, courier: CourierName, client: Courier, now: Date, limit: number) {
  const db = deps.db.kysely;
  const nowIso = now.toISOString();
  const before = new Date(now.getTime() - deps.config.couriers.pollStaleMs).toISOString();
  let asked = 0;
  let changed = 0;
  for (const c of await repo.staleConsignments(db, courier, before, nowIso, limit)) {
    if (!(await repo.claimForPoll(db, c.id, nowIso, new Date(now.getTime() + CLAIM_MS).toISOString()))) continue;
    try {
      asked++;
      const r = await client.status(c.consignment_id!);
      if (!r.found) continue;
      const base = { consignmentId: c.consignment_id!, message: null, updatedAt: null, source: 'poll' as const };
      // Pathao's statuses are read in one vocabulary whether they come by webhook or by poll.
      const report: CourierReport =
        courier === 'pathao'
          ? pathaoReport({ ...base, courierStatus: r.courierStatus })
          : { ...base, courier, status: r.status, courierStatus: r.courierStatus };
      const outcome = await recordCourierReport(deps, report);
      if (outcome === 'recorded') changed++;
    } catch (err) {
      deps.log.warn({ err, courier, consignment: c.consignment_id }, 'could not ask the courier about a parcel');
    } finally {
      await repo.releasePoll(db, c.id, nowIso);
    }
  }
  return { asked, changed };
}
