import { account } from './bn/account.ts';
import { cart } from './bn/cart.ts';
import { catalogue } from './bn/catalogue.ts';
import { checkout } from './bn/checkout.ts';
import { common } from './bn/common.ts';
import { content } from './bn/content.ts';
import { images } from './bn/images.ts';
import { layout } from './bn/layout.ts';
import { mail } from './bn/mail.ts';
import { validation } from './bn/validation.ts';

// The message catalogue (docs/decisions/0038). A message's id is its English text as the
// code writes it, in ICU message syntax, so the English shop needs no catalogue of its own
// and keeps the specification's wording word for word; the Bangla catalogue maps each id to
// its Bangla. The parts are split by area of the shop only to keep each file readable.

/** English message (the id) -> Bangla message. */
export type Catalog = Record<string, string>;

export const BN_PARTS: Record<string, Catalog> = { common, layout, content, catalogue, images, cart, checkout, account, validation, mail };

/** Every Bangla message, by id. */
export const BN: Catalog = Object.assign({}, ...Object.values(BN_PARTS));
