import type { Catalog } from '../catalog.ts';

// Bangla for the shop's content texts. Keys are the English messages exactly as the code says
// them (ICU syntax: {name} for a value, {count, plural, one {…} other {…}}, <0>…</0> for a
// link or emphasis); values are the Bangla (docs/decisions/0038).
// Here: home, its pop-ups and the subscription offer, the contact form, the showrooms and
// the 3D sofa.
export const content: Catalog = {
  // Home
  '{brand} — Sofas, beds, dining and office furniture in Bangladesh': '{brand} — বাংলাদেশে সোফা, খাট, ডাইনিং ও অফিস ফার্নিচার',
  'Furniture for Bangladeshi homes.': 'বাংলাদেশের ঘরের জন্য ফার্নিচার।',
  'Featured collections': 'বিশেষ কালেকশন',
  '{index} of {count}': '{count}টির মধ্যে {index}',
  'Shop now': 'এখনই কিনুন',
  'Previous slide': 'আগের স্লাইড',
  'Next slide': 'পরের স্লাইড',
  'Show slide {index}: {title}': '{index} নম্বর স্লাইড দেখুন: {title}',
  'Start automatic slides': 'স্লাইড নিজে থেকে চালু করুন',
  'Stop automatic slides': 'স্লাইড নিজে থেকে চলা বন্ধ করুন',
  'Shop by category': 'ক্যাটাগরি অনুযায়ী কিনুন',
  'All furniture': 'সব ফার্নিচার',
  'See all': 'সব দেখুন',
  'New arrivals': 'নতুন এসেছে',
  'See all new arrivals': 'সব নতুন পণ্য দেখুন',
  'On sale now': 'এখন সেলে আছে',
  'See all offers': 'সব অফার দেখুন',
  'From our journal': 'আমাদের ব্লগ থেকে',

  // Home pop-ups and the subscription offer (POPUP_TEXTS, MESSAGES.subscription)
  'See the offer': 'অফারটি দেখুন',
  'Limited Time': 'সীমিত সময়ের জন্য',
  'Save your first order and get email only offer when you join': 'যোগ দিলে প্রথম অর্ডারে সাশ্রয় করুন এবং শুধু ইমেইলে পাঠানো অফার পান',
  'Your email': 'আপনার ইমেইল',
  Subscribe: 'সাবস্ক্রাইব করুন',
  'Subscribing…': 'সাবস্ক্রাইব হচ্ছে…',
  'You are on the list. Look out for your offer in your inbox.': 'আপনি তালিকায় যুক্ত হয়েছেন। আপনার ইনবক্সে অফারটির জন্য চোখ রাখুন।',
  'Please Provide Your Email': 'অনুগ্রহ করে আপনার ইমেইল দিন',
  'Please Provide a Correct Email': 'অনুগ্রহ করে সঠিক ইমেইল দিন',
  'Subscription Successful': 'সাবস্ক্রিপশন সফল হয়েছে',
  'Already Subscribed with this email': 'এই ইমেইল দিয়ে আগেই সাবস্ক্রাইব করা হয়েছে',
  'Failed to Subscribe': 'সাবস্ক্রাইব করা যায়নি',

  // Contact (CONTACT_TEXTS)
  'Contact us': 'যোগাযোগ করুন',
  'Contact us — {brand}': 'যোগাযোগ করুন — {brand}',
  'Write to {brand}: questions about products, delivery, orders and showrooms.': '{brand}-কে লিখুন: পণ্য, ডেলিভারি, অর্ডার ও শোরুম নিয়ে যেকোনো প্রশ্ন।',
  'Other ways to reach us': 'আমাদের কাছে পৌঁছানোর অন্য উপায়',
  'Prefer to see the furniture first? <0>Visit one of our showrooms</0>.': 'আগে ফার্নিচার নিজে দেখতে চান? <0>আমাদের যেকোনো শোরুমে আসুন</0>।',
  "We'll love to hear from you": 'আপনার কথা শুনতে আমরা আগ্রহী',
  'Send Your Message': 'বার্তা পাঠান',
  'Sending…': 'পাঠানো হচ্ছে…',
  'Your Name': 'আপনার নাম',
  'Enter e-mail': 'ইমেইল লিখুন',
  Subject: 'বিষয়',
  Body: 'বার্তা',
  'Please Give Your Name': 'অনুগ্রহ করে আপনার নাম দিন',
  'Please Give Your Email': 'অনুগ্রহ করে আপনার ইমেইল দিন',
  'Please Give a Subject': 'অনুগ্রহ করে একটি বিষয় দিন',
  'Please Write Your Message': 'অনুগ্রহ করে আপনার বার্তা লিখুন',
  'Please Give a Correct Email': 'অনুগ্রহ করে সঠিক ইমেইল দিন',
  'Line breaks are not allowed here': 'এখানে নতুন লাইন দেওয়া যাবে না',
  'Please keep this under 100 characters': 'অনুগ্রহ করে ১০০ অক্ষরের মধ্যে রাখুন',
  'Please keep this under 150 characters': 'অনুগ্রহ করে ১৫০ অক্ষরের মধ্যে রাখুন',
  'Please keep this under 254 characters': 'অনুগ্রহ করে ২৫৪ অক্ষরের মধ্যে রাখুন',
  'Please keep this under 5000 characters': 'অনুগ্রহ করে ৫০০০ অক্ষরের মধ্যে রাখুন',
  'Thank you! Your message has been sent.': 'ধন্যবাদ! আপনার বার্তা পাঠানো হয়েছে।',
  'Your message could not be sent. Please try again.': 'আপনার বার্তা পাঠানো যায়নি। অনুগ্রহ করে আবার চেষ্টা করুন।',
  'You have sent several messages just now. Please wait a few minutes and try again.': 'আপনি এইমাত্র কয়েকটি বার্তা পাঠিয়েছেন। কয়েক মিনিট অপেক্ষা করে আবার চেষ্টা করুন।',

  // Showrooms (/outlets)
  'Our showrooms': 'আমাদের শোরুম',
  'Our showrooms — {brand}': 'আমাদের শোরুম — {brand}',
  'Visit {brand} in {cities}: addresses, phone numbers, opening hours and maps.': '{cities}-এ {brand}-এর শোরুমে আসুন: ঠিকানা, ফোন নম্বর, খোলার সময় ও ম্যাপ।',
  'See, touch and sit on our furniture before you buy. Our team at every showroom can help you choose, measure and arrange delivery.':
    'কেনার আগে আমাদের ফার্নিচার দেখুন, ছুঁয়ে দেখুন, বসে দেখুন। প্রতিটি শোরুমে আমাদের কর্মীরা পছন্দ করা, মাপ নেওয়া আর ডেলিভারির ব্যবস্থা করতে সাহায্য করবেন।',
  '“{code}” is not a product code we know.': '“{code}” নামে আমাদের কোনো পণ্যের কোড নেই।',
  'Where to see {name}': '{name} কোথায় দেখতে পাবেন',
  'Product code {code}': 'পণ্যের কোড {code}',
  '{count, plural, one {In stock at one showroom: {names}.} other {In stock at # showrooms: {names}.}}':
    '{count, plural, one {একটি শোরুমে} other {#টি শোরুমে}} স্টকে আছে: {names}।',
  'No showroom has this in stock right now. Call us and we will tell you when it arrives, or order it online for delivery.':
    'এই মুহূর্তে কোনো শোরুমে এটি স্টকে নেই। ফোন করুন, এলে আমরা আপনাকে জানাব; অথবা অনলাইনে অর্ডার করে ডেলিভারি নিন।',
  'Showrooms and outlets': 'শোরুম ও আউটলেট',
  Showroom: 'শোরুম',
  'Factory outlet': 'ফ্যাক্টরি আউটলেট',
  '{count, plural, one {In stock: # piece} other {In stock: # pieces}}': 'স্টকে আছে: {count, plural, one {#টি} other {#টি}}',
  'Not in stock here': 'এখানে স্টকে নেই',
  Address: 'ঠিকানা',
  Phone: 'ফোন',
  'Opening hours': 'খোলার সময়',
  'Open in map<0> ({name}, opens in a new tab)</0>': 'ম্যাপে দেখুন<0> ({name}, নতুন ট্যাবে খুলবে)</0>',
  'Want to see the sofa from every side first? <0>Try our 3D viewer</0>.': 'আগে সোফাটি সব দিক থেকে দেখতে চান? <0>আমাদের থ্রিডি ভিউয়ার ব্যবহার করুন</0>।',

  // The 3D sofa (/sofa-3d)
  'Sofa in 3D': 'থ্রিডিতে সোফা',
  'Sofa in 3D — {brand}': 'থ্রিডিতে সোফা — {brand}',
  'Turn, zoom and place our three-seater sofa in your room before you buy.': 'কেনার আগে আমাদের তিন সিটের সোফাটি ঘুরিয়ে, জুম করে আপনার ঘরে বসিয়ে দেখুন।',
  'Drag to turn the sofa, pinch or scroll to zoom, and on a phone that supports it, place it in your own room.':
    'সোফাটি ঘোরাতে টেনে ধরুন, জুম করতে দুই আঙুলে চাপুন বা স্ক্রল করুন, আর যে ফোনে সুবিধা আছে তাতে সোফাটি নিজের ঘরে বসিয়ে দেখুন।',
  'Browse sofas': 'সোফা দেখুন',
  'A three-seater sofa in teal fabric with wooden legs': 'কাঠের পায়াসহ টিল রঙের কাপড়ের তিন সিটের সোফা',
  'View in your room': 'আপনার ঘরে দেখুন',
  'Loading the 3D sofa…': 'থ্রিডি সোফা লোড হচ্ছে…',
  'The 3D viewer could not be loaded.': 'থ্রিডি ভিউয়ার লোড করা যায়নি।',
  'Please check your connection and reload the page.': 'আপনার ইন্টারনেট সংযোগ দেখে পাতাটি আবার লোড করুন।',
  'View controls': 'দেখার নিয়ন্ত্রণ',
  'Zoom in': 'জুম ইন',
  'Zoom out': 'জুম আউট',
  'Reset view': 'আগের অবস্থানে ফেরান',
  'Keyboard: focus the viewer, then use the arrow keys to turn and + or − to zoom.': 'কিবোর্ড: ভিউয়ারে ফোকাস করুন, তারপর ঘোরাতে অ্যারো কি আর জুম করতে + বা − চাপুন।',
};
