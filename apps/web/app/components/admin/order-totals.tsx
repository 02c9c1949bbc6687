import type { TAdminOrder } from '@storefront/shared';
import { taka } from './admin-ui.tsx';

/** An order's totals as charged, then what was paid and refunded: the order screen and the printed invoice. */
export function OrderTotals({ order, className = '' }: { order: TAdminOrder; className?: string }) {
  const row = (label: string, value: string, strong = false) => (
    <>
      <dt className={strong ? 'font-semibold' : 'text-ink-muted'}>{label}</dt>
      <dd className={`text-right tabular-nums ${strong ? 'font-semibold' : ''}`}>{value}</dd>
    </>
  );
  return (
    <dl className={`ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-6 gap-y-1 ${className}`}>
      {row('Items', taka(order.subTotal))}
      {order.discount > 0 && row('Discounts', `−${taka(order.discount)}`)}
      {order.couponAmount > 0 && row(`Coupon ${order.couponCode}`, `−${taka(order.couponAmount)}`)}
      {row('Delivery', order.deliveryFee ? taka(order.deliveryFee) : 'Free')}
      {row('Total (BDT)', taka(order.total), true)}
      {row('Paid', taka(order.amountPaid))}
      {order.refundedTotal > 0 && row('Refunded', `−${taka(order.refundedTotal)}`)}
    </dl>
  );
}
