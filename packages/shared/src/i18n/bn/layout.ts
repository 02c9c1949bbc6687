import type { Catalog } from '../catalog.ts';

// Bangla for the shop's layout texts. Keys are the English messages exactly as the code says
// them (ICU syntax: {name} for a value, {count, plural, one {…} other {…}}, <0>…</0> for a
// link or emphasis); values are the Bangla (docs/decisions/0038).
// Here: the header, the menus, the footer, the error pages and the small shared controls
// (modal, sheet, toasts, progress).
export const layout: Catalog = {
  // Header and menus
  'Open menu': 'মেনু খুলুন',
  '{brand} home': '{brand} হোম',
  Main: 'প্রধান মেনু',
  Shop: 'শপ',
  'New Arrivals': 'নতুন এসেছে',
  Sales: 'সেল',
  Showrooms: 'শোরুম',
  Menu: 'মেনু',
  Mobile: 'মোবাইল মেনু',
  Home: 'হোম',
  'About Us': 'আমাদের সম্পর্কে',
  Contact: 'যোগাযোগ',
  'My account': 'আমার অ্যাকাউন্ট',
  'My Account': 'আমার অ্যাকাউন্ট',
  'My Orders': 'আমার অর্ডার',
  Categories: 'ক্যাটাগরি',
  'All {category}': 'সব {category}',

  // Footer
  Footer: 'ফুটার',
  'Contact Us': 'যোগাযোগ করুন',
  'Our Showroom': 'আমাদের শোরুম',
  'Product Catalog': 'পণ্যের ক্যাটালগ',
  'Our Company': 'আমাদের প্রতিষ্ঠান',
  'Company Profile': 'কোম্পানি প্রোফাইল',
  'License and Certificates': 'লাইসেন্স ও সনদ',
  Career: 'ক্যারিয়ার',
  Press: 'সংবাদমাধ্যম',
  'Customer Service': 'গ্রাহকসেবা',
  'Terms and Conditions': 'শর্তাবলি',
  'Privacy Policy': 'গোপনীয়তা নীতি',
  'Return and Refund Policy': 'রিটার্ন ও রিফান্ড নীতি',
  'Delivery and Shipping Information': 'ডেলিভারি ও শিপিং তথ্য',
  'Follow Us': 'আমাদের সাথে থাকুন',
  Facebook: 'ফেসবুক',
  Instagram: 'ইনস্টাগ্রাম',
  YouTube: 'ইউটিউব',
  LinkedIn: 'লিংকডইন',
  'Hotline <0>{hotline}</0>': 'হটলাইন <0>{hotline}</0>',
  'International <0>{phone}</0>': 'আন্তর্জাতিক <0>{phone}</0>',
  'We accept': 'আমরা যেভাবে পেমেন্ট নিই',
  'Secure payment by SSLCOMMERZ': 'SSLCOMMERZ-এর মাধ্যমে নিরাপদ পেমেন্ট',
  '© {year} <0>{brand}</0>. All rights reserved.': '© {year} <0>{brand}</0>। সর্বস্বত্ব সংরক্ষিত।',

  // Error pages (ERROR_PAGE_DEFAULTS, routes/not-found.tsx)
  'Page Not Found': 'পাতাটি পাওয়া যায়নি',
  'Internal Server Error': 'সার্ভারে সমস্যা হয়েছে',
  'The page you are looking for does not exist.': 'আপনি যে পাতাটি খুঁজছেন সেটি নেই।',
  'Something went wrong on our side. Please try again in a moment.': 'আমাদের দিকে একটি সমস্যা হয়েছে। একটু পরে আবার চেষ্টা করুন।',
  'Page not found: {path}': 'পাতাটি পাওয়া যায়নি: {path}',
  'Back to home': 'হোমে ফিরে যান',
  'Browse the shop': 'শপ ঘুরে দেখুন',

  // Shared controls
  Notifications: 'নোটিফিকেশন',
  'Notifications ({position})': 'নোটিফিকেশন ({position})',
  'top left': 'উপরে বাঁয়ে',
  'top centre': 'উপরে মাঝখানে',
  'top right': 'উপরে ডানে',
  'bottom left': 'নিচে বাঁয়ে',
  'bottom centre': 'নিচে মাঝখানে',
  'bottom right': 'নিচে ডানে',
  '{message} (dismiss)': '{message} (বন্ধ করুন)',
  'Loading page': 'পাতা লোড হচ্ছে',
  'This could not be opened. Please check your connection and try again.': 'এটি খোলা যায়নি। আপনার ইন্টারনেট সংযোগ দেখে আবার চেষ্টা করুন।',
  'Working…': 'কাজ চলছে…',
  'Upload progress': 'আপলোডের অগ্রগতি',
  'Cancel uploading {name}': '{name} আপলোড বাতিল করুন',
  'Processing…': 'প্রসেস হচ্ছে…',
  '{loaded} of {total} · {percent}%': '{total}-এর মধ্যে {loaded} · {percent}%',
  '{loaded} received': '{loaded} পাওয়া গেছে',
  Uploaded: 'আপলোড হয়েছে',
  'Upload cancelled': 'আপলোড বাতিল হয়েছে',
};
