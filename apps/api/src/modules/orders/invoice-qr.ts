import QRCode from 'qrcode';

// The QR code of an invoice (spec §7 GET /api/qrs): the address of the order's page, to
// show at a showroom for payment or pickup.

export function invoiceQr(publicUrl: string, invoiceId: string, size: number, format: 'svg' | 'png') {
  const text = `${publicUrl}/orders?invoiceId=${encodeURIComponent(invoiceId)}`;
  const opts = { errorCorrectionLevel: 'M' as const, margin: 2, width: size, color: { dark: '#1d2327', light: '#ffffff' } };
  return format === 'png' ? QRCode.toBuffer(text, { ...opts, type: 'png' }) : QRCode.toString(text, { ...opts, type: 'svg' });
}
