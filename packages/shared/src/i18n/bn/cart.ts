import type { Catalog } from '../catalog.ts';

// Bangla for the shop's cart texts. Keys are the English messages exactly as the code says
// them (ICU syntax: {name} for a value, {count, plural, one {…} other {…}}, <0>…</0> for a
// link or emphasis); values are the Bangla (docs/decisions/0038).
// Here: the cart button and dropdown in the header, the currency menu, Add to Cart, the
// cart page, and the coupon messages the cart's API calls answer with.
export const cart: Catalog = {
  // Header: cart button, dropdown, currency menu
  Cart: 'কার্ট',
  '{count, plural, =0 {Cart, empty} one {Cart, # item} other {Cart, # items}}': '{count, plural, =0 {কার্ট, খালি} one {কার্ট, #টি পণ্য} other {কার্ট, #টি পণ্য}}',
  'YOUR CART IS EMPTY': 'আপনার কার্ট খালি',
  'Continue Shopping': 'কেনাকাটা চালিয়ে যান',
  'Your Cart': 'আপনার কার্ট',
  '{count, plural, one {# item} other {# items}}': '{count, plural, one {#টি পণ্য} other {#টি পণ্য}}',
  'Items in your cart': 'আপনার কার্টের পণ্য',
  '{quantity} x {price}': '{quantity} × {price}',
  'Coupon {code}': 'কুপন {code}',
  Total: 'মোট',
  'View Cart': 'কার্ট দেখুন',
  'Clear All': 'সব মুছুন',
  'Remove every item from your cart?': 'কার্ট থেকে সব পণ্য সরিয়ে দেবেন?',
  'Your cart is now empty': 'আপনার কার্ট এখন খালি',
  'Yes, clear the cart': 'হ্যাঁ, কার্ট খালি করুন',
  'Keep the items': 'পণ্যগুলো রাখুন',
  'Currency: {code}. Change currency': 'মুদ্রা: {code}। মুদ্রা বদলান',
  'Show prices in': 'দাম দেখান',
  'Orders are charged in taka (BDT).': 'অর্ডারের দাম বাংলাদেশি টাকায় নেওয়া হয়।',
  'Loading your cart…': 'আপনার কার্ট লোড হচ্ছে…',

  // Add to Cart (cards, product page, wishlist)
  Add: 'যোগ করুন',
  'Add to Cart': 'কার্টে যোগ করুন',
  'Add {title} to cart': 'কার্টে {title} যোগ করুন',
  '{title} added to your cart': '{title} আপনার কার্টে যোগ হয়েছে',
  'Your cart holds at most {max} different items': 'কার্টে সর্বোচ্চ {max}টি আলাদা পণ্য রাখা যায়',
  'You can order at most {max} of one item': 'একটি পণ্য সর্বোচ্চ {max}টি অর্ডার করা যায়',

  // The cart page
  'Your Cart — {brand}': 'আপনার কার্ট — {brand}',
  'Prices have changed since you added these items': 'পণ্যগুলো যোগ করার পর দাম বদলেছে',
  '{title}: now {price} (was {was}).': '{title}: এখন {price} (আগে ছিল {was})।',
  'We could not check the latest prices just now. The amounts below are those from when you added the items; checkout always uses the current prices.':
    'এই মুহূর্তে সর্বশেষ দাম যাচাই করা যায়নি। নিচের দামগুলো পণ্য যোগ করার সময়ের; চেকআউটে সবসময় বর্তমান দাম ধরা হয়।',
  'Order Summary': 'অর্ডারের সারসংক্ষেপ',
  'Subtotal ({count, plural, one {# item} other {# items}})': 'সাবটোটাল ({count, plural, one {#টি পণ্য} other {#টি পণ্য}})',
  Discounts: 'ছাড়',
  'Prices are shown in {currency}. You will be charged {amount} (BDT) at checkout.': 'দাম {currency}-এ দেখানো হচ্ছে। চেকআউটে আপনার কাছ থেকে {amount} (টাকা) নেওয়া হবে।',
  'Proceed to Checkout': 'চেকআউটে যান',
  'Some items are not available in the quantity you chose. Change or remove them to continue.':
    'কিছু পণ্য আপনার বেছে নেওয়া পরিমাণে পাওয়া যাচ্ছে না। এগিয়ে যেতে পরিমাণ বদলান বা পণ্যগুলো সরিয়ে দিন।',
  'This item is no longer sold. Please remove it.': 'এই পণ্যটি আর বিক্রি হয় না। অনুগ্রহ করে সরিয়ে দিন।',
  'Out of stock at the moment.': 'এই মুহূর্তে স্টকে নেই।',
  'Only {count} left in stock.': 'স্টকে আর মাত্র {count}টি আছে।',
  'Only {count} available, so we set the quantity to {count}.': 'মাত্র {count}টি পাওয়া যাচ্ছে, তাই পরিমাণ {count} করে দেওয়া হয়েছে।',
  'You can order at most {max} of one item.': 'একটি পণ্য সর্বোচ্চ {max}টি অর্ডার করা যায়।',
  was: 'আগের দাম',
  Remove: 'সরান',
  'Remove {title} from cart': 'কার্ট থেকে {title} সরান',
  'Decrease quantity of {title}': '{title}-এর পরিমাণ কমান',
  'Quantity of {title}': '{title}-এর পরিমাণ',
  'Increase quantity of {title}': '{title}-এর পরিমাণ বাড়ান',

  // Coupons on the cart page
  'Coupon code': 'কুপন কোড',
  'e.g. NIBASH500': 'যেমন NIBASH500',
  Apply: 'প্রয়োগ করুন',
  'Checking…': 'যাচাই হচ্ছে…',
  'Please enter a coupon code': 'একটি কুপন কোড লিখুন',
  'Coupon {code} applied': 'কুপন {code} যোগ হয়েছে',
  'Coupon <0>{code}</0>': 'কুপন <0>{code}</0>',
  'saves {amount}': '{amount} সাশ্রয়',
  'Remove coupon {code}': 'কুপন {code} সরান',
  'Coupon {code} is no longer valid and was removed': 'কুপন {code} আর বৈধ নয়, তাই সরিয়ে দেওয়া হয়েছে',
  'We could not check the coupon. Please try again.': 'কুপনটি যাচাই করা যায়নি। আবার চেষ্টা করুন।',
  'We could not reach the shop. Please check your connection and try again.': 'শপের সাথে যোগাযোগ করা যায়নি। আপনার ইন্টারনেট সংযোগ দেখে আবার চেষ্টা করুন।',
  // COUPON_MESSAGES (packages/shared/src/coupon.ts), as the quote and the coupon call answer them
  'This coupon code is not valid': 'এই কুপন কোডটি বৈধ নয়',
  'This coupon is not active yet': 'এই কুপনটি এখনো চালু হয়নি',
  'This coupon has expired': 'এই কুপনের মেয়াদ শেষ হয়ে গেছে',
  'Spend at least {minimum} to use this coupon': 'এই কুপন ব্যবহার করতে অন্তত {minimum} কেনাকাটা করুন',
  'This coupon has been fully used': 'এই কুপনটির সব ব্যবহার শেষ হয়ে গেছে',
  'You have already used this coupon': 'আপনি এই কুপনটি আগেই ব্যবহার করেছেন',
  'Please sign in to use this coupon': 'এই কুপন ব্যবহার করতে সাইন ইন করুন',
  'Add something to your cart to use a coupon': 'কুপন ব্যবহার করতে কার্টে কিছু যোগ করুন',
  'Too many coupon codes tried. Please try again in a few minutes.': 'অনেকবার কুপন কোড চেষ্টা করা হয়েছে। কয়েক মিনিট পরে আবার চেষ্টা করুন।',
};
