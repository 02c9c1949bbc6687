import type { FastifyInstance } from 'fastify';
import { adminRoutes } from './admin/index.ts';
import { cmsArticleRoutes } from './cms/articles.ts';
import { healthRoutes } from './health.ts';
import { kvpsRoutes } from './kvps.ts';
import { checkoutRoutes } from './checkouts.ts';
import { qrRoutes } from './qrs.ts';
import { pathaoWebhookRoutes } from './couriers/pathao.ts';
import { steadfastWebhookRoutes } from './couriers/steadfast.ts';
import { salesRoutes } from './sales.ts';
import { deliveryRoutes } from './delivery.ts';
import { attributeRoutes } from './attributes.ts';
import { branchRoutes } from './branches.ts';
import { bundleRoutes } from './bundles.ts';
import { categoryRoutes } from './categories.ts';
import { cmsCatalogueRoutes } from './cms/catalogue-content.ts';
import { itemRoutes } from './items.ts';
import { optionRoutes } from './options.ts';
import { searchIndexRoutes } from './search/indices.ts';
import { stockRoutes } from './stocks.ts';
import { itemsV2Routes } from './v2/items.ts';
import { itemsV3Routes } from './v3/items.ts';
import { contactRoutes } from './contact.ts';
import { subscriptionRoutes } from './emails/subscriptions.ts';
import { cartQuoteRoutes } from './carts/quote.ts';
import { currencyRoutes } from './currencies/conversions.ts';
import { couponRoutes } from './discount/coupons.ts';
import { globalDiscountRoutes } from './global/discounts.ts';
import { fileRoutes } from './files/index.ts';
import { addressRoutes } from './addresses.ts';
import { authRoutes } from './auth.ts';
import { customerRoutes } from './customers.ts';
import { forgotRoutes } from './forgot.ts';
import { signinRoutes } from './signin/customers.ts';
import { signupRoutes } from './signup.ts';
import { wishlistItemRoutes } from './wishlists/items.ts';

/** Every /api route module, registered in one place so a newcomer can see the whole API. */
export async function apiRoutes(app: FastifyInstance) {
  await app.register(healthRoutes);
  await app.register(kvpsRoutes);
  await app.register(cmsArticleRoutes);
  // Catalogue
  await app.register(categoryRoutes);
  await app.register(itemsV3Routes);
  await app.register(itemsV2Routes);
  await app.register(itemRoutes);
  await app.register(searchIndexRoutes);
  await app.register(bundleRoutes);
  await app.register(stockRoutes);
  await app.register(branchRoutes);
  await app.register(optionRoutes);
  await app.register(attributeRoutes);
  await app.register(cmsCatalogueRoutes);
  await app.register(subscriptionRoutes);
  await app.register(contactRoutes);
  await app.register(globalDiscountRoutes);
  await app.register(couponRoutes);
  await app.register(cartQuoteRoutes);
  await app.register(currencyRoutes);
  await app.register(fileRoutes);
  await app.register(signupRoutes);
  await app.register(signinRoutes);
  await app.register(authRoutes);
  await app.register(customerRoutes);
  await app.register(forgotRoutes);
  await app.register(addressRoutes);
  await app.register(wishlistItemRoutes);
  // Checkout, payments, orders and bookings
  await app.register(checkoutRoutes);
  await app.register(salesRoutes);
  await app.register(deliveryRoutes);
  await app.register(qrRoutes);
  // Couriers' status updates (docs/decisions/0040)
  await app.register(steadfastWebhookRoutes);
  await app.register(pathaoWebhookRoutes);
  // The back office
  await app.register(adminRoutes);
}
