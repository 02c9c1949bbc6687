import type { TBranch } from '@storefront/shared';
import { Link } from 'react-router';
import { ArrowRightIcon, PhoneIcon } from '../components/ui/icons.tsx';
import { pageRead } from '../lib/api.server.ts';
import { metaT, Trans, useT } from '../lib/i18n.tsx';
import { brandName, type SiteSettings } from '../lib/site.ts';
import type { Route } from './+types/outlets';
import { inLanguage } from '../lib/seo.ts';

const SKU_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** OpenStreetMap centred on the branch, with a marker: no key, no tracking script. */
function mapUrl(b: Pick<TBranch, 'latitude' | 'longitude'>): string {
  const lat = b.latitude.toFixed(5);
  const lon = b.longitude.toFixed(5);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
}

type Availability = {
  sku: string;
  /** The product the sku belongs to, when the shop knows it. */
  product: { id: number; title: string; slug: string; variant: string } | null;
  /** Units per branch id; a branch without an entry has none. */
  byBranch: Record<number, number>;
};

async function loadAvailability(context: Route.LoaderArgs['context'], sku: string): Promise<Availability> {
  const stock = await pageRead(() =>
    context.reads.stock({
      page: 1,
      size: 100,
      textParams: [{ field: 'skuCode', value: sku, matchType: 'EXACT' }],
      sortParams: [{ field: 'branchId', type: 'ASC' }],
    }),
  );
  const byBranch: Record<number, number> = {};
  for (const r of stock.list) byBranch[r.branchId] = (byBranch[r.branchId] ?? 0) + r.quantity;
  let product: Availability['product'] = null;
  const itemId = stock.list[0]?.itemId;
  if (itemId) {
    const p = await context.reads.item({ id: itemId }).catch(() => null);
    if (p) {
      const s = p.skus.find((x) => x.code === sku);
      product = {
        id: p.id,
        title: p.title,
        slug: p.slug,
        variant: s ? s.attributeValues.map((a) => `${a.optionDisplayLabel}: ${a.displayLabel}`).join(', ') : '',
      };
    }
  }
  return { sku, product, byBranch };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get('sku')?.trim() ?? '';
  const sku = SKU_CODE.test(raw) ? raw.toUpperCase() : null;
  const [branches, availability] = await Promise.all([pageRead(() => context.reads.branches()), sku ? loadAvailability(context, sku) : Promise.resolve(null)]);
  // Warehouses are not places a shopper can visit.
  const visitable = branches.filter((b) => b.kind !== 'warehouse');
  return { branches: visitable, availability, badSku: raw !== '' && !sku ? raw.slice(0, 64) : null, canonical: `${context.publicUrl}/outlets` };
}

export function meta({ data, matches }: Route.MetaArgs) {
  const brand = brandName((matches[0]?.data as { settings?: SiteSettings } | undefined)?.settings ?? {});
  const cities = data ? [...new Set(data.branches.map((b) => b.city))].join(', ') : '';
  const { t, lang } = metaT(matches);
  return [
    { title: t('Our showrooms — {brand}', { brand }) },
    { name: 'description', content: t('Visit {brand} in {cities}: addresses, phone numbers, opening hours and maps.', { brand, cities }) },
    ...(data ? [{ tagName: 'link', rel: 'canonical', href: inLanguage(data.canonical, lang) }] : []),
  ];
}

/** The kinds of branch (message ids). */
const KIND_LABEL: Record<string, string> = { showroom: 'Showroom', outlet: 'Factory outlet' };

/** /outlets (spec §2): the showrooms and outlets, and where a product is in stock (?sku=CODE). */
export default function Outlets({ loaderData }: Route.ComponentProps) {
  const { branches, availability, badSku } = loaderData;
  const stocked = availability ? branches.filter((b) => (availability.byBranch[b.id] ?? 0) > 0) : [];
  // With a product in question, the showrooms that have it come first.
  const ordered = availability ? [...stocked, ...branches.filter((b) => !stocked.includes(b))] : branches;
  const { t, digits } = useT();

  return (
    <div className="container-page py-10 md:py-14">
      <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{t('Our showrooms')}</h1>
      <p className="mt-2 max-w-2xl text-ink-muted">
        {t('See, touch and sit on our furniture before you buy. Our team at every showroom can help you choose, measure and arrange delivery.')}
      </p>

      {badSku && (
        <p role="alert" className="mt-6 rounded-lg border border-danger-600/30 bg-red-50 px-4 py-3 text-danger-600">
          {t('“{code}” is not a product code we know.', { code: badSku })}
        </p>
      )}

      {availability && (
        <section
          aria-labelledby="availability-heading"
          className="mt-6 rounded-[var(--radius-card)] border border-brand-100 bg-brand-50 p-5"
          data-testid="availability"
        >
          <h2 id="availability-heading" className="text-lg font-semibold">
            {t('Where to see {name}', { name: availability.product ? availability.product.title : availability.sku })}
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            {t('Product code {code}', { code: availability.sku })}
            {availability.product?.variant ? ` · ${availability.product.variant}` : ''}
          </p>
          {stocked.length > 0 ? (
            <p className="mt-3">
              {t('{count, plural, one {In stock at one showroom: {names}.} other {In stock at # showrooms: {names}.}}', {
                count: stocked.length,
                names: stocked.map((b) => b.name).join(', '),
              })}
            </p>
          ) : (
            <p className="mt-3">
              {t('No showroom has this in stock right now. Call us and we will tell you when it arrives, or order it online for delivery.')}
            </p>
          )}
        </section>
      )}

      <ul className="mt-8 grid gap-5 md:grid-cols-2 xl:grid-cols-3" aria-label={t('Showrooms and outlets')}>
        {ordered.map((b) => {
          const units = availability ? (availability.byBranch[b.id] ?? 0) : null;
          return (
            <li key={b.id} className="flex flex-col rounded-[var(--radius-card)] bg-paper p-5 shadow-[var(--shadow-card)]" data-testid="branch">
              <div className="flex items-start justify-between gap-3">
                <h2 className="text-lg font-semibold leading-snug">{b.name}</h2>
                <span className="shrink-0 rounded-full bg-sand-100 px-2.5 py-1 text-xs font-semibold text-ink-muted">
                  {KIND_LABEL[b.kind] ? t(KIND_LABEL[b.kind] as string) : b.kind}
                </span>
              </div>
              {units !== null && (
                <p className={`mt-2 text-sm font-semibold ${units > 0 ? 'text-success-600' : 'text-ink-muted'}`} data-testid="branch-stock">
                  {units > 0 ? t('{count, plural, one {In stock: # piece} other {In stock: # pieces}}', { count: units }) : t('Not in stock here')}
                </p>
              )}
              <dl className="mt-3 space-y-2 text-[0.95rem]">
                <div>
                  <dt className="sr-only">{t('Address')}</dt>
                  <dd>
                    <address className="not-italic">
                      {b.address}, {b.city}
                    </address>
                  </dd>
                </div>
                <div className="flex items-center gap-2">
                  <dt>
                    <PhoneIcon width={18} height={18} className="text-brand-700" />
                    <span className="sr-only">{t('Phone')}</span>
                  </dt>
                  <dd>
                    <a href={`tel:${b.phone.replace(/[^\d+]/g, '')}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
                      {digits(b.phone)}
                    </a>
                  </dd>
                </div>
                <div>
                  <dt className="text-sm font-medium text-ink-muted">{t('Opening hours')}</dt>
                  <dd>{b.hours}</dd>
                </div>
              </dl>
              <a
                href={mapUrl(b)}
                target="_blank"
                rel="noopener noreferrer"
                className="mt-4 inline-flex items-center gap-1.5 self-start font-semibold text-brand-700 underline-offset-2 hover:underline"
              >
                <Trans id="Open in map<0> ({name}, opens in a new tab)</0>" values={{ name: b.name }} components={{ 0: <span className="sr-only" /> }} />
                <ArrowRightIcon width={16} height={16} />
              </a>
            </li>
          );
        })}
      </ul>

      <p className="mt-10 text-ink-muted">
        <Trans
          id="Want to see the sofa from every side first? <0>Try our 3D viewer</0>."
          components={{ 0: <Link to="/sofa-3d" className="font-semibold text-brand-700 underline-offset-2 hover:underline" /> }}
        />
      </p>
    </div>
  );
}
