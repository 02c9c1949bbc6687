import { PAYMENT_METHOD_LABELS, type TAdminDashboard, type TAdminSession, type TDashboardDay, type TDashboardWindow } from '@storefront/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, redirect } from 'react-router';
// The chart library is imported here and nowhere else: only this back-office route's chunk
// carries it, never a shopper's page (docs/decisions/0030 script budget, 0032).
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, taka } from '../../components/admin/admin-ui.tsx';
import type { Route } from './+types/home';
import { may, useAdminSession } from './layout.tsx';

// The owner's dashboard, the back office's first screen (docs/decisions/0032): today's and
// this month's figures, what waits on staff, and the last 30 or 90 days at a glance. Every
// chart has its figures in words and in a table for those who cannot see it. Staff whose
// role may not read revenue start on the orders instead.

export function meta() {
  return [{ title: 'Dashboard · Back office' }];
}

const WINDOWS = [30, 90] as const satisfies readonly TDashboardWindow[];

export async function loader({ context, request }: Route.LoaderArgs) {
  const session = await adminRead<TAdminSession>(context, request, '/api/admin/session');
  // An owner who must set up two-factor is sent to their account by the read below.
  if (!session.mustEnrolTwoFactor && !may(session, 'reports.read')) throw redirect('/admin/orders');
  const days: TDashboardWindow = new URL(request.url).searchParams.get('days') === '90' ? 90 : 30;
  return adminRead<TAdminDashboard>(context, request, `/api/admin/dashboard?days=${days}`);
}

// Days are Dhaka calendar days as YYYY-MM-DD: formatted as the date they name, in UTC, so
// the server and the browser print the same.
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const LONG_DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'long', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Dhaka' });
const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const COUNT = new Intl.NumberFormat('en-US');

const day = (d: string) => DAY.format(new Date(`${d}T00:00:00Z`));
const longDay = (d: string) => LONG_DAY.format(new Date(`${d}T00:00:00Z`));
const compactTaka = (poisha: number) => `৳${COMPACT.format(poisha / 100)}`;
const count = (n: number) => COUNT.format(n);
const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '0%');

const BRAND = 'var(--color-brand-700)';
const METHOD_COLOURS = {
  card: 'var(--color-brand-700)',
  cod: 'var(--color-accent-600)',
  later: 'var(--color-sand-300)',
  bkash: 'var(--color-brand-600)',
  nagad: 'var(--color-ink-muted)',
} as const;

export default function AdminDashboard({ loaderData: d }: Route.ComponentProps) {
  const session = useAdminSession();
  return (
    <AdminPage
      title="Dashboard"
      description={
        <>
          As of <time dateTime={d.asOf}>{TIME.format(new Date(d.asOf))}</time> Dhaka time, {longDay(d.today.from)}.
        </>
      }
      actions={<WindowToggle days={d.window.days} />}
    >
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <FigureGroup title="Today">
          <Figure label="Orders placed" value={count(d.today.ordersPlaced)} />
          <Figure label="Money received" value={taka(d.today.revenuePaid)} />
          <Figure label="Refunds" value={taka(d.today.refunds)} />
        </FigureGroup>
        <FigureGroup title={`This month (${MONTH.format(new Date(`${d.month.from}T00:00:00Z`))})`}>
          <Figure label="Orders placed" value={count(d.month.ordersPlaced)} />
          <Figure label="Money received" value={taka(d.month.revenuePaid)} />
          <Figure label="Refunds" value={taka(d.month.refunds)} />
        </FigureGroup>
        <FigureGroup title="Waiting on the shop">
          <Figure
            label="Cash on delivery to collect"
            value={taka(d.codToCollect.amount)}
            hint={`${count(d.codToCollect.orders)} ${d.codToCollect.orders === 1 ? 'order' : 'orders'}`}
            to="/admin/orders?paymentMethod=cod&paymentStatus=unpaid"
          />
          <Figure
            label="Payment proofs to check"
            value={count(d.proofsToVerify)}
            hint="Bookings"
            to="/admin/orders?kind=booking&status=booked&paymentStatus=proof_submitted"
          />
          <Figure label="Skus low on stock" value={count(d.lowStockSkus)} to={may(session, 'catalogue.read') ? '/admin/stock' : undefined} />
        </FigureGroup>
      </div>

      <div className="mt-6 grid gap-4 xl:grid-cols-2">
        <RevenueChart series={d.series} days={d.window.days} />
        <OrdersChart series={d.series} days={d.window.days} />
        <TopProducts d={d} />
        <PaymentMix d={d} />
      </div>
    </AdminPage>
  );
}

/**
 * The window of the series: links, so the page is read again on the server (and works without
 * script). A full page load: the staff cookie's paths (/admin, /api/admin) do not cover
 * /admin.data, where a client-side navigation to this route would fetch its data.
 */
function WindowToggle({ days }: { days: TDashboardWindow }) {
  return (
    <nav aria-label="Period of the charts" className="inline-flex rounded-lg border border-sand-300 bg-paper p-1 text-sm">
      {WINDOWS.map((n) => (
        <Link
          key={n}
          to={`?days=${n}`}
          aria-current={n === days ? 'page' : undefined}
          reloadDocument
          className={`rounded-md px-3 py-1.5 font-medium ${n === days ? 'bg-brand-700 text-white' : 'text-ink hover:bg-sand-100'}`}
        >
          Last {n} days
        </Link>
      ))}
    </nav>
  );
}

function FigureGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card title={title}>
      <dl className="flex flex-col divide-y divide-sand-100">{children}</dl>
    </Card>
  );
}

/** One figure: what it counts on the left, the figure on the right, where the eye finds it. */
function Figure({ label, value, hint, to }: { label: string; value: string; hint?: string; to?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-2 first:pt-0 last:pb-0">
      <dt className="min-w-0 text-sm">
        {to ? (
          <Link to={to} className="font-medium text-brand-700 underline-offset-2 hover:underline">
            {label}
          </Link>
        ) : (
          <span className="font-medium">{label}</span>
        )}
        {hint && <span className="block text-xs text-ink-muted">{hint}</span>}
      </dt>
      <dd className="shrink-0 text-xl font-semibold tabular-nums tracking-tight">{value}</dd>
    </div>
  );
}

/**
 * A chart drawn in the browser only: its size comes from the page's layout, which the server
 * does not know. Until then (and without script) the box keeps its place; the figure's
 * caption and table carry the same figures either way.
 */
function ChartBox({ height = 240, children }: { height?: number; children: ReactNode }) {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => setDrawn(true), []);
  // Hidden from assistive technology: the caption and the table beside it say the same.
  return (
    <div aria-hidden="true" style={{ height }} className="w-full min-w-0">
      {drawn ? children : null}
    </div>
  );
}

/** The series as a table, visually hidden: what a screen reader reads instead of the chart. */
function SeriesTable({ caption, series, column }: { caption: string; series: TDashboardDay[]; column: 'revenue' | 'orders' }) {
  return (
    // Hidden by a block around it: a table grows to its rows whatever its height, and would
    // lengthen the page.
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">{column === 'revenue' ? 'Money received' : 'Orders placed'}</th>
          </tr>
        </thead>
        <tbody>
          {series.map((p) => (
            <tr key={p.day}>
              <th scope="row">{longDay(p.day)}</th>
              <td>{column === 'revenue' ? taka(p.revenue) : count(p.orders)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The day with the highest value, the first of them on a tie; null when every day is zero. */
function best(series: TDashboardDay[], key: 'revenue' | 'orders'): TDashboardDay | null {
  return series.reduce<TDashboardDay | null>((top, p) => (p[key] > (top?.[key] ?? 0) ? p : top), null);
}

const axisProps = { tick: { fontSize: 12, fill: 'var(--color-ink-muted)' }, tickLine: false, axisLine: false } as const;
/** What both day charts pass their chart: the series, drawn to the box's size. */
const dayChartProps = {
  responsive: true,
  accessibilityLayer: false,
  style: { width: '100%', height: '100%' },
  margin: { top: 8, right: 8, bottom: 0, left: 0 },
} as const;

/** A chart of days: its picture, the sentence that says what it shows, and the table of its figures. */
function DayChartCard({ title, summary, table, children }: { title: string; summary: string; table: ReactNode; children: ReactNode }) {
  return (
    <Card title={title}>
      <figure>
        <ChartBox>{children}</ChartBox>
        <figcaption className="mt-3 text-sm text-ink-muted">{summary}</figcaption>
        {table}
      </figure>
    </Card>
  );
}

function RevenueChart({ series, days }: { series: TDashboardDay[]; days: number }) {
  const total = series.reduce((s, p) => s + p.revenue, 0);
  const top = best(series, 'revenue');
  const summary = top
    ? `${taka(total)} received over the last ${days} days, ${taka(Math.round(total / days))} a day on average; the best day was ${longDay(top.day)} with ${taka(top.revenue)}.`
    : `No money received in the last ${days} days.`;
  return (
    <DayChartCard
      title="Money received per day"
      summary={summary}
      table={<SeriesTable caption={`Money received per day, last ${days} days`} series={series} column="revenue" />}
    >
      <AreaChart data={series} {...dayChartProps}>
        <CartesianGrid vertical={false} stroke="var(--color-sand-200)" />
        <XAxis dataKey="day" tickFormatter={day} minTickGap={24} {...axisProps} />
        <YAxis tickFormatter={compactTaka} width={56} {...axisProps} />
        <Tooltip labelFormatter={(v) => longDay(String(v))} formatter={(v) => [taka(Number(v)), 'Received']} />
        <Area type="monotone" dataKey="revenue" stroke={BRAND} fill="var(--color-brand-100)" strokeWidth={2} isAnimationActive={false} />
      </AreaChart>
    </DayChartCard>
  );
}

function OrdersChart({ series, days }: { series: TDashboardDay[]; days: number }) {
  const total = series.reduce((s, p) => s + p.orders, 0);
  const top = best(series, 'orders');
  const quiet = series.filter((p) => p.orders === 0).length;
  const summary = top
    ? `${count(total)} ${total === 1 ? 'order' : 'orders'} placed over the last ${days} days; the busiest day was ${longDay(top.day)} with ${count(top.orders)}; ${count(quiet)} ${quiet === 1 ? 'day' : 'days'} without one.`
    : `No orders placed in the last ${days} days.`;
  return (
    <DayChartCard
      title="Orders placed per day"
      summary={summary}
      table={<SeriesTable caption={`Orders placed per day, last ${days} days`} series={series} column="orders" />}
    >
      <BarChart data={series} {...dayChartProps}>
        <CartesianGrid vertical={false} stroke="var(--color-sand-200)" />
        <XAxis dataKey="day" tickFormatter={day} minTickGap={24} {...axisProps} />
        <YAxis allowDecimals={false} width={40} {...axisProps} />
        <Tooltip labelFormatter={(v) => longDay(String(v))} formatter={(v) => [count(Number(v)), 'Orders']} cursor={{ fill: 'var(--color-sand-100)' }} />
        <Bar dataKey="orders" fill={BRAND} radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </DayChartCard>
  );
}

/** Top products as a list with bars drawn in CSS: the list itself is the accessible text. */
function TopProducts({ d }: { d: TAdminDashboard }) {
  const most = d.topProducts[0]?.revenue ?? 0;
  return (
    <Card title={`Best-selling products, last ${d.window.days} days`}>
      {d.topProducts.length ? (
        <ol className="flex flex-col gap-3">
          {d.topProducts.map((p, i) => (
            <li key={p.productId} className="text-sm">
              <div className="flex items-baseline justify-between gap-3">
                <Link to={`/admin/products/${p.productId}`} className="min-w-0 truncate font-medium text-brand-700 hover:underline">
                  <span className="sr-only">{i + 1}. </span>
                  {p.title}
                </Link>
                <span className="shrink-0 tabular-nums">
                  {taka(p.revenue)} <span className="text-ink-muted">· {count(p.units)} sold</span>
                </span>
              </div>
              <div aria-hidden="true" className="mt-1 h-2 rounded-full bg-sand-100">
                <div className="h-2 rounded-full bg-brand-600" style={{ width: most ? `${Math.max(2, (p.revenue / most) * 100)}%` : '0%' }} />
              </div>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-ink-muted">Nothing sold in the last {d.window.days} days.</p>
      )}
    </Card>
  );
}

/** The payment method mix: a ring for the eye, and its table, visible, for everyone. */
function PaymentMix({ d }: { d: TAdminDashboard }) {
  const orders = d.paymentMethods.reduce((s, m) => s + m.orders, 0);
  const amount = d.paymentMethods.reduce((s, m) => s + m.amount, 0);
  return (
    <Card title={`How customers pay, last ${d.window.days} days`}>
      <figure className="flex flex-col gap-4 sm:flex-row sm:items-center">
        {orders > 0 && (
          <div className="mx-auto w-44 shrink-0">
            <ChartBox height={176}>
              <PieChart responsive accessibilityLayer={false} style={{ width: '100%', height: '100%' }}>
                <Pie
                  data={d.paymentMethods}
                  dataKey="orders"
                  nameKey="method"
                  innerRadius="58%"
                  outerRadius="95%"
                  stroke="var(--color-paper)"
                  isAnimationActive={false}
                >
                  {d.paymentMethods.map((m) => (
                    <Cell key={m.method} fill={METHOD_COLOURS[m.method]} />
                  ))}
                </Pie>
              </PieChart>
            </ChartBox>
          </div>
        )}
        <table className="w-full text-sm">
          <caption className="sr-only">Orders placed and their value by payment method, last {d.window.days} days</caption>
          <thead className="text-left text-xs text-ink-muted">
            <tr>
              <th scope="col" className="py-1 font-medium">
                Method
              </th>
              <th scope="col" className="py-1 pl-3 text-right font-medium">
                Orders
              </th>
              <th scope="col" className="py-1 pl-3 text-right font-medium">
                Value
              </th>
            </tr>
          </thead>
          <tbody>
            {d.paymentMethods.map((m) => (
              <tr key={m.method} className="border-t border-sand-100">
                <th scope="row" className="py-2 text-left font-normal">
                  <span aria-hidden="true" className="mr-2 inline-block size-3 rounded-sm align-middle" style={{ background: METHOD_COLOURS[m.method] }} />
                  {PAYMENT_METHOD_LABELS[m.method]}
                </th>
                <td className="py-2 pl-3 text-right tabular-nums">
                  {count(m.orders)} <span className="text-ink-muted">({percent(m.orders, orders)})</span>
                </td>
                <td className="py-2 pl-3 text-right tabular-nums">{taka(m.amount)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-sand-200 font-semibold">
              <th scope="row" className="py-2 text-left">
                In all
              </th>
              <td className="py-2 pl-3 text-right tabular-nums">{count(orders)}</td>
              <td className="py-2 pl-3 text-right tabular-nums">{taka(amount)}</td>
            </tr>
          </tfoot>
        </table>
        <figcaption className="sr-only">
          {orders
            ? d.paymentMethods.map((m) => `${PAYMENT_METHOD_LABELS[m.method]}: ${percent(m.orders, orders)} of orders`).join('; ')
            : `No orders placed in the last ${d.window.days} days.`}
        </figcaption>
      </figure>
    </Card>
  );
}
