import type { OrderDeps } from './deps.ts';
import type { PaymentRow, SaleLineRow, SaleRow } from './repository.ts';
import { failUnstartedPayment } from './settle-unpaid.ts';

/**
 * Opens the gateway session for a payment row. When the gateway refuses or cannot be
 * reached, the payment fails at once (stock released, the order can be paid again).
 */
export async function openPaymentSession(
  deps: OrderDeps,
  sale: SaleRow,
  payment: PaymentRow,
  lines: SaleLineRow[],
): Promise<{ sale: SaleRow; url: string | null }> {
  const base = deps.config.publicUrl;
  const q = `?invoiceId=${encodeURIComponent(sale.invoice_id)}`;
  const address = safeJson(sale.delivery_address);
  const branch = address.branch as { address?: string; city?: string } | undefined;
  const street = String(address.addressLine ?? branch?.address ?? 'Showroom pickup');
  const city = String(address.district ?? branch?.city ?? 'Dhaka');
  try {
    const session = await deps.payments.initiate({
      tranId: payment.tran_id,
      invoiceId: sale.invoice_id,
      amount: Number(payment.amount),
      currency: 'BDT',
      successUrl: `${base}/payments/return/success${q}`,
      failUrl: `${base}/payments/return/fail${q}`,
      cancelUrl: `${base}/payments/return/cancel${q}`,
      ipnUrl: `${base}/payments/ipn`,
      customer: {
        name: sale.contact_name,
        email: sale.contact_email,
        phone: sale.contact_mobile,
        address: street,
        city,
        postcode: '1000',
        country: 'Bangladesh',
      },
      shipping: {
        method: sale.delivery_method === 'home_delivery' ? 'YES' : 'NO',
        name: String(address.fullName ?? sale.contact_name),
        address: street,
        city,
        postcode: '1000',
        country: 'Bangladesh',
      },
      productName: lines.map((l) => l.title).join(', ') || sale.invoice_id,
      productCategory: 'Furniture',
      numOfItems: lines.reduce((n, l) => n + l.quantity, 0),
    });
    const now = new Date().toISOString();
    await deps.db.kysely
      .updateTable('payments')
      .set({ gateway_url: session.gatewayUrl, session_key: session.sessionKey, updated_at: now })
      .where('id', '=', payment.id)
      .execute();
    return { sale, url: session.gatewayUrl };
  } catch (err) {
    deps.log.warn({ err, invoiceId: sale.invoice_id }, 'the payment gateway refused or could not be reached; the payment fails');
    return failUnstartedPayment(deps, sale, payment.tran_id, 'The payment provider could not start the payment');
  }
}

function safeJson(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}
