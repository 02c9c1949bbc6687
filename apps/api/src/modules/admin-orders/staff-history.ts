import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Actor } from '../staff/audit.ts';

/** A staff member acting on an order: the audit's actor and the name the history shows. */
export interface StaffActor extends Actor {
  name: string;
}

/** One line of an order's history written by staff: who, and what they said. */
export function staffHistory(trx: Transaction<Database>, saleId: number, status: string, paymentStatus: string, staff: StaffActor, note: string, now: string) {
  return trx
    .insertInto('sale_status_history')
    .values({
      sale_id: saleId,
      status,
      payment_status: paymentStatus,
      actor: 'staff',
      staff_id: staff.staffId,
      staff_name: staff.name,
      note: note.slice(0, 1000),
      created_at: now,
    })
    .execute();
}

/** A day typed as YYYY-MM-DD in Dhaka (UTC+6, no daylight saving) as the instant it starts. */
export function dhakaDayStart(day: string): string {
  return new Date(`${day}T00:00:00+06:00`).toISOString();
}
