// The demo catalogue in Bangla (docs/decisions/0038): the Bangla name of every category, of
// the words demo product titles are made of, and of the site pages. A product's Bangla title
// is made of the same parts as its English one ("Padma Teak 3-Seater Sofa" is
// "পদ্মা সেগুন ৩ সিটার সোফা"), as Bangladeshi furniture shops write them: the brand's names
// transliterated, common loanwords kept (সোফা, ডাইনিং, ম্যাট্রেস).

/** Category names by slug. */
export const CATEGORY_NAMES_BN: Record<string, string> = {
  'living-room': 'বসার ঘর',
  sofas: 'সোফা',
  'three-seater-sofas': 'থ্রি সিটার সোফা',
  'l-shaped-sofas': 'এল-শেপ সোফা',
  'sofa-beds': 'সোফা কাম বেড',
  armchairs: 'আর্মচেয়ার',
  'coffee-tables': 'কফি টেবিল',
  'tv-units': 'টিভি ইউনিট',
  bedroom: 'শোবার ঘর',
  beds: 'খাট',
  'king-beds': 'কিং সাইজ খাট',
  'queen-beds': 'কুইন সাইজ খাট',
  wardrobes: 'আলমারি',
  'dressing-tables': 'ড্রেসিং টেবিল',
  mattresses: 'ম্যাট্রেস',
  dining: 'ডাইনিং',
  'dining-tables': 'ডাইনিং টেবিল',
  'dining-chairs': 'ডাইনিং চেয়ার',
  sideboards: 'সাইডবোর্ড',
  office: 'অফিস',
  'office-desks': 'অফিস ডেস্ক',
  'office-chairs': 'অফিস চেয়ার',
  bookshelves: 'বুকশেলফ',
  storage: 'স্টোরেজ',
  cabinets: 'কেবিনেট',
  'shoe-racks': 'জুতার র‍্যাক',
  kids: 'শিশুদের',
  'kids-beds': 'শিশুদের খাট',
  'study-tables': 'পড়ার টেবিল',
};

/** The kinds of furniture product titles end with. */
export const NOUNS_BN: Record<string, string> = {
  '3-Seater Sofa': '৩ সিটার সোফা',
  'L-Shaped Sofa': 'এল-শেপ সোফা',
  'Corner Sofa': 'কর্নার সোফা',
  'Sofa Cum Bed': 'সোফা কাম বেড',
  Armchair: 'আর্মচেয়ার',
  'Lounge Chair': 'লাউঞ্জ চেয়ার',
  'Accent Chair': 'অ্যাকসেন্ট চেয়ার',
  'Coffee Table': 'কফি টেবিল',
  'Centre Table': 'সেন্টার টেবিল',
  'TV Cabinet': 'টিভি কেবিনেট',
  'TV Unit': 'টিভি ইউনিট',
  'King Bed': 'কিং খাট',
  'Storage King Bed': 'স্টোরেজ কিং খাট',
  'Queen Bed': 'কুইন খাট',
  'Panel Bed': 'প্যানেল খাট',
  '2-Door Wardrobe': '২ দরজার আলমারি',
  '3-Door Wardrobe': '৩ দরজার আলমারি',
  'Sliding Wardrobe': 'স্লাইডিং আলমারি',
  'Dressing Table': 'ড্রেসিং টেবিল',
  Vanity: 'ভ্যানিটি',
  'Spring Mattress': 'স্প্রিং ম্যাট্রেস',
  'Foam Mattress': 'ফোম ম্যাট্রেস',
  'Orthopaedic Mattress': 'অর্থোপেডিক ম্যাট্রেস',
  'Dining Table': 'ডাইনিং টেবিল',
  'Dining Set': 'ডাইনিং সেট',
  'Dining Chair': 'ডাইনিং চেয়ার',
  'Upholstered Chair': 'গদি আঁটা চেয়ার',
  Sideboard: 'সাইডবোর্ড',
  'Buffet Cabinet': 'বুফে কেবিনেট',
  'Executive Desk': 'এক্সিকিউটিভ ডেস্ক',
  Workstation: 'ওয়ার্কস্টেশন',
  'Writing Desk': 'রাইটিং ডেস্ক',
  'Ergonomic Chair': 'আর্গোনমিক চেয়ার',
  'Executive Chair': 'এক্সিকিউটিভ চেয়ার',
  'Task Chair': 'টাস্ক চেয়ার',
  Bookshelf: 'বুকশেলফ',
  'Display Shelf': 'ডিসপ্লে শেলফ',
  'Chest of Drawers': 'ড্রয়ার কেবিনেট',
  'Storage Cabinet': 'স্টোরেজ কেবিনেট',
  'Shoe Rack': 'জুতার র‍্যাক',
  'Shoe Cabinet': 'জুতার কেবিনেট',
  'Kids Bed': 'শিশুদের খাট',
  'Bunk Bed': 'বাংক খাট',
  'Study Table': 'পড়ার টেবিল',
  'Study Desk': 'স্টাডি ডেস্ক',
};

/** The collection names (rivers, flowers, places) that start product titles. */
export const NAMES_BN: Record<string, string> = {
  Aria: 'আরিয়া',
  Bokul: 'বকুল',
  Cosmo: 'কসমো',
  Dhaka: 'ঢাকা',
  Elan: 'এলান',
  Falgun: 'ফাল্গুন',
  Gulmohor: 'গুলমোহর',
  Hasna: 'হাসনা',
  Ira: 'ইরা',
  Jamdani: 'জামদানি',
  Kadam: 'কদম',
  Luna: 'লুনা',
  Meghna: 'মেঘনা',
  Nakshi: 'নকশী',
  Oslo: 'অসলো',
  Padma: 'পদ্মা',
  Rupsha: 'রূপসা',
  Shapla: 'শাপলা',
  Teesta: 'তিস্তা',
  Urbana: 'আরবানা',
  Vela: 'ভেলা',
  Zen: 'জেন',
  Karnaphuli: 'কর্ণফুলী',
  Sundari: 'সুন্দরী',
};

export const MATERIALS_BN: Record<string, string> = {
  Oak: 'ওক',
  Teak: 'সেগুন',
  Walnut: 'ওয়ালনাট',
  Fabric: 'ফেব্রিক',
  Leatherette: 'লেদারেট',
  Velvet: 'ভেলভেট',
  Mahogany: 'মেহগনি',
  'Oak Veneer': 'ওক ভিনিয়ার',
  Linen: 'লিনেন',
  Rattan: 'বেত',
};

/** A demo product's Bangla title from the parts of its English one; null when a part has none. */
export function productTitleBn(name: string, material: string, noun: string): string | null {
  const parts = [NAMES_BN[name], MATERIALS_BN[material], NOUNS_BN[noun]];
  return parts.every(Boolean) ? parts.join(' ') : null;
}

/** A demo product's Bangla description, as its English one says it. */
export function productDescriptionBn(titleBn: string, material: string, model: string): string {
  const wood = MATERIALS_BN[material] ?? material;
  return `${titleBn} আমাদের গাজীপুরের কারখানায় ভালোভাবে শুকানো ${wood} দিয়ে তৈরি, হাতে ফিনিশ করা। মডেল ${model}। আমাদের নিজস্ব টিম পৌঁছে দেয় ও জোড়া লাগিয়ে দেয়, ফ্রেমে পাঁচ বছরের ওয়ারেন্টি।`;
}

/** The sets sold as one line, by English title. */
export const BUNDLE_TITLES_BN: Record<string, string> = {
  'Padma Living Room Set': 'পদ্মা বসার ঘরের সেট',
  'Meghna Bedroom Set': 'মেঘনা শোবার ঘরের সেট',
  'Teesta Dining Set': 'তিস্তা ডাইনিং সেট',
  'Home Office Starter Set': 'হোম অফিস স্টার্টার সেট',
};

/** Site pages by slug: every title, and the bodies written so far (the others show in English). */
export const PAGES_BN: Record<string, { title: string; body?: string }> = {
  about: {
    title: 'আমাদের সম্পর্কে',
    body: [
      'নিবাস ফার্নিচার ১৯৯৮ সাল থেকে বাংলাদেশের ঘরের জন্য আসবাব তৈরি করছে। গাজীপুরের ছোট্ট একটি কারখানা থেকে শুরু করে আজ আমাদের আছে ৬০০ জন কারিগরের একটি কারখানা আর ঢাকা, চট্টগ্রাম ও সিলেটে ছয়টি শোরুম।',
      '',
      '## আমরা যা তৈরি করি',
      '- ভালোভাবে শুকানো সেগুন, ওক ও মেহগনি কাঠের সোফা, খাট, ডাইনিং সেট ও আলমারি',
      '- বাসা ও প্রতিষ্ঠানের জন্য অফিস ফার্নিচার',
      '- গোলাকার কোনা আর নিরাপদ ফিনিশের শিশুদের ফার্নিচার',
      '',
      '## আমরা যেভাবে কাজ করি',
      'প্রতিটি আসবাব অর্ডার অনুযায়ী বা আমাদের নিজস্ব স্টক থেকে তৈরি হয়, কারখানা থেকে বের হওয়ার আগে হাতে পরীক্ষা করা হয়, আর আমাদের নিজস্ব টিম পৌঁছে দেয় ও জোড়া লাগিয়ে দেয়। আমাদের ফার্নিচারের ফ্রেমে পাঁচ বছরের ওয়ারেন্টি থাকে।',
    ].join('\n'),
  },
  'privacy-policy': { title: 'গোপনীয়তা নীতি' },
  'terms-conditions': { title: 'শর্তাবলি' },
  return: { title: 'রিটার্ন ও রিফান্ড নীতি' },
  'coming-soon': {
    title: 'শিগগিরই আসছে',
    body: 'আমরা এই পাতাটি তৈরি করছি। এর মধ্যে আমাদের হটলাইন ১৬৭৭০-এ কল করুন বা আমাদের কোনো শোরুমে আসুন, আমরা আনন্দের সঙ্গে সাহায্য করব।',
  },
  'delivery-shipping': { title: 'ডেলিভারি ও শিপিং তথ্য' },
};

/** Other site content by slug: the home page's slides, articles and selling points. */
export const CONTENT_BN: Record<string, { title: string; body?: string }> = {
  'monsoon-living': { title: 'বর্ষার ঘর সাজানোর কালেকশন', body: 'নতুন বুননের সোফা ও আর্মচেয়ার, এই মাসে ২৫% পর্যন্ত ছাড়।' },
  'sleep-better': { title: 'আরামের ঘুম', body: 'খাট ও অর্থোপেডিক ম্যাট্রেস, ঢাকায় ফ্রি ডেলিভারি।' },
  'work-from-home': { title: 'ঘরে বসে অফিস, ঠিকঠাক', body: 'ডেস্ক আর আর্গোনমিক চেয়ার, যাতে পিঠে ব্যথা না হয়।' },
  'choosing-a-sofa': {
    title: 'ঢাকার ফ্ল্যাটের জন্য সঠিক সোফা বাছাই',
    body: 'এল-শেপ সোফা পছন্দ করার আগে দরজা আর লিফট মেপে নিন। আর্দ্র মাসগুলোতে ফেব্রিক ভালো বাতাস চলাচল করতে দেয়; লেদারেট মুছে পরিষ্কার করা সহজ।',
  },
  'free-delivery': { title: 'ঢাকায় ৳২০,০০০-এর বেশি অর্ডারে ফ্রি ডেলিভারি' },
  warranty: { title: 'ফ্রেমে পাঁচ বছরের ওয়ারেন্টি' },
  'payment-options': { title: 'কার্ড, ক্যাশ অন ডেলিভারি অথবা বুক করে পরে পেমেন্ট' },
  'frame-warranty-sofa': { title: 'শুকানো শক্ত কাঠের ফ্রেম, পাঁচ বছরের ওয়ারেন্টি' },
  'removable-covers': { title: 'কুশন কভার খুলে ধোয়া যায়' },
};
