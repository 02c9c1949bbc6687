import type { Catalog } from '../catalog.ts';

// Bangla for texts every page shares. Keys are the English messages exactly as the code
// says them (ICU syntax: {name} for a value, {count, plural, one {…} other {…}}, <0>…</0> for
// a link or emphasis); values are the Bangla (docs/decisions/0038).
export const common: Catalog = {
  'Skip to content': 'মূল বিষয়বস্তুতে যান',
  'Language: {current}. Show this page in {other}': 'ভাষা: {current}। এই পাতাটি {other} ভাষায় দেখুন',
  'Hotline {hotline}': 'হটলাইন {hotline}',
  // Words many screens share: reuse these rather than give them a second Bangla.
  Close: 'বন্ধ করুন',
  Cancel: 'বাতিল',
  'Try again': 'আবার চেষ্টা করুন',
  'Loading…': 'লোড হচ্ছে…',
};
