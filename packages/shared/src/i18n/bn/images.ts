import type { Catalog } from '../catalog.ts';

// Bangla for the product gallery and image texts. Keys are the English messages exactly as
// the code says them (docs/decisions/0038).
export const images: Catalog = {};
