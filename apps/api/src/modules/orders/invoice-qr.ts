import QRCode from 'qrcode';
import { orderPageUrl } from './access.ts';

// The QR code of an invoice (spec §7 GET /api/qrs): the address of the order's page, to
// show at a showroom for payment or pickup. A guest's carries the signed order link, so that
// it opens the order on any device (docs/decisions/0032).

export function invoiceQr(publicUrl: string, invoiceId: string, size: number, format: 'svg' | 'png', link: string | null = null) {
  const text = orderPageUrl(publicUrl, invoiceId, link);
  const opts = { errorCorrectionLevel: 'M' as const, margin: 2, width: size, color: { dark: '#1d2327', light: '#ffffff' } };
  return format === 'png' ? QRCode.toBuffer(text, { ...opts, type: 'png' }) : QRCode.toString(text, { ...opts, type: 'svg' });
}
