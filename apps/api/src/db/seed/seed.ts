import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { lockForTransaction } from '../dialect/locks.ts';
import { syncSequences } from '../dialect/sequences.ts';
import type { Database } from '../schema.ts';
import { BUNDLE_TITLES_BN, CATEGORY_NAMES_BN, CONTENT_BN, PAGES_BN, productDescriptionBn, productTitleBn } from './bangla-data.ts';
import { BRANCHES, CATEGORY_TREE, type CategorySeed, COLORS, CURRENCIES, MATERIALS, NAMES } from './catalogue-data.ts';
import { KVPS, PAGES } from './site-data.ts';
import { CATALOGUE_CONTENT } from './catalogue-content.ts';
import { seedPromotions } from './promotions.ts';

/** Deterministic pseudo-random numbers, so the demo catalogue is the same everywhere. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
  };
}

async function insertBatches<T extends keyof Database & string>(db: Kysely<Database>, table: T, rows: any[], batch = 500) {
  for (let i = 0; i < rows.length; i += batch) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + batch))
      .execute();
  }
}

interface Leaf {
  id: number;
  ancestors: number[];
  seed: CategorySeed;
}

const nowIso = () => new Date().toISOString();

async function seedCategories(db: Kysely<Database>): Promise<Leaf[]> {
  const leaves: Leaf[] = [];
  const created = nowIso();
  const walk = async (nodes: CategorySeed[], parentId: number | null, ancestors: number[]) => {
    let order = 0;
    for (const n of nodes) {
      const options = n.children
        ? []
        : [
            { discriminator: 'Color', values: COLORS.slice(0, 6).map(([label]) => ({ displayLabel: label })) },
            ...(n.sizes ? [{ discriminator: 'Size', values: n.sizes.map((s) => ({ displayLabel: s })) }] : []),
          ];
      const row = await db
        .insertInto('categories')
        .values({
          name: n.name,
          name_bn: CATEGORY_NAMES_BN[n.slug] ?? null,
          slug: n.slug,
          parent_id: parentId,
          sort_order: order++,
          image_url: `/media/demo/${n.shape}/${n.color}.svg`,
          banner_url: `/media/banner/${n.shape}/${n.color}.svg?t=${encodeURIComponent(n.name)}`,
          options: JSON.stringify(options),
          created_at: created,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (n.children) await walk(n.children, row.id, [...ancestors, row.id]);
      else leaves.push({ id: row.id, ancestors: [...ancestors, row.id], seed: n });
    }
  };
  await walk(CATEGORY_TREE, null, []);
  return leaves;
}

async function seedReferenceData(db: Kysely<Database>) {
  await db
    .insertInto('attributes')
    .values([
      { name: 'color', display_label: 'Color', sort_order: 1 },
      { name: 'size', display_label: 'Size', sort_order: 2 },
    ])
    .execute();
  await db
    .insertInto('branches')
    .values(BRANCHES.map((b, i) => ({ ...b, sort_order: i })))
    .execute();
  await db
    .insertInto('currencies')
    .values(CURRENCIES.map((c, i) => ({ ...c, image_url: `/media/flags/${c.code}.svg`, sort_order: i })))
    .execute();
  await db
    .insertInto('kvps')
    .values(Object.entries(KVPS).map(([key, value]) => ({ key, value })))
    .execute();

  const ts = nowIso();
  const content = [
    ...PAGES.map((p, i) => ({ type: 'page', title: p.title, slug: p.slug, body: p.body, fields: '{}', sort_order: i })),
    {
      type: 'slider',
      title: 'The Monsoon Living Collection',
      slug: 'monsoon-living',
      body: 'Sofas and armchairs in new weaves, up to 25% off this month.',
      fields: JSON.stringify({ image: '/media/banner/sofa/5f7a8a.svg?t=Monsoon%20Living', link: '/shop?categoryName=Sofas' }),
      sort_order: 0,
    },
    {
      type: 'slider',
      title: 'Sleep Better',
      slug: 'sleep-better',
      body: 'Beds and orthopaedic mattresses with free delivery in Dhaka.',
      fields: JSON.stringify({ image: '/media/banner/bed/6a4c3a.svg?t=Sleep%20Better', link: '/shop?categoryName=Bedroom' }),
      sort_order: 1,
    },
    {
      type: 'slider',
      title: 'Work From Home, Properly',
      slug: 'work-from-home',
      body: 'Desks and ergonomic chairs that your back will thank you for.',
      fields: JSON.stringify({ image: '/media/banner/office-chair/3f4a56.svg?t=Work%20From%20Home', link: '/shop?categoryName=Office' }),
      sort_order: 2,
    },
    {
      type: 'article',
      title: 'Choosing the right sofa for a Dhaka flat',
      slug: 'choosing-a-sofa',
      body: 'Measure the door and the lift before you fall in love with an L-shape. Fabric breathes better in humid months; leatherette is easier to wipe.',
      fields: '{}',
      sort_order: 0,
    },
    {
      type: 'article',
      title: 'Caring for solid teak',
      slug: 'caring-for-teak',
      body: 'Dust weekly with a dry cloth, keep it out of direct sun, and oil it twice a year.',
      fields: '{}',
      sort_order: 1,
    },
    { type: 'bullet', title: 'Free delivery in Dhaka over ৳20,000', slug: 'free-delivery', body: '', fields: '{}', sort_order: 0 },
    { type: 'bullet', title: 'Five-year frame warranty', slug: 'warranty', body: '', fields: '{}', sort_order: 1 },
    { type: 'bullet', title: 'Pay by card, cash on delivery or book and pay later', slug: 'payment-options', body: '', fields: '{}', sort_order: 2 },
    {
      type: 'campaign',
      title: 'Winter Sale',
      slug: 'winter-sale',
      body: 'Up to 30% off across the store until the end of December.',
      fields: JSON.stringify({ image: '/media/banner/sofa/7a2e35.svg?t=Winter%20Sale', hasCampaign: true, link: '/sales' }),
      sort_order: 0,
    },
    {
      type: 'subscription-offer',
      title: 'First order 10% off',
      slug: 'first-order',
      body: 'Save your first order and get email only offer when you join',
      fields: JSON.stringify({ image: '/media/demo/armchair/a86b4c.svg', hasCampaign: true }),
      sort_order: 0,
    },
    ...CATALOGUE_CONTENT,
  ].map((c) => {
    // The Bangla versions written so far (docs/decisions/0038); the rest show in English.
    const bn = c.type === 'page' ? PAGES_BN[c.slug] : CONTENT_BN[c.slug];
    return { ...c, title_bn: bn?.title ?? null, body_bn: bn?.body ?? null, created_at: ts, updated_at: ts };
  });
  await db.insertInto('cms_content').values(content).execute();
}

/**
 * Products, skus, attribute values, images and stock. `products` may be large
 * (100,000 for benchmarks): rows are inserted in batches inside one transaction.
 */
async function seedProducts(db: Kysely<Database>, leaves: Leaf[], count: number, seed: number) {
  const r = rng(seed);
  const branchIds = (await db.selectFrom('branches').select('id').orderBy('id').execute()).map((b) => b.id);
  const attrs = Object.fromEntries((await db.selectFrom('attributes').select(['id', 'name']).execute()).map((a) => [a.name, a.id]));
  const startId =
    Number(
      (
        await db
          .selectFrom('products')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    ) + 1;
  const startSku =
    Number(
      (
        await db
          .selectFrom('skus')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    ) + 1;
  const now = Date.now();
  const DAY = 86_400_000;

  const chunk = 5000;
  let skuId = startSku;
  for (let base = 0; base < count; base += chunk) {
    const products: any[] = [];
    const images: any[] = [];
    const memberships: any[] = [];
    const skus: any[] = [];
    const values: any[] = [];
    const stocks: any[] = [];
    for (let i = base; i < Math.min(count, base + chunk); i++) {
      const id = startId + i;
      const leaf = leaves[i % leaves.length];
      const s = leaf.seed;
      // Picked in the same order as ever, so the demo catalogue stays the same.
      const [first, material, noun] = [r.pick(NAMES), r.pick(MATERIALS), r.pick(s.nouns ?? [s.name])];
      const name = `${first} ${material} ${noun}`;
      const nameBn = productTitleBn(first, material, noun);
      const line = r.next() < 0.5 ? 'AFL' : 'DFL';
      const model = `${line}-${1000 + id}`;
      const ageDays = r.int(0, 400);
      const [minP, maxP] = s.price ?? [10000, 50000];
      const basePrice = Math.round(r.int(minP, maxP) / 100) * 100;
      const wood = r.pick(MATERIALS);
      products.push({
        id,
        title: name,
        title_bn: nameBn,
        description_bn: nameBn ? productDescriptionBn(nameBn, wood, model) : null,
        slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${model.toLowerCase()}`,
        model_code: model,
        description: `The ${name} is built in our Gazipur factory from seasoned ${wood.toLowerCase()} and finished by hand. Model ${model}. Delivered and assembled by our own team, with a five-year frame warranty.`,
        kind: 'single',
        primary_category_id: leaf.id,
        is_new_arrival: ageDays < 45 ? 1 : 0,
        model_url: s.shape === 'sofa' ? '/sofa-3d' : null,
        created_at: new Date(now - ageDays * DAY - i * 1000).toISOString(),
      });
      for (const c of leaf.ancestors) memberships.push({ product_id: id, category_id: c });

      const colorCount = r.int(1, 3);
      const start = r.int(0, COLORS.length - 1);
      const colors = Array.from({ length: colorCount }, (_, k) => COLORS[(start + k * 3) % COLORS.length]);
      const sizes = s.sizes ?? [null];
      colors.forEach(([label, hex], ci) => {
        images.push({ product_id: id, url: `/media/demo/${s.shape}/${hex}.svg`, alt: `${name} in ${label}`, sort_order: ci, variant_value: hex });
      });
      const onSale = r.next() < 0.3;
      let order = 0;
      for (const [label, hex] of colors) {
        sizes.forEach((size, si) => {
          const price = (basePrice + si * Math.round((basePrice * 0.18) / 100) * 100) * 100;
          const code = `${model}-${label.slice(0, 3).toUpperCase()}${size ? `-${si + 1}` : ''}`;
          skus.push({
            id: skuId,
            product_id: id,
            code,
            sales_price: price,
            discounted_sales_price: onSale ? Math.round((price * (100 - r.int(8, 30))) / 100 / 100) * 100 : null,
            sort_order: order++,
          });
          values.push({ sku_id: skuId, attribute_id: attrs.color, value: hex, display_label: label });
          if (size) values.push({ sku_id: skuId, attribute_id: attrs.size, value: size.toLowerCase().replace(/\s+/g, '-'), display_label: size });
          for (const b of branchIds) {
            if (r.next() < 0.55) stocks.push({ sku_id: skuId, branch_id: b, quantity: r.int(0, 9) });
          }
          skuId++;
        });
      }
    }
    await insertBatches(db, 'products', products);
    await insertBatches(db, 'product_images', images);
    await insertBatches(db, 'product_categories', memberships);
    await insertBatches(db, 'skus', skus);
    await insertBatches(db, 'sku_attribute_values', values);
    await insertBatches(db, 'stocks', stocks);
  }
}

/** A few sets sold as one line (spec §3: bundles with skuDetails). */
async function seedBundles(db: Kysely<Database>, leaves: Leaf[]) {
  const pickSku = (slug: string) =>
    db
      .selectFrom('skus')
      .innerJoin('products', 'products.id', 'skus.product_id')
      .innerJoin('categories', 'categories.id', 'products.primary_category_id')
      .where('categories.slug', '=', slug)
      .select(['skus.id', 'skus.sales_price'])
      .orderBy('skus.id')
      .executeTakeFirst();
  const sets = [
    { title: 'Padma Living Room Set', parts: ['three-seater-sofas', 'coffee-tables', 'tv-units'], leaf: 'three-seater-sofas', shape: 'sofa', color: '5f7a8a' },
    { title: 'Meghna Bedroom Set', parts: ['queen-beds', 'wardrobes', 'dressing-tables'], leaf: 'queen-beds', shape: 'bed', color: '8c6a52' },
    { title: 'Teesta Dining Set', parts: ['dining-tables', 'dining-chairs'], leaf: 'dining-tables', shape: 'dining-table', color: '8b6443' },
    { title: 'Home Office Starter Set', parts: ['office-desks', 'office-chairs', 'bookshelves'], leaf: 'office-desks', shape: 'desk', color: '5d6a78' },
  ];
  const created = nowIso();
  let n = 0;
  for (const set of sets) {
    const leaf = leaves.find((l) => l.seed.slug === set.leaf)!;
    const parts = (await Promise.all(set.parts.map(pickSku))).filter(Boolean) as { id: number; sales_price: number }[];
    const total = parts.reduce((sum, p) => sum + p.sales_price, 0);
    const code = `BND-${100 + n++}`;
    const product = await db
      .insertInto('products')
      .values({
        title: set.title,
        title_bn: BUNDLE_TITLES_BN[set.title] ?? null,
        slug: set.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        model_code: code,
        description: `${set.title}: ${parts.length} pieces chosen to go together, for less than buying them one by one.`,
        kind: 'bundle',
        primary_category_id: leaf.id,
        is_new_arrival: 1,
        model_url: null,
        created_at: created,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('product_categories')
      .values(leaf.ancestors.map((c) => ({ product_id: product.id, category_id: c })))
      .execute();
    await db
      .insertInto('product_images')
      .values({ product_id: product.id, url: `/media/demo/${set.shape}/${set.color}.svg`, alt: set.title, sort_order: 0 })
      .execute();
    const sku = await db
      .insertInto('skus')
      .values({ product_id: product.id, code, sales_price: Math.round((total * 0.9) / 10000) * 10000, discounted_sales_price: null, sort_order: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('bundle_items')
      .values(parts.map((p) => ({ bundle_product_id: product.id, sku_id: p.id, quantity: 1 })))
      .execute();
    const branches = await db.selectFrom('branches').select('id').execute();
    await db
      .insertInto('stocks')
      .values(branches.map((b, i) => ({ sku_id: sku.id, branch_id: b.id, quantity: i % 2 ? 2 : 0 })))
      .execute();
  }
}

export interface SeedOptions {
  products: number;
  seed?: number;
}

/** Seeds an empty database with the demo shop. Returns false when data already exists. */
export async function seedIfEmpty(db: Kysely<Database>, dialect: Dialect, opts: SeedOptions = { products: 320 }): Promise<boolean> {
  // One transaction: a seed interrupted half-way leaves nothing behind, and two
  // processes starting at once on one PostgreSQL database seed it once.
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, dialect, SEED_LOCK);
    const existing = await trx.selectFrom('categories').select('id').limit(1).executeTakeFirst();
    if (existing) return false;
    await seedReferenceData(trx);
    const leaves = await seedCategories(trx);
    await seedProducts(trx, leaves, opts.products, opts.seed ?? 20261121);
    await syncSequences(trx, dialect, ['products', 'skus']);
    await seedBundles(trx, leaves);
    await seedPromotions(trx);
    return true;
  });
}

const SEED_LOCK = 7_001_001;
