import {
  BDT,
  DELIVERY_METHOD_LABELS,
  formatDate,
  formatMoney,
  formatNumber,
  type Locale,
  localDigits,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  SALE_STATUS_LABELS,
  type TSale,
} from '@storefront/shared';
import { serverT } from '@storefront/shared/i18n/server';

// The shop's mails about orders (docs/decisions/0032), all from one branded template: the
// shop's name (and logo when one is set), its colour, an HTML part and a text part saying the
// same. Sent through app.mailer (SMTP, or the outbox when no SMTP server is configured).
// A shopper's mail is written in the language the order was placed in (docs/decisions/0038):
// every text through serverT, money, counts and dates in that language's digits; the
// shop's own mails stay English.

/** When each mail is sent: placing and paying (checkout), and every step staff take. */
export type OrderMailKind =
  | 'placed'
  | 'booked'
  | 'paid'
  | 'held'
  | 'released'
  | 'confirm'
  | 'pack'
  | 'ship'
  | 'deliver'
  | 'return'
  | 'cancel'
  | 'convert'
  | 'cash_collected'
  | 'proof_accepted'
  | 'proof_rejected'
  | 'refunded';

export interface Brand {
  name: string;
  publicUrl: string;
  /** An absolute image address (brand.logo), or null for the name set in type. */
  logoUrl: string | null;
  /** The brand colour (brand.colour), a #rrggbb. */
  colour: string;
  hotline?: string;
  supportEmail?: string;
  address?: string;
}

export interface MailContent {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A block of the mail: a paragraph, a table of the order, or a button. */
type Block = { p: string } | { order: TSale } | { button: { label: string; url: string } } | { facts: [string, string][] };

/**
 * The one template: every mail the shop sends about an order is a heading and some blocks.
 * `locale` is the reader's language: the order table's and the footer's own words, its
 * numbers and `<html lang>` (the heading and blocks come already written in it).
 */
export function brandedMail(brand: Brand, heading: string, blocks: Block[], locale: Locale = 'en'): { text: string; html: string } {
  const t = serverT(locale);
  const colour = /^#[0-9a-f]{6}$/i.test(brand.colour) ? brand.colour : '#1f4d3a';
  const textParts: string[] = [heading, ''];
  const htmlParts: string[] = [`<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#1d2327">${escapeHtml(heading)}</h1>`];
  for (const b of blocks) {
    if ('p' in b) {
      textParts.push(b.p, '');
      htmlParts.push(`<p style="margin:0 0 14px;font-size:15px;line-height:1.6;color:#1d2327">${escapeHtml(b.p)}</p>`);
    } else if ('button' in b) {
      textParts.push(`${b.button.label}: ${b.button.url}`, '');
      htmlParts.push(
        `<p style="margin:20px 0"><a href="${escapeHtml(b.button.url)}" style="display:inline-block;background:${colour};color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:8px">${escapeHtml(b.button.label)}</a></p>`,
      );
    } else if ('facts' in b) {
      textParts.push(...b.facts.map(([k, v]) => `${k}: ${v}`), '');
      htmlParts.push(
        `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 14px;font-size:14px">${b.facts
          .map(
            ([k, v]) =>
              `<tr><td style="padding:2px 16px 2px 0;color:#5b6470">${escapeHtml(k)}</td><td style="padding:2px 0;color:#1d2327">${escapeHtml(v)}</td></tr>`,
          )
          .join('')}</table>`,
      );
    } else {
      const { text, html } = orderTable(b.order, locale);
      textParts.push(text, '');
      htmlParts.push(html);
    }
  }
  const contact = [brand.hotline ? t('Hotline {hotline}', { hotline: localDigits(brand.hotline, locale) }) : '', brand.supportEmail ?? '']
    .filter(Boolean)
    .join(' · ');
  textParts.push(brand.name, ...(contact ? [contact] : []), ...(brand.address ? [brand.address] : []));
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" height="36" style="display:block;height:36px;border:0">`
    : `<span style="font-size:20px;font-weight:700;color:#ffffff;letter-spacing:-0.01em">${escapeHtml(brand.name)}</span>`;
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(heading)}</title></head>
<body style="margin:0;padding:0;background:#f4f1ec;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f1ec"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:${colour};padding:18px 28px"><a href="${escapeHtml(brand.publicUrl)}" style="text-decoration:none">${logo}</a></td></tr>
<tr><td style="padding:28px">${htmlParts.join('\n')}</td></tr>
<tr><td style="padding:18px 28px;border-top:1px solid #e7e1d8;font-size:12px;line-height:1.6;color:#5b6470">${escapeHtml(brand.name)}${contact ? `<br>${escapeHtml(contact)}` : ''}${brand.address ? `<br>${escapeHtml(brand.address)}` : ''}</td></tr>
</table></td></tr></table></body></html>`;
  return {
    text: textParts
      .filter((l, i, all) => !(l === '' && all[i - 1] === ''))
      .join('\n')
      .trim(),
    html,
  };
}

function orderTable(sale: TSale, locale: Locale): { text: string; html: string } {
  const t = serverT(locale);
  const money = (n: number) => formatMoney(n, BDT, locale);
  const totals: [string, string][] = [
    [t('Items'), money(sale.subTotal)],
    ...(sale.discount ? ([[t('Discounts'), `−${money(sale.discount)}`]] as [string, string][]) : []),
    ...(sale.couponAmount ? ([[t('Coupon {code}', { code: sale.couponCode }), `−${money(sale.couponAmount)}`]] as [string, string][]) : []),
    [t('Delivery'), sale.deliveryFee ? money(sale.deliveryFee) : t('free')],
    [t('Total (BDT)'), money(sale.total)],
  ];
  const where = sale.pickupBranch
    ? t('Collect from: {name}, {address}, {city}', { name: sale.pickupBranch.name, address: sale.pickupBranch.address, city: sale.pickupBranch.city })
    : sale.deliveryAddress
      ? t('Deliver to: {name}, {address} ({phone})', {
          name: sale.deliveryAddress.fullName,
          address: [sale.deliveryAddress.addressLine, sale.deliveryAddress.area, sale.deliveryAddress.district].filter(Boolean).join(', '),
          phone: localDigits(sale.deliveryAddress.phone, locale),
        })
      : '';
  const title = sale.kind === 'booking' ? t('Booking {invoice}', { invoice: sale.invoiceId }) : t('Order {invoice}', { invoice: sale.invoiceId });
  const paymentMethod = t(PAYMENT_METHOD_LABELS[sale.paymentMethod]);
  const deliveryMethod = t(DELIVERY_METHOD_LABELS[sale.deliveryMethod]);
  const quantity = (n: number) => formatNumber(n, locale);
  const text = [
    title,
    ...sale.lines.map((l) => `  ${quantity(l.quantity)} × ${l.title}${l.variant ? ` (${l.variant})` : ''} — ${money(l.lineTotal)}`),
    '',
    ...totals.map(([k, v]) => `  ${k}: ${v}`),
    '',
    t('Payment: {method} ({status})', { method: paymentMethod, status: t(PAYMENT_STATUS_LABELS[sale.paymentStatus]) }),
    t('Delivery: {method}', { method: deliveryMethod }),
    where,
  ].join('\n');
  const cell = 'padding:8px 0;border-bottom:1px solid #e7e1d8;font-size:14px;color:#1d2327;vertical-align:top';
  const html = `<h2 style="margin:18px 0 8px;font-size:16px;color:#1d2327">${escapeHtml(title)}</h2>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${sale.lines
    .map(
      (l) =>
        `<tr><td style="${cell};width:36px">${quantity(l.quantity)} ×</td><td style="${cell}">${escapeHtml(l.title)}${l.variant ? `<br><span style="color:#5b6470;font-size:13px">${escapeHtml(l.variant)}</span>` : ''}</td><td align="right" style="${cell};white-space:nowrap">${escapeHtml(money(l.lineTotal))}</td></tr>`,
    )
    .join('')}
${totals.map(([k, v], i) => `<tr><td></td><td style="padding:4px 0;font-size:14px;color:#5b6470${i === totals.length - 1 ? ';font-weight:700;color:#1d2327' : ''}">${escapeHtml(k)}</td><td align="right" style="padding:4px 0;font-size:14px${i === totals.length - 1 ? ';font-weight:700' : ''}">${escapeHtml(v)}</td></tr>`).join('')}
</table>
<p style="margin:12px 0 0;font-size:14px;color:#5b6470">${escapeHtml(paymentMethod)} · ${escapeHtml(deliveryMethod)}${where ? `<br>${escapeHtml(where)}` : ''}</p>`;
  return { text, html };
}

/**
 * The shopper's mail for one event of their order, in `locale` (the order's language). `note`
 * is the staff's reason where the event has one; `amount` the poisha a refund gave back.
 */
export function orderMail(
  sale: TSale,
  kind: OrderMailKind,
  brand: Brand,
  opts: { link: string; note?: string; amount?: number; locale?: Locale },
): MailContent {
  const locale = opts.locale ?? 'en';
  const t = serverT(locale);
  const booking = sale.kind === 'booking';
  const until = sale.holdUntil ? formatDate(sale.holdUntil, locale, 'dateTime') : null;
  const note = opts.note?.trim() ?? '';
  const refunded = opts.amount != null ? formatMoney(opts.amount, BDT, locale) : note;
  // A subject is the invoice and a short state after a dash, the same shape in both languages.
  const content: Record<OrderMailKind, { subject: string; heading: string; says: string[]; table?: boolean }> = {
    placed: {
      subject: t('confirmed'),
      heading: t('Thank you for your order'),
      says: [t('Thank you for your order. We will call you to arrange delivery; you pay in cash when it arrives.')],
      table: true,
    },
    booked: {
      subject: t('booked'),
      heading: t('Your items are booked'),
      says: [
        until
          ? t(
              'Your items are booked and held for you until {until}. Pay at any showroom or by bank transfer, then upload the deposit slip on your order page; a booking with no payment by then is released.',
              { until },
            )
          : t('Your items are booked and held for you. Pay at any showroom or by bank transfer, then upload the deposit slip on your order page.'),
      ],
      table: true,
    },
    paid: {
      subject: t('payment received'),
      heading: t('Payment received'),
      says: [t('Thank you. Your payment was received and your order is confirmed.')],
      table: true,
    },
    held: {
      subject: t('payment under review'),
      heading: t('Payment received, being checked'),
      says: [t('Thank you. Your payment was received; we are checking it and will call you before the order goes out.')],
      table: true,
    },
    released: {
      subject: t('released'),
      heading: t('Your booking was released'),
      says: [
        t(
          'We did not receive a payment for your booking in time, so the items we were holding for you have been released. You are welcome to book them again while they are in stock.',
        ),
      ],
    },
    confirm: {
      subject: t('confirmed by the shop'),
      heading: t('We have confirmed your order'),
      says: [t('We have confirmed your order and are preparing it.')],
      table: true,
    },
    pack: {
      subject: sale.pickupBranch ? t('ready to collect') : t('packed'),
      heading: sale.pickupBranch ? t('Your order is ready to collect') : t('Your order is packed'),
      says: [
        sale.pickupBranch
          ? t('Your order is packed and waiting for you at {branch}, {address}. Please bring this mail or your invoice number.', {
              branch: sale.pickupBranch.name,
              address: sale.pickupBranch.address,
            })
          : t('Your order is packed and will be on its way soon.'),
      ],
    },
    ship: {
      subject: t('on its way'),
      heading: t('Your order is on its way'),
      says: [t('Your order has left our warehouse. Our delivery team will call you before they arrive.')],
    },
    deliver: {
      subject: t('delivered'),
      heading: t('Your order was delivered'),
      says: [t('Your order was delivered. We hope you enjoy it; if anything is not right, please tell us.')],
    },
    return: { subject: t('return received'), heading: t('We received your return'), says: [t('The items you sent back have reached us.')] },
    cancel: {
      subject: t('cancelled'),
      heading: booking ? t('Your booking was cancelled') : t('Your order was cancelled'),
      says: [
        booking ? t('Your booking was cancelled.') : t('Your order was cancelled.'),
        ...(sale.paymentStatus === 'refund_pending' ? [t('The payment we received will be refunded to you; we will write again when it is on its way.')] : []),
      ],
    },
    convert: {
      subject: t('confirmed as an order'),
      heading: t('Your booking is now an order'),
      says: [t('Your booking is now a confirmed order, and we are preparing it.')],
    },
    cash_collected: { subject: t('payment received'), heading: t('Payment received'), says: [t('Thank you: we have received your payment in cash.')] },
    proof_accepted: {
      subject: t('payment received'),
      heading: t('Your payment was received'),
      says: [
        sale.paymentStatus === 'paid'
          ? t('We checked your payment proof: your booking is paid in full. Thank you.')
          : t('We checked your payment proof and recorded your payment. The rest is still to pay; your booking stays held for you.'),
      ],
    },
    proof_rejected: {
      subject: t('payment proof not accepted'),
      heading: t('We could not accept your payment proof'),
      says: [
        note ? t('We could not accept the payment proof you sent: {reason}', { reason: note }) : t('We could not accept the payment proof you sent.'),
        until
          ? t('Please send a new proof from your order page by {until}, or call us; your items stay held until then.', { until })
          : t('Please send a new proof from your order page, or call us.'),
      ],
    },
    refunded: {
      subject: t('refund'),
      heading: t('Your refund is on its way'),
      says: [
        refunded
          ? t('We have refunded {amount}. Depending on your bank it can take a few working days to reach you.', { amount: refunded })
          : t('We have refunded your payment. Depending on your bank it can take a few working days to reach you.'),
      ],
    },
  };
  const c = content[kind];
  const statusLine: [string, string][] = [
    [booking ? t('Booking') : t('Order'), sale.invoiceId],
    [t('Status'), t(SALE_STATUS_LABELS[sale.status])],
    [t('Payment'), t(PAYMENT_STATUS_LABELS[sale.paymentStatus])],
  ];
  if ((kind === 'cancel' || kind === 'return') && note) c.says.push(t('Reason: {reason}', { reason: note }));
  const hotline = brand.hotline ? localDigits(brand.hotline, locale) : '';
  const { text, html } = brandedMail(
    brand,
    c.heading,
    [
      { p: t('Dear {name},', { name: sale.contact.name }) },
      ...c.says.map((p) => ({ p })),
      c.table ? { order: sale } : { facts: statusLine },
      { button: { label: booking ? t('See your booking') : t('See your order'), url: opts.link } },
      ...(hotline
        ? [
            {
              p: brand.supportEmail
                ? t('Questions? Call {hotline} or write to {email}.', { hotline, email: brand.supportEmail })
                : t('Questions? Call {hotline}.', { hotline }),
            },
          ]
        : []),
    ],
    locale,
  );
  const subject = booking
    ? t('Booking {invoice} — {what}', { invoice: sale.invoiceId, what: c.subject })
    : t('Order {invoice} — {what}', { invoice: sale.invoiceId, what: c.subject });
  return { to: sale.contact.email, subject, text, html };
}

/** The shop's own mail: a new order or booking, or a payment proof to check. */
export function shopMail(sale: TSale, event: 'new_sale' | 'new_proof', brand: Brand, to: string, adminUrl: string): MailContent {
  const Thing = sale.kind === 'booking' ? 'Booking' : 'Order';
  const heading = event === 'new_proof' ? `Payment proof for ${sale.invoiceId}` : `New ${Thing.toLowerCase()} ${sale.invoiceId}`;
  const { text, html } = brandedMail(brand, heading, [
    {
      p:
        event === 'new_proof'
          ? `${sale.contact.name} uploaded a payment proof for ${Thing.toLowerCase()} ${sale.invoiceId} (${formatMoney(sale.total)}). Please check it.`
          : `${sale.contact.name} (${sale.contact.mobile}, ${sale.contact.email}) placed ${Thing.toLowerCase()} ${sale.invoiceId} for ${formatMoney(sale.total)}, ${PAYMENT_METHOD_LABELS[sale.paymentMethod].toLowerCase()}.`,
    },
    { order: sale },
    { button: { label: `Open it in the back office`, url: adminUrl } },
  ]);
  return { to, subject: `${heading} — ${formatMoney(sale.total)}`, text, html };
}
