import { DELIVERY_METHOD_LABELS, PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS, type TSale } from '@storefront/shared';
import type { Kysely } from 'kysely';
import PDFDocument from 'pdfkit';
import type { Database } from '../../db/schema.ts';
import { siteSettings } from '../site/site.service.ts';
import { invoiceQr } from './invoice-qr.ts';

// The invoice as a document (docs/decisions/0032): the shop's name, address and licence
// numbers from its settings, the order as charged, and the QR code of the order's page. The
// back office prints it from HTML; the shopper downloads it as a PDF made here (pdfkit, pure
// JavaScript). The PDF's standard fonts have no taka sign, so amounts read "BDT".

export interface ShopIdentity {
  name: string;
  address: string;
  hotline: string;
  email: string;
  bin: string;
  tradeLicence: string;
  tin: string;
  /** brand.logo: the path of the uploaded logo, or '' (docs/decisions/0037). */
  logo: string;
  /** brand.colour, one of the design system's colours that carry white text. */
  colour: string;
}

export async function shopIdentity(db: Kysely<Database>): Promise<ShopIdentity> {
  const s = await siteSettings(db, [
    'brand.name',
    'contact.address',
    'contact.hotline',
    'contact.supportEmail',
    'company.bin',
    'company.tradeLicence',
    'company.tin',
    'brand.logo',
    'brand.colour',
  ]);
  return {
    name: s['brand.name'] ?? 'Our shop',
    address: s['contact.address'] ?? '',
    hotline: s['contact.hotline'] ?? '',
    email: s['contact.supportEmail'] ?? '',
    bin: s['company.bin'] ?? '',
    tradeLicence: s['company.tradeLicence'] ?? '',
    tin: s['company.tin'] ?? '',
    logo: s['brand.logo'] ?? '',
    colour: /^#[0-9a-f]{6}$/i.test(s['brand.colour'] ?? '') ? s['brand.colour'] : '#1f4d3a',
  };
}

const bdt = (poisha: number) => `BDT ${(poisha / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { timeZone: 'Asia/Dhaka', day: 'numeric', month: 'long', year: 'numeric' });

/**
 * The invoice as an A4 PDF. `link` is the order page's address the QR code opens; `logo`
 * the shop's logo as PNG or JPEG bytes (logoForPdf), else the name is set in type.
 */
export async function invoicePdf(sale: TSale, shop: ShopIdentity, publicUrl: string, link: string | null, logo: Buffer | null = null): Promise<Buffer> {
  const qr = (await invoiceQr(publicUrl, sale.invoiceId, 240, 'png', link)) as Buffer;
  const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: `Invoice ${sale.invoiceId}`, Author: shop.name } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const ink = '#1d2327';
  const muted = '#5b6470';
  const left = 48;
  const width = doc.page.width - 96;

  // The brand colour as a band across the top of the page.
  doc.rect(0, 0, doc.page.width, 10).fill(shop.colour);
  let logoDrawn = false;
  if (logo) {
    try {
      // At most 40 pt high and 200 pt wide, in proportion; the name goes underneath for the text layer.
      doc.image(logo, left, 44, { fit: [200, 40] });
      doc.y = 90;
      logoDrawn = true;
    } catch {
      // Bytes pdfkit cannot read: the name in type, as without a logo.
    }
  }
  doc
    .fillColor(ink)
    .font('Helvetica-Bold')
    .fontSize(logoDrawn ? 12 : 18)
    .text(shop.name, left, logoDrawn ? 90 : 48, { width: width - 120 });
  doc.font('Helvetica').fontSize(9).fillColor(muted);
  for (const line of [
    shop.address,
    [shop.hotline && `Hotline ${shop.hotline}`, shop.email].filter(Boolean).join(' · '),
    [shop.bin, shop.tradeLicence, shop.tin].filter(Boolean).join(' · '),
  ]) {
    if (line) doc.text(line, { width: width - 120 });
  }
  doc.image(qr, left + width - 96, 44, { width: 96 });

  doc.moveDown(1.5);
  doc
    .fillColor(ink)
    .font('Helvetica-Bold')
    .fontSize(14)
    .text(`${sale.kind === 'booking' ? 'Booking' : 'Invoice'} ${sale.invoiceId}`);
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(muted)
    .text(`Placed ${day(sale.createdAt)} · ${PAYMENT_METHOD_LABELS[sale.paymentMethod]} · ${PAYMENT_STATUS_LABELS[sale.paymentStatus]}`);
  doc.moveDown(0.8);

  const where = sale.pickupBranch
    ? `Collect from ${sale.pickupBranch.name}, ${sale.pickupBranch.address}, ${sale.pickupBranch.city}`
    : sale.deliveryAddress
      ? [sale.deliveryAddress.addressLine, sale.deliveryAddress.area, sale.deliveryAddress.district, sale.deliveryAddress.division].filter(Boolean).join(', ')
      : '';
  doc.fillColor(ink).font('Helvetica-Bold').fontSize(10).text('Bill to');
  doc.font('Helvetica').text(`${sale.contact.name} · ${sale.contact.mobile} · ${sale.contact.email}`);
  doc.font('Helvetica-Bold').text(DELIVERY_METHOD_LABELS[sale.deliveryMethod]);
  doc.font('Helvetica').text(where || '—');
  doc.moveDown(1);

  // The lines: item, quantity, unit price, line total.
  const cols = [left, left + width * 0.58, left + width * 0.68, left + width * 0.84];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(10)
      .fillColor(ink);
    doc.text(cells[0], cols[0], y, { width: width * 0.56 });
    const after = doc.y;
    doc.text(cells[1], cols[1], y, { width: width * 0.08, align: 'right' });
    doc.text(cells[2], cols[2], y, { width: width * 0.15, align: 'right' });
    doc.text(cells[3], cols[3], y, { width: width * 0.16, align: 'right' });
    doc.y = Math.max(after, doc.y) + 4;
    doc
      .moveTo(left, doc.y - 2)
      .lineTo(left + width, doc.y - 2)
      .strokeColor('#e7e1d8')
      .lineWidth(0.5)
      .stroke();
  };
  row(['Item', 'Qty', 'Unit price', 'Total'], true);
  for (const l of sale.lines) row([`${l.title}${l.variant ? ` (${l.variant})` : ''}\n${l.skuCode}`, String(l.quantity), bdt(l.unitPrice), bdt(l.lineTotal)]);

  doc.moveDown(0.5);
  const totals: [string, string][] = [
    ['Items', bdt(sale.subTotal)],
    ...(sale.discount ? ([['Discounts', `- ${bdt(sale.discount)}`]] as [string, string][]) : []),
    ...(sale.couponAmount ? ([[`Coupon ${sale.couponCode}`, `- ${bdt(sale.couponAmount)}`]] as [string, string][]) : []),
    ['Delivery', sale.deliveryFee ? bdt(sale.deliveryFee) : 'Free'],
    ['Total', bdt(sale.total)],
  ];
  for (const [k, v] of totals) {
    const y = doc.y;
    const bold = k === 'Total';
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 12 : 10);
    doc.text(k, cols[2] - 60, y, { width: width * 0.15 + 60, align: 'right' });
    doc.text(v, cols[3], y, { width: width * 0.16, align: 'right' });
    doc.moveDown(0.3);
  }

  doc.moveDown(2);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(muted)
    .text(`Scan the code to see this ${sale.kind} online. Thank you for shopping with ${shop.name}.`, left, doc.y, { width });
  doc.end();
  return done;
}
