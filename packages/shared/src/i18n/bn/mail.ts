import type { Catalog } from '../catalog.ts';

// Bangla for the shop's mail texts. Keys are the English messages exactly as the code says
// them (ICU syntax: {name} for a value, {count, plural, one {…} other {…}}, <0>…</0> for a
// link or emphasis); values are the Bangla (docs/decisions/0038).
export const mail: Catalog = {
  // The frame of every mail (apps/api/src/modules/orders/mail.ts)
  'Dear {name},': 'প্রিয় {name},',
  'Questions? Call {hotline} or write to {email}.': 'কোনো প্রশ্ন আছে? {hotline} নম্বরে ফোন করুন অথবা {email} ঠিকানায় লিখুন।',
  'Questions? Call {hotline}.': 'কোনো প্রশ্ন আছে? {hotline} নম্বরে ফোন করুন।',
  'See your order': 'আপনার অর্ডার দেখুন',
  'See your booking': 'আপনার বুকিং দেখুন',
  Order: 'অর্ডার',
  Booking: 'বুকিং',
  Status: 'অবস্থা',
  Payment: 'পেমেন্ট',
  'Reason: {reason}': 'কারণ: {reason}',

  // The order table
  'Order {invoice}': 'অর্ডার {invoice}',
  'Booking {invoice}': 'বুকিং {invoice}',
  Items: 'পণ্য',
  Discounts: 'ছাড়',
  'Coupon {code}': 'কুপন {code}',
  Delivery: 'ডেলিভারি',
  free: 'ফ্রি',
  'Total (BDT)': 'মোট (টাকা)',
  'Payment: {method} ({status})': 'পেমেন্ট: {method} ({status})',
  'Delivery: {method}': 'ডেলিভারি: {method}',
  'Collect from: {name}, {address}, {city}': 'যেখান থেকে সংগ্রহ করবেন: {name}, {address}, {city}',
  'Deliver to: {name}, {address} ({phone})': 'ডেলিভারির ঠিকানা: {name}, {address} ({phone})',

  // Subjects: the invoice, a dash, the state
  'Order {invoice} — {what}': 'অর্ডার {invoice} — {what}',
  'Booking {invoice} — {what}': 'বুকিং {invoice} — {what}',
  confirmed: 'নিশ্চিত হয়েছে',
  booked: 'বুক করা হয়েছে',
  'payment received': 'পেমেন্ট পাওয়া গেছে',
  'payment under review': 'পেমেন্ট যাচাই চলছে',
  released: 'ছেড়ে দেওয়া হয়েছে',
  'confirmed by the shop': 'শপ থেকে নিশ্চিত করা হয়েছে',
  'ready to collect': 'সংগ্রহের জন্য প্রস্তুত',
  packed: 'প্যাক করা হয়েছে',
  'on its way': 'পথে আছে',
  delivered: 'ডেলিভারি হয়েছে',
  'return received': 'ফেরত পণ্য পাওয়া গেছে',
  cancelled: 'বাতিল করা হয়েছে',
  'confirmed as an order': 'অর্ডার হিসেবে নিশ্চিত হয়েছে',
  'payment proof not accepted': 'পেমেন্টের প্রমাণ গ্রহণ করা হয়নি',
  refund: 'রিফান্ড',

  // Each event of an order
  'Thank you for your order': 'আপনার অর্ডারের জন্য ধন্যবাদ',
  'Thank you for your order. We will call you to arrange delivery; you pay in cash when it arrives.':
    'আপনার অর্ডারের জন্য ধন্যবাদ। ডেলিভারির ব্যবস্থা করতে আমরা আপনাকে ফোন করব; পণ্য পৌঁছালে আপনি নগদে মূল্য পরিশোধ করবেন।',
  'Your items are booked': 'আপনার পণ্যগুলো বুক করা হয়েছে',
  'Your items are booked and held for you until {until}. Pay at any showroom or by bank transfer, then upload the deposit slip on your order page; a booking with no payment by then is released.':
    'আপনার পণ্যগুলো বুক করা হয়েছে এবং {until} পর্যন্ত আপনার জন্য রাখা থাকবে। যেকোনো শোরুমে অথবা ব্যাংক ট্রান্সফারে পেমেন্ট করুন, তারপর আপনার অর্ডারের পাতায় ডিপোজিট স্লিপ আপলোড করুন; এর মধ্যে পেমেন্ট না হলে বুকিংটি ছেড়ে দেওয়া হবে।',
  'Your items are booked and held for you. Pay at any showroom or by bank transfer, then upload the deposit slip on your order page.':
    'আপনার পণ্যগুলো বুক করা হয়েছে এবং আপনার জন্য রাখা আছে। যেকোনো শোরুমে অথবা ব্যাংক ট্রান্সফারে পেমেন্ট করুন, তারপর আপনার অর্ডারের পাতায় ডিপোজিট স্লিপ আপলোড করুন।',
  'Payment received': 'পেমেন্ট পাওয়া গেছে',
  'Thank you. Your payment was received and your order is confirmed.': 'ধন্যবাদ। আপনার পেমেন্ট পাওয়া গেছে এবং আপনার অর্ডার নিশ্চিত হয়েছে।',
  'Payment received, being checked': 'পেমেন্ট পাওয়া গেছে, যাচাই চলছে',
  'Thank you. Your payment was received; we are checking it and will call you before the order goes out.':
    'ধন্যবাদ। আপনার পেমেন্ট পাওয়া গেছে; আমরা এটি যাচাই করছি এবং অর্ডার পাঠানোর আগে আপনাকে ফোন করব।',
  'Your booking was released': 'আপনার বুকিং ছেড়ে দেওয়া হয়েছে',
  'We did not receive a payment for your booking in time, so the items we were holding for you have been released. You are welcome to book them again while they are in stock.':
    'সময়মতো আপনার বুকিংয়ের পেমেন্ট আমরা পাইনি, তাই আপনার জন্য রাখা পণ্যগুলো ছেড়ে দেওয়া হয়েছে। স্টকে থাকা পর্যন্ত আপনি আবার সেগুলো বুক করতে পারেন।',
  'We have confirmed your order': 'আমরা আপনার অর্ডার নিশ্চিত করেছি',
  'We have confirmed your order and are preparing it.': 'আমরা আপনার অর্ডার নিশ্চিত করেছি এবং এটি প্রস্তুত করছি।',
  'Your order is ready to collect': 'আপনার অর্ডার সংগ্রহের জন্য প্রস্তুত',
  'Your order is packed': 'আপনার অর্ডার প্যাক করা হয়েছে',
  'Your order is packed and waiting for you at {branch}, {address}. Please bring this mail or your invoice number.':
    'আপনার অর্ডার প্যাক করা হয়েছে এবং {branch} ({address}) শোরুমে আপনার জন্য অপেক্ষা করছে। অনুগ্রহ করে এই ইমেইল অথবা আপনার ইনভয়েস নম্বর সঙ্গে আনুন।',
  'Your order is packed and will be on its way soon.': 'আপনার অর্ডার প্যাক করা হয়েছে এবং শিগগিরই পাঠানো হবে।',
  'Your order is on its way': 'আপনার অর্ডার পথে আছে',
  'Your order has left our warehouse. Our delivery team will call you before they arrive.':
    'আপনার অর্ডার আমাদের গুদাম থেকে রওনা হয়েছে। পৌঁছানোর আগে আমাদের ডেলিভারি টিম আপনাকে ফোন করবে।',
  'Your order was delivered': 'আপনার অর্ডার ডেলিভারি হয়েছে',
  'Your order was delivered. We hope you enjoy it; if anything is not right, please tell us.':
    'আপনার অর্ডার ডেলিভারি হয়েছে। আশা করি আপনার ভালো লাগবে; কোনো সমস্যা থাকলে অনুগ্রহ করে আমাদের জানান।',
  'We received your return': 'আমরা আপনার ফেরত পাঠানো পণ্য পেয়েছি',
  'The items you sent back have reached us.': 'আপনার ফেরত পাঠানো পণ্যগুলো আমাদের কাছে পৌঁছেছে।',
  'Your order was cancelled': 'আপনার অর্ডার বাতিল করা হয়েছে',
  'Your booking was cancelled': 'আপনার বুকিং বাতিল করা হয়েছে',
  'Your order was cancelled.': 'আপনার অর্ডার বাতিল করা হয়েছে।',
  'Your booking was cancelled.': 'আপনার বুকিং বাতিল করা হয়েছে।',
  'The payment we received will be refunded to you; we will write again when it is on its way.':
    'আমরা যে পেমেন্ট পেয়েছি তা আপনাকে ফেরত দেওয়া হবে; টাকা পাঠানো হলে আমরা আবার জানাব।',
  'Your booking is now an order': 'আপনার বুকিং এখন একটি অর্ডার',
  'Your booking is now a confirmed order, and we are preparing it.': 'আপনার বুকিং এখন একটি নিশ্চিত অর্ডার, এবং আমরা এটি প্রস্তুত করছি।',
  'Thank you: we have received your payment in cash.': 'ধন্যবাদ: আমরা নগদে আপনার পেমেন্ট পেয়েছি।',
  'Your payment was received': 'আপনার পেমেন্ট পাওয়া গেছে',
  'We checked your payment proof: your booking is paid in full. Thank you.': 'আমরা আপনার পেমেন্টের প্রমাণ যাচাই করেছি: আপনার বুকিংয়ের পুরো মূল্য পরিশোধ হয়েছে। ধন্যবাদ।',
  'We checked your payment proof and recorded your payment. The rest is still to pay; your booking stays held for you.':
    'আমরা আপনার পেমেন্টের প্রমাণ যাচাই করে পেমেন্টটি জমা করেছি। বাকি অংশ এখনো পরিশোধ করতে হবে; আপনার বুকিং আপনার জন্য রাখা থাকবে।',
  'We could not accept your payment proof': 'আমরা আপনার পেমেন্টের প্রমাণ গ্রহণ করতে পারিনি',
  'We could not accept the payment proof you sent: {reason}': 'আপনার পাঠানো পেমেন্টের প্রমাণ আমরা গ্রহণ করতে পারিনি: {reason}',
  'We could not accept the payment proof you sent.': 'আপনার পাঠানো পেমেন্টের প্রমাণ আমরা গ্রহণ করতে পারিনি।',
  'Please send a new proof from your order page by {until}, or call us; your items stay held until then.':
    'অনুগ্রহ করে {until} এর মধ্যে আপনার অর্ডারের পাতা থেকে নতুন প্রমাণ পাঠান, অথবা আমাদের ফোন করুন; ততক্ষণ আপনার পণ্যগুলো রাখা থাকবে।',
  'Please send a new proof from your order page, or call us.': 'অনুগ্রহ করে আপনার অর্ডারের পাতা থেকে নতুন প্রমাণ পাঠান, অথবা আমাদের ফোন করুন।',
  'Your refund is on its way': 'আপনার রিফান্ড পাঠানো হয়েছে',
  'We have refunded {amount}. Depending on your bank it can take a few working days to reach you.':
    'আমরা {amount} রিফান্ড করেছি। আপনার ব্যাংকের ওপর নির্ভর করে টাকা পৌঁছাতে কয়েক কর্মদিবস লাগতে পারে।',
  'We have refunded your payment. Depending on your bank it can take a few working days to reach you.':
    'আমরা আপনার পেমেন্ট রিফান্ড করেছি। আপনার ব্যাংকের ওপর নির্ভর করে টাকা পৌঁছাতে কয়েক কর্মদিবস লাগতে পারে।',

  // The names of states and methods are in checkout.ts: mails and pages say them alike.
  'Pay later (booking)': 'পরে পরিশোধ (বুকিং)',
  'Home delivery and assembly': 'হোম ডেলিভারি ও অ্যাসেম্বলি',
  'Collect from a showroom': 'শোরুম থেকে সংগ্রহ',

  // Password reset (apps/api/src/modules/accounts/reset-mail.ts)
  'Reset your password': 'আপনার পাসওয়ার্ড রিসেট করুন',
  'Hello {name},': 'হ্যালো {name},',
  'Someone (we hope you) asked to reset the password of your account.': 'কেউ (আশা করি আপনিই) আপনার অ্যাকাউন্টের পাসওয়ার্ড রিসেট করতে চেয়েছেন।',
  'Open this link within one hour to choose a new password:': 'নতুন পাসওয়ার্ড বেছে নিতে এক ঘণ্টার মধ্যে এই লিংকটি খুলুন:',
  'If you did not ask for this, ignore this mail: your password stays as it is.': 'আপনি এটি না চেয়ে থাকলে এই ইমেইলটি উপেক্ষা করুন: আপনার পাসওয়ার্ড যেমন আছে তেমনই থাকবে।',

  // The shop's answer to a contact message (apps/api/src/modules/admin-inbox/messages.service.ts)
  'About your message: {subject}': 'আপনার বার্তা সম্পর্কে: {subject}',
  'You wrote on': 'আপনি লিখেছিলেন',
  // Text messages about an order (apps/api/src/modules/sms/order-sms.ts)
  '{shop}: your order {invoiceId} is on its way. Follow it at {link}': '{shop}: আপনার অর্ডার {invoiceId} পথে আছে। দেখুন: {link}',
  '{shop}: your order {invoiceId} was delivered. Thank you for shopping with us.': '{shop}: আপনার অর্ডার {invoiceId} ডেলিভারি হয়েছে। আমাদের সাথে কেনাকাটার জন্য ধন্যবাদ।',
  '{shop}: your order {invoiceId} came back to us. We will call you about it.':
    '{shop}: আপনার অর্ডার {invoiceId} আমাদের কাছে ফেরত এসেছে। আমরা এ বিষয়ে আপনাকে ফোন করব।',
  '{shop}: your order {invoiceId} is cancelled. Details: {link}': '{shop}: আপনার অর্ডার {invoiceId} বাতিল হয়েছে। বিস্তারিত: {link}',
};
