import type { TConsignment, TSaleShipment } from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SaleRow } from '../orders/repository.ts';
import * as repo from './consignments.repository.ts';
import type { ConsignmentEventRow, ConsignmentRow } from './consignments.repository.ts';
import { toCourierPhone } from './courier.ts';

// Consignments as staff read them (with the label's data) and as the order's own shopper
// reads them (courier, tracking code, each status with its time).

type Q = Kysely<Database> | Transaction<Database>;

interface AddressSnapshot {
  fullName?: string;
  phone?: string;
  division?: string;
  district?: string;
  area?: string;
  addressLine?: string;
}

/** Who the parcel goes to and where, from the order's address snapshot (its contact when the snapshot lacks a part). */
export function recipientOf(sale: Pick<SaleRow, 'delivery_address' | 'contact_name' | 'contact_mobile'>): { name: string; phone: string; address: string } {
  let snap: AddressSnapshot = {};
  try {
    snap = (JSON.parse(sale.delivery_address) as AddressSnapshot) ?? {};
  } catch {
    snap = {};
  }
  const address = [snap.addressLine, snap.area, snap.district, snap.division]
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(', ');
  return { name: snap.fullName?.trim() || sale.contact_name, phone: snap.phone?.trim() || sale.contact_mobile, address };
}

export function consignmentView(row: ConsignmentRow, events: ConsignmentEventRow[], sale: SaleRow): TConsignment {
  const to = recipientOf(sale);
  return {
    id: row.id,
    orderId: row.sale_id,
    courier: row.courier,
    consignmentId: row.consignment_id,
    trackingCode: row.tracking_code,
    status: row.status,
    courierStatus: row.courier_status,
    codAmount: Number(row.cod_amount),
    active: Number(row.active) === 1,
    bookedBy: row.booked_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    history: events.map((e) => ({ status: e.status, courierStatus: e.courier_status, message: e.message, source: e.source, at: e.at })),
    deliveryFee: row.delivery_fee === null ? null : Number(row.delivery_fee),
    destination:
      row.destination_city_id !== null && row.destination_zone_id !== null
        ? {
            cityId: Number(row.destination_city_id),
            zoneId: Number(row.destination_zone_id),
            ...(row.destination_area_id !== null ? { areaId: Number(row.destination_area_id) } : {}),
          }
        : null,
    label: {
      invoice: sale.invoice_id,
      recipientName: to.name,
      // As the courier has it (01XXXXXXXXX): the rider dials what the label shows.
      recipientPhone: toCourierPhone(to.phone) ?? to.phone,
      recipientAddress: to.address,
      codAmount: Number(row.cod_amount),
      consignmentId: row.consignment_id,
      trackingCode: row.tracking_code,
    },
  };
}

export async function consignmentDetail(db: Q, row: ConsignmentRow, sale: SaleRow): Promise<TConsignment> {
  return consignmentView(row, await repo.eventsOf(db, [row.id]), sale);
}

/**
 * The shipment of each of these orders, for their own shopper: only a consignment the
 * courier accepted (one still being requested is not shown).
 */
export async function shipmentsOf(db: Q, saleIds: number[]): Promise<Map<number, TSaleShipment>> {
  const rows = (await repo.latestConsignmentsOf(db, saleIds)).filter((r) => r.consignment_id !== null);
  const events = await repo.eventsOf(
    db,
    rows.map((r) => r.id),
  );
  const out = new Map<number, TSaleShipment>();
  for (const r of rows) {
    out.set(r.sale_id, {
      courier: r.courier,
      trackingCode: r.tracking_code ?? (r.courier === 'pathao' ? r.consignment_id : null),
      consignmentId: r.consignment_id,
      status: r.status,
      // The courier's own words are the shopper's to read; a staff note ("Booked by …") is not.
      statuses: events.filter((e) => e.consignment_id === r.id).map((e) => ({ status: e.status, message: e.source === 'staff' ? null : e.message, at: e.at })),
    });
  }
  return out;
}
