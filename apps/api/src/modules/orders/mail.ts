import { DELIVERY_METHOD_LABELS, formatMoney, PAYMENT_METHOD_LABELS, type TSale } from '@storefront/shared';

// The order confirmation mail: sent through app.mailer (SMTP, or the outbox
// when no SMTP server is configured) once an order is placed (cash on delivery, booking)
// or paid (card).

export type OrderMailKind = 'placed' | 'booked' | 'paid' | 'held' | 'released';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function orderMail(sale: TSale, kind: OrderMailKind, site: { brand: string; publicUrl: string; hotline?: string; supportEmail?: string }) {
  const money = (n: number) => formatMoney(n);
  // A booking's hold ends (docs/decisions/0022): the shopper is told when, in Dhaka time.
  const until = sale.holdUntil
    ? new Date(sale.holdUntil).toLocaleString('en-GB', {
        timeZone: 'Asia/Dhaka',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      })
    : null;
  const headline = {
    placed: 'Thank you for your order. We will call you to arrange delivery; you pay in cash when it arrives.',
    booked: until
      ? `Your items are booked and held for you until ${until}. Pay at any showroom or by bank transfer, then upload the deposit slip on your order page; a booking with no payment by then is released.`
      : 'Your items are booked and held for you. Pay at any showroom or by bank transfer, then upload the deposit slip on your order page.',
    paid: 'Thank you. Your payment was received and your order is confirmed.',
    held: 'Thank you. Your payment was received; we are checking it and will call you before the order goes out.',
    released:
      'We did not receive a payment for your booking in time, so the items we were holding for you have been released. You are welcome to book them again while they are in stock.',
  }[kind];
  const subject = `${sale.kind === 'booking' ? 'Booking' : 'Order'} ${sale.invoiceId} — ${kind === 'paid' ? 'payment received' : kind === 'held' ? 'payment under review' : kind === 'booked' ? 'booked' : kind === 'released' ? 'released' : 'confirmed'}`;
  const link = `${site.publicUrl}/orders?invoiceId=${encodeURIComponent(sale.invoiceId)}`;
  const lines = sale.lines.map((l) => `  ${l.quantity} × ${l.title}${l.variant ? ` (${l.variant})` : ''} — ${money(l.lineTotal)}`);
  const totals = [
    `  Items: ${money(sale.subTotal)}`,
    ...(sale.discount ? [`  Discounts: −${money(sale.discount)}`] : []),
    ...(sale.couponAmount ? [`  Coupon ${sale.couponCode}: −${money(sale.couponAmount)}`] : []),
    `  Delivery: ${sale.deliveryFee ? money(sale.deliveryFee) : 'free'}`,
    `  Total (BDT): ${money(sale.total)}`,
  ];
  const where = sale.pickupBranch
    ? `Collect from: ${sale.pickupBranch.name}, ${sale.pickupBranch.address}, ${sale.pickupBranch.city}`
    : sale.deliveryAddress
      ? `Deliver to: ${sale.deliveryAddress.fullName}, ${[sale.deliveryAddress.addressLine, sale.deliveryAddress.area, sale.deliveryAddress.district].filter(Boolean).join(', ')} (${sale.deliveryAddress.phone})`
      : '';
  const text = [
    `Dear ${sale.contact.name},`,
    '',
    headline,
    '',
    `${sale.kind === 'booking' ? 'Booking' : 'Order'} ${sale.invoiceId}`,
    ...lines,
    '',
    ...totals,
    '',
    `Payment: ${PAYMENT_METHOD_LABELS[sale.paymentMethod]}`,
    `Delivery: ${DELIVERY_METHOD_LABELS[sale.deliveryMethod]}`,
    where,
    '',
    `See your order: ${link}`,
    site.hotline ? `Questions? Call ${site.hotline}${site.supportEmail ? ` or write to ${site.supportEmail}` : ''}.` : '',
    '',
    site.brand,
  ]
    .filter((l, i, all) => !(l === '' && all[i - 1] === ''))
    .join('\n');
  const html = `<p>Dear ${escapeHtml(sale.contact.name)},</p><p>${escapeHtml(headline)}</p>
<h2 style="font-size:18px">${sale.kind === 'booking' ? 'Booking' : 'Order'} ${escapeHtml(sale.invoiceId)}</h2>
<table cellpadding="4" style="border-collapse:collapse">${sale.lines
    .map(
      (l) =>
        `<tr><td>${l.quantity} ×</td><td>${escapeHtml(l.title)}${l.variant ? ` <small>(${escapeHtml(l.variant)})</small>` : ''}</td><td align="right">${escapeHtml(money(l.lineTotal))}</td></tr>`,
    )
    .join('')}</table>
<p>${totals.map((t) => escapeHtml(t.trim())).join('<br>')}</p>
<p>${escapeHtml(where)}</p>
<p><a href="${escapeHtml(link)}">See your order</a></p>
<p>${escapeHtml(site.brand)}</p>`;
  return { to: sale.contact.email, subject, text, html };
}
