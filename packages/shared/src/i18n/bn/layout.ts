import type { Catalog } from '../catalog.ts';

// Bangla for the shop's layout texts. Keys are the English messages exactly as the code says
// them (ICU syntax: {name} for a value, {count, plural, one {…} other {…}}, <0>…</0> for a
// link or emphasis); values are the Bangla (docs/decisions/0038).
export const layout: Catalog = {};
