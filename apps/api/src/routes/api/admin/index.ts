import type { FastifyInstance } from 'fastify';
import { adminCatalogueRoutes } from './catalogue.ts';
import { adminCustomersRoutes } from './customers.ts';
import { adminDashboardRoutes } from './dashboard.ts';
import { adminDeliveryRoutes } from './delivery.ts';
import { adminSettingsRoutes } from './settings.ts';
import { adminInboxRoutes } from './inbox.ts';
import { adminContentRoutes } from './content.ts';
import { adminPromotionsRoutes } from './promotions.ts';
import { adminImportRoutes } from './imports.ts';
import { adminOrdersRoutes } from './orders.ts';
import { adminConsignmentRoutes } from './consignments.ts';
import { adminCodRoutes } from './cod.ts';
import { adminCourierRoutes } from './couriers.ts';
import { adminPriceRoutes } from './prices.ts';
import { adminSessionRoutes } from './session.ts';
import { adminStaffRoutes } from './staff.ts';
import { adminTaxonomyRoutes } from './taxonomy.ts';

/** The back office's API, /api/admin/* (docs/decisions/0031); every route declares its permission. */
export async function adminRoutes(app: FastifyInstance) {
  await app.register(adminSessionRoutes);
  await app.register(adminStaffRoutes);
  await app.register(adminCatalogueRoutes);
  await app.register(adminPriceRoutes);
  await app.register(adminImportRoutes);
  await app.register(adminTaxonomyRoutes);
  await app.register(adminOrdersRoutes);
  await app.register(adminConsignmentRoutes);
  await app.register(adminCodRoutes);
  await app.register(adminCourierRoutes);
  await app.register(adminCustomersRoutes);
  await app.register(adminDashboardRoutes);
  await app.register(adminDeliveryRoutes);
  await app.register(adminPromotionsRoutes);
  await app.register(adminContentRoutes);
  await app.register(adminInboxRoutes);
  await app.register(adminSettingsRoutes);
}
