import type { Catalog } from '../catalog.ts';

// Bangla for the shop's catalogue texts. Keys are the English messages exactly as the code says
// them (ICU syntax: {name} for a value, {count, plural, one {…} other {…}}, <0>…</0> for a
// link or emphasis); values are the Bangla (docs/decisions/0038).
// Here: the listings (shop, new arrivals, sales), product cards, the product page, the search
// field and the wishlist. Shop, New Arrivals, Sales, Home and Browse the shop are in layout.ts,
// Showroom in content.ts.
export const catalogue: Catalog = {
  // Listing screens: titles, meta descriptions (routes/shop.tsx, new-arrival.tsx, sales.tsx)
  '{title} – page {page}': '{title} – পাতা {page}',
  '{title}: {first} and more. {about}': '{title}: {first} এবং আরও অনেক কিছু। {about}',
  'Sofas, beds, dining, office and storage furniture made in Bangladesh. Browse by category, filter by colour, size and price.':
    'বাংলাদেশে তৈরি সোফা, খাট, ডাইনিং, অফিস ও স্টোরেজ ফার্নিচার। ক্যাটাগরি ধরে দেখুন, রং, মাপ ও দাম দিয়ে ফিল্টার করুন।',
  'The newest furniture in the shop: pieces added in the last weeks.': 'শপের সবচেয়ে নতুন ফার্নিচার: গত কয়েক সপ্তাহে যোগ হওয়া পণ্য।',
  'Furniture on sale now: reduced prices across sofas, beds, dining and office.': 'এখন সেলে থাকা ফার্নিচার: সোফা, খাট, ডাইনিং ও অফিসের ফার্নিচারে কম দাম।',
  'New in {category}': '{category}-এ নতুন',
  '{category} on sale': 'সেলে {category}',
  'Results for “{q}”': '“{q}”-এর ফলাফল',
  'All furniture': 'সব ফার্নিচার',
  Breadcrumb: 'পাতার অবস্থান',

  // Listing: count, sorting, filters, empty states
  'Exact model number match': 'মডেল নম্বর হুবহু মিলেছে',
  '{count, plural, one {# product} other {# products}}': '{count, plural, one {#টি পণ্য} other {#টি পণ্য}}',
  Filters: 'ফিল্টার',
  Products: 'পণ্য',
  'No products found': 'কোনো পণ্য পাওয়া যায়নি',
  'This page is past the end of the list.': 'তালিকা এই পাতার আগেই শেষ হয়ে গেছে।',
  'Nothing matches “{q}” with these filters. Check the spelling, try fewer words, or search for a model number such as AFL-1021.':
    'এই ফিল্টারগুলো দিয়ে “{q}” খুঁজে কিছু পাওয়া যায়নি। বানান দেখে নিন, কম শব্দে খুঁজুন, অথবা AFL-1021-এর মতো মডেল নম্বর দিয়ে খুঁজুন।',
  'Nothing matches “{q}”. Check the spelling, try fewer words, or search for a model number such as AFL-1021.':
    '“{q}”-এর সাথে মেলে এমন কিছু পাওয়া যায়নি। বানান দেখে নিন, কম শব্দে খুঁজুন, অথবা AFL-1021-এর মতো মডেল নম্বর দিয়ে খুঁজুন।',
  'Nothing matches all of these filters. Remove one to see more.': 'এই সবগুলো ফিল্টারের সাথে মেলে এমন কিছু নেই। আরও দেখতে একটি ফিল্টার সরিয়ে দিন।',
  'There is nothing here yet. Have a look around the rest of the shop.': 'এখানে এখনো কিছু নেই। শপের বাকি অংশ ঘুরে দেখুন।',
  'Back to page 1': 'প্রথম পাতায় ফিরে যান',
  'Clear filters': 'ফিল্টার মুছে দিন',
  'Browse all furniture': 'সব ফার্নিচার দেখুন',
  'Sort by': 'সাজান',
  // SHOP_SORT_LABELS (packages/shared/src/catalogue.ts)
  'Best match': 'সবচেয়ে মানানসই',
  Newest: 'নতুনগুলো আগে',
  'Price: low to high': 'দাম: কম থেকে বেশি',
  'Price: high to low': 'দাম: বেশি থেকে কম',
  'Name: A to Z': 'নাম: বর্ণানুক্রমে',
  'From {price}': '{price} থেকে',
  'Up to {price}': '{price} পর্যন্ত',
  'Active filters': 'চালু ফিল্টার',
  'Remove filter {filter}': '{filter} ফিল্টারটি সরান',
  'Clear all': 'সব মুছুন',
  Category: 'ক্যাটাগরি',
  'Model number': 'মডেল নম্বর',
  'Show fewer': 'কম দেখান',
  'Show all {count}': 'সব {count}টি দেখান',
  'Price range': 'দামের সীমা',
  'Price (৳)': 'দাম (৳)',
  Min: 'সর্বনিম্ন',
  Max: 'সর্বোচ্চ',
  'Apply price': 'এই দামে দেখুন',
  Pages: 'পাতা',
  'Previous page': 'আগের পাতা',
  'Page {page}': 'পাতা {page}',
  'Next page': 'পরের পাতা',

  // Product cards and prices
  Was: 'আগের দাম',
  New: 'নতুন',
  Set: 'সেট',
  'Available in {colors}': '{colors} রঙে পাওয়া যায়',
  From: 'দাম শুরু',
  'Choose options': 'অপশন বেছে নিন',

  // The search field in the header
  'Search products or model numbers': 'পণ্য বা মডেল নম্বর খুঁজুন',
  'Search sofas, beds, AFL-1021…': 'খুঁজুন: সোফা, খাট, AFL-1021…',
  Search: 'খুঁজুন',

  // Product page: options, stock, delivery, sections
  'choose one': 'একটি বেছে নিন',
  'not available with the other choices': 'অন্য পছন্দগুলোর সাথে পাওয়া যায় না',
  'In stock: {total} available at {places, plural, one {# showroom} other {# showrooms}}':
    'স্টকে আছে: {places, plural, one {#টি শোরুমে} other {#টি শোরুমে}} মোট {total}টি',
  'Out of stock in every showroom': 'কোনো শোরুমে স্টকে নেই',
  'Stock of the chosen option per showroom': 'বেছে নেওয়া অপশনের শোরুমভিত্তিক স্টক',
  City: 'শহর',
  Stock: 'স্টক',
  '{count} in stock': 'স্টকে {count}টি',
  None: 'নেই',
  'Home delivery and assembly': 'হোম ডেলিভারি ও অ্যাসেম্বলি',
  'Elsewhere in Bangladesh': 'বাংলাদেশের অন্যান্য এলাকা',
  today: 'আজই',
  '{days, plural, one {# day} other {# days}}': '{days, plural, one {# দিন} other {# দিন}}',
  '{min}–{max} days': '{min}–{max} দিন',
  free: 'ফ্রি',
  '{fee}, free from {amount}': '{fee}, {amount} বা তার বেশিতে ফ্রি',
  'Model <0>{code}</0>': 'মডেল <0>{code}</0>',
  'Option <0>{code}</0>': 'অপশন <0>{code}</0>',
  'View this sofa in 3D': 'সোফাটি থ্রিডিতে দেখুন',
  'About this product': 'পণ্যটি সম্পর্কে',
  'In this set': 'এই সেটে যা আছে',
  'Care and buying guides': 'যত্ন ও কেনার গাইড',
  'Availability in our showrooms': 'আমাদের শোরুমে প্রাপ্যতা',
  'For {option}': '{option}-এর জন্য',
  'You may also like': 'আপনার আরও পছন্দ হতে পারে',

  // Wishlist: the heart and the account's wishlist tab
  'Add to wishlist': 'উইশলিস্টে রাখুন',
  'Remove from wishlist': 'উইশলিস্ট থেকে সরান',
  'Add {title} to wishlist': 'উইশলিস্টে {title} রাখুন',
  'Remove {title} from wishlist': 'উইশলিস্ট থেকে {title} সরান',
  '{title} saved to your wishlist': '{title} আপনার উইশলিস্টে রাখা হয়েছে',
  '{title} removed from your wishlist': '{title} আপনার উইশলিস্ট থেকে সরানো হয়েছে',
  'Could not update your wishlist': 'উইশলিস্ট আপডেট করা যায়নি',
  'Your wishlist could not be loaded. Please try again.': 'আপনার উইশলিস্ট লোড করা যায়নি। আবার চেষ্টা করুন।',
  'Your wishlist is empty': 'আপনার উইশলিস্ট খালি',
  'Tap the heart on any product to keep it here.': 'যেকোনো পণ্যের হার্টে চাপ দিন, পণ্যটি এখানে থেকে যাবে।',
  Wishlist: 'উইশলিস্ট',
  'Wishlist pages': 'উইশলিস্টের পাতা',
  Newer: 'নতুনগুলো',
  Older: 'পুরোনোগুলো',
  // What the wishlist API answers (apps/api/src/modules/wishlists)
  'A wishlist holds at most 500 items. Please remove some first.': 'উইশলিস্টে সর্বোচ্চ ৫০০টি পণ্য রাখা যায়। আগে কিছু সরিয়ে দিন।',
  'The wishlist item was not found': 'উইশলিস্টের পণ্যটি পাওয়া যায়নি',
};
