import {
  type Locale,
  localeOf,
  PAGE_SIZE,
  type ShopReads,
  type TCategory,
  type TCurrencyConversion,
  type TDeliveryZone,
  type TGlobalDiscount,
  ZItemSearchRequest,
  ZSearchRequest,
} from '@storefront/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../lib/errors.ts';
import { sessionToken } from '../modules/accounts/sessions.ts';
import {
  attachments,
  attributeTexts,
  branchList,
  homeContent,
  itemArticles,
  itemBullets,
  itemContent,
  itemDetails,
  linkedItems,
  options,
  productPage,
  searchCategories,
  searchStock,
  siteBullets,
  sliders,
  variantImages,
} from '../modules/catalogue/catalogue.service.ts';
import { slugRedirect } from '../modules/catalogue/catalogue.repository.ts';
import { searchItems } from '../modules/catalogue/search.service.ts';
import { deliveryZones } from '../modules/delivery/delivery.service.ts';
import { listCurrencies } from '../modules/currencies/currencies.service.ts';
import { searchDiscounts } from '../modules/pricing/pricing.service.ts';
import { searchContent, siteSettings } from '../modules/site/site.service.ts';
import { orderAccessSetCookie, orderLinkFor, orderLinkMatches, type OrderViewer, requestTokens, serializeAccessCookie } from '../modules/orders/access.ts';
import { saleByInvoice } from '../modules/orders/repository.ts';
import { orderDeps } from '../modules/orders/deps.ts';
import { invoiceQr } from '../modules/orders/invoice-qr.ts';
import { accessibleSale, getSale, searchSales } from '../modules/orders/view-orders.ts';
import { findNul } from '../plugins/text-input.ts';
import { ZSaleRef } from '../routes/api/sales.ts';
import { ZItemLookup } from '../routes/api/v3/items.ts';
import { countItems as wishlistCount } from '../modules/wishlists/wishlists.repository.ts';

// Page loaders read through these functions rather than through the REST API
// (docs/decisions/0029): the same service functions the routes call, with the routes'
// input schemas, in this process. What the header and footer of every page show is
// computed once and kept (ShellMemo) until the catalogue changes or SHELL_CACHE_MS passes.
// Catalogue texts come in the page's language (docs/decisions/0038): the Bangla title, name,
// description or body where one was entered, the English otherwise; the shell is kept per
// language.

interface Shell {
  settings: Record<string, string>;
  categories: TCategory[];
  currencies: TCurrencyConversion[];
  discounts: TGlobalDiscount[];
  deliveryZones: TDeliveryZone[];
}

/** The shell data, computed by one caller while the others wait for the same answer. */
export class ShellMemo {
  private readonly values = new Map<Locale, { at: number; generation: number; promise: Promise<Shell> }>();

  constructor(private readonly app: FastifyInstance) {}

  get(lang: Locale = 'en'): Promise<Shell> {
    const ttl = this.app.config.shellCacheMs;
    const now = Date.now();
    const generation = this.app.readCache.generation;
    const v = this.values.get(lang);
    if (v && ttl > 0 && now - v.at < ttl && v.generation === generation) return v.promise;
    const promise = computeShell(this.app, lang);
    if (ttl > 0) {
      this.values.set(lang, { at: now, generation, promise });
      // A failure is not kept: the next page tries again.
      promise.catch(() => {
        if (this.values.get(lang)?.promise === promise) this.values.delete(lang);
      });
    }
    return promise;
  }
}

async function computeShell(app: FastifyInstance, lang: Locale): Promise<Shell> {
  const db = app.db.kysely;
  const [settings, categories, currencies, discounts, zones] = await Promise.all([
    siteSettings(db),
    (async () => {
      const all: TCategory[] = [];
      for (let page = 1; page <= 40; page++) {
        const res = await searchCategories(db, ZSearchRequest.parse({ page, size: PAGE_SIZE.category }), lang);
        all.push(...res.list);
        if (!res.nextPageToken) break;
      }
      return all;
    })(),
    listCurrencies(db, 1, PAGE_SIZE.currency).then((p) => p.list),
    (async () => {
      const all: TGlobalDiscount[] = [];
      for (let page = 1; page <= 20; page++) {
        const res = await searchDiscounts(db, ZSearchRequest.parse({ page, size: 100, textParams: [{ field: 'valid', value: true }] }));
        all.push(...res.list);
        if (!res.nextPageToken) break;
      }
      return all;
    })(),
    deliveryZones(db),
  ]);
  return { settings, categories, currencies, discounts, deliveryZones: zones };
}

/** The route's input schema, with the API's answer to a value it refuses (400 bad_request). */
function parsed<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, input: unknown): T {
  // As the API's text-input check: PostgreSQL cannot store NUL, and no field has a use for it.
  if (findNul(input) !== null) throw badRequest('Text may not contain NUL characters');
  const r = schema.safeParse(input);
  if (!r.success) throw badRequest('The request is not valid');
  return r.data;
}

/** The reads of one page request: the session is looked up at most once. */
export function shopReads(app: FastifyInstance, shell: ShellMemo, req: FastifyRequest): ShopReads {
  const db = app.db.kysely;
  const dialect = app.db.dialect;
  // The page's language, as WebLoadContext.lang decides it: `?lang=`, else the cookie.
  const lang = localeOf(req.url, req.headers.cookie);
  let customer: Promise<{ customerId: number } | null> | undefined;
  const signedIn = () => {
    customer ??= (async () => {
      const token = sessionToken(req);
      return token ? app.accounts.resolveToken(token) : null;
    })();
    return customer;
  };
  // Who asks for an order (docs/decisions/0018): the signed-in customer, or the guest
  // holding the order-access cookie.
  // A mailed order link opened on this page counts as the header an API client sends.
  const viewer = async (orderLink?: string | null): Promise<OrderViewer> => {
    const tokens = requestTokens(req);
    return {
      customerId: (await signedIn())?.customerId ?? null,
      tokens: orderLink ? { ...tokens, header: orderLink.slice(0, 100) } : tokens,
      linkSecret: app.orderLinkSecret,
    };
  };
  return {
    siteSettings: async () => (await shell.get(lang)).settings,
    allCategories: async () => (await shell.get(lang)).categories,
    currencies: async () => (await shell.get(lang)).currencies,
    discountsInForce: async () => (await shell.get(lang)).discounts,
    deliveryZones: async () => (await shell.get(lang)).deliveryZones,
    async shopper() {
      const s = await signedIn();
      if (!s) return null;
      const [c, count] = await Promise.all([app.accounts.getCustomer(s.customerId), wishlistCount(db, s.customerId)]);
      return { customer: c, wishlistCount: count };
    },
    options: () => options(db),
    searchItems: (body, mode) => searchItems(db, dialect, parsed(ZItemSearchRequest, body), mode, { lang }),
    async item(input) {
      const by = parsed(ZItemLookup, input);
      if ([by.id, by.slug, by.code].filter((v) => v !== undefined).length !== 1) {
        throw badRequest('Give exactly one of id, slug or code', { id: 'exactly one of id, slug or code' });
      }
      return itemDetails(db, { ...by, code: by.code?.trim().toUpperCase() }, lang);
    },
    async slugRedirect(slug) {
      return (await slugRedirect(db, slug.slice(0, 200)))?.slug ?? null;
    },
    async productPage(input, relatedSize) {
      const by = parsed(ZItemLookup, input);
      if ([by.id, by.slug, by.code].filter((v) => v !== undefined).length !== 1) {
        throw badRequest('Give exactly one of id, slug or code', { id: 'exactly one of id, slug or code' });
      }
      return productPage(db, { ...by, code: by.code?.trim().toUpperCase() }, { size: relatedSize }, lang);
    },
    itemContent: (id) => itemContent(db, id, lang),
    itemBullets: (id) => itemBullets(db, id, lang),
    itemArticles: (id) => itemArticles(db, id, lang),
    variantImages: (id) => variantImages(db, id),
    branches: () => branchList(db),
    linkedItems: (r) => linkedItems(db, parsed(ZSearchRequest, r), lang),
    attachments: (r) => attachments(db, parsed(ZSearchRequest, r), lang),
    attributeTexts: () => attributeTexts(db, undefined, lang),
    stock: (r) => searchStock(db, parsed(ZSearchRequest, r)),
    sliders: () => sliders(db, lang),
    homeContent: (articles) => homeContent(db, articles, lang),
    siteBullets: () => siteBullets(db, lang),
    content: (r) => searchContent(db, parsed(ZSearchRequest, r), lang),
    sale: async (ref, orderLink) => getSale(orderDeps(app, req.log), await viewer(orderLink), parsed(ZSaleRef, ref)),
    async rememberOrderLink(invoiceId, orderLink) {
      const sale = await saleByInvoice(db, invoiceId.slice(0, 40));
      if (!sale || sale.customer_id !== null || !orderLinkMatches(app.orderLinkSecret, sale.invoice_id, orderLink)) return null;
      const cookie = requestTokens(req).cookie;
      cookie.delete(sale.invoice_id);
      cookie.set(sale.invoice_id, orderLink);
      return orderAccessSetCookie(serializeAccessCookie(cookie), app.config.publicUrl);
    },
    sales: async (r) => searchSales(orderDeps(app, req.log), await viewer(), parsed(ZSearchRequest, r)),
    async invoiceQr(invoiceId, size, orderLink) {
      const sale = await accessibleSale(orderDeps(app, req.log), await viewer(orderLink), parsed(ZSaleRef, { invoiceId }));
      return (await invoiceQr(app.config.publicUrl, sale.invoice_id, size, 'svg', orderLinkFor(app.orderLinkSecret, sale))) as string;
    },
  };
}
