import type { Migration } from 'kysely/migration';
import * as m0001 from './2026-11-21-0001-catalogue.ts';
import * as m0002 from './2026-11-21-0002-mail-outbox.ts';
import * as m0003 from './2026-11-21-0003-accounts.ts';
import * as m0006 from './2026-11-21-0006-files.ts';
import * as m0005 from './2026-11-21-0005-engagement.ts';
import * as m0007 from './2026-11-21-0007-promotions.ts';
import * as m0008 from './2026-11-21-0008-orders-payments.ts';
import * as m0004 from './2026-11-21-0004-catalogue-search.ts';
import * as m0009 from './2026-11-22-0009-checkout-keys.ts';
import * as m0010 from './2026-11-23-0010-order-limits.ts';
import * as m0011 from './2026-11-23-0011-file-quotas.ts';
import * as m0012 from './2026-11-23-0012-installation-secrets.ts';
import * as m0013 from './2026-11-24-0013-listing-indexes.ts';
import * as m0014 from './2026-11-24-0014-search-words.ts';
import * as m0015 from './2026-11-25-0015-back-office.ts';
import * as m0016 from './2026-11-25-0016-catalogue-imports.ts';
import * as m0017 from './2026-11-25-0017-order-workflow.ts';
import * as m0018 from './2026-11-25-0018-delivery-zones.ts';
import * as m0019 from './2026-11-25-0019-promotions-admin.ts';
import * as m0020 from './2026-11-25-0020-content-admin.ts';
import * as m0021 from './2026-11-25-0021-inbox-and-mail.ts';
import * as m0022 from './2026-11-25-0022-settings-and-currencies.ts';
import * as m0023 from './2026-11-25-0023-staff-invites.ts';
import * as m0024 from './2026-11-27-0024-bangla-catalogue.ts';
import * as m0025 from './2026-11-27-0025-shopper-language.ts';
import * as m0027 from './2026-11-27-0027-consignments.ts';
import * as m0028 from './2026-11-27-0028-courier-payouts.ts';
import * as m0029 from './2026-11-27-0029-provider-tokens.ts';
import * as m0030 from './2026-11-28-0030-unique-rules.ts';
import * as m0031 from './2026-11-28-0031-catalogue-import-parts.ts';
import * as m0032 from './2026-11-28-0032-refund-request-hash.ts';

/**
 * Every migration, by its date-prefixed name. Listed statically (not read from the
 * folder) so that bundlers and tests see the same set. Add new ones at the end.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-21-0001-catalogue': m0001,
  '2026-11-21-0002-mail-outbox': m0002,
  '2026-11-21-0006-files': m0006,
  '2026-11-21-0005-engagement': m0005,
  '2026-11-21-0003-accounts': m0003,
  '2026-11-21-0007-promotions': m0007,
  '2026-11-21-0008-orders-payments': m0008,
  '2026-11-21-0004-catalogue-search': m0004,
  '2026-11-22-0009-checkout-keys': m0009,
  '2026-11-23-0010-order-limits': m0010,
  '2026-11-23-0011-file-quotas': m0011,
  '2026-11-23-0012-installation-secrets': m0012,
  '2026-11-24-0013-listing-indexes': m0013,
  '2026-11-24-0014-search-words': m0014,
  '2026-11-25-0015-back-office': m0015,
  '2026-11-25-0016-catalogue-imports': m0016,
  '2026-11-25-0017-order-workflow': m0017,
  '2026-11-25-0018-delivery-zones': m0018,
  '2026-11-25-0019-promotions-admin': m0019,
  '2026-11-25-0020-content-admin': m0020,
  '2026-11-25-0021-inbox-and-mail': m0021,
  '2026-11-25-0022-settings-and-currencies': m0022,
  '2026-11-25-0023-staff-invites': m0023,
  '2026-11-27-0024-bangla-catalogue': m0024,
  '2026-11-27-0025-shopper-language': m0025,
  '2026-11-27-0027-consignments': m0027,
  '2026-11-27-0028-courier-payouts': m0028,
  '2026-11-27-0029-provider-tokens': m0029,
  '2026-11-28-0030-unique-rules': m0030,
  '2026-11-28-0031-catalogue-import-parts': m0031,
  '2026-11-28-0032-refund-request-hash': m0032,
};
