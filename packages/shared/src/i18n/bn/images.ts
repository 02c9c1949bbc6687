import type { Catalog } from '../catalog.ts';

// Bangla for the product gallery and image texts. Keys are the English messages exactly as
// the code says them (docs/decisions/0038). 'Zoom in' and 'Zoom out' are in content.ts.
export const images: Catalog = {
  Pictures: 'ছবিগুলো',
  Picture: 'ছবি',
  'Picture gallery': 'ছবির গ্যালারি',
  'Previous picture': 'আগের ছবি',
  'Next picture': 'পরের ছবি',
  'Close the gallery': 'গ্যালারি বন্ধ করুন',
  'Enlarge picture: {name}': 'ছবি বড় করে দেখুন: {name}',
  'Show picture {number} of {total}: {name}': '{total}টির মধ্যে {number} নম্বর ছবি দেখুন: {name}',
  '{index} of {total}': '{total}টির মধ্যে {index}',
};
