import type { Shape } from '../../modules/media/demo-art.ts';

// The demo furniture catalogue: a three-level category tree, names and price ranges.
// Nothing here is furniture-specific in the code that reads it (decisions.md).

export interface CategorySeed {
  name: string;
  slug: string;
  shape: Shape;
  color: string;
  /** Price range in whole taka for products directly in this category. */
  price?: [number, number];
  nouns?: string[];
  sizes?: string[];
  children?: CategorySeed[];
}

export const CATEGORY_TREE: CategorySeed[] = [
  {
    name: 'Living Room',
    slug: 'living-room',
    shape: 'sofa',
    color: '8a6f5a',
    children: [
      {
        name: 'Sofas',
        slug: 'sofas',
        shape: 'sofa',
        color: '6b7f8e',
        children: [
          {
            name: 'Three-Seater Sofas',
            slug: 'three-seater-sofas',
            shape: 'sofa',
            color: '5f7a8a',
            price: [42000, 145000],
            nouns: ['3-Seater Sofa'],
            sizes: ['3 Seater'],
          },
          {
            name: 'L-Shaped Sofas',
            slug: 'l-shaped-sofas',
            shape: 'sofa',
            color: '7d6b5d',
            price: [85000, 220000],
            nouns: ['L-Shaped Sofa', 'Corner Sofa'],
            sizes: ['Left Corner', 'Right Corner'],
          },
          {
            name: 'Sofa Beds',
            slug: 'sofa-beds',
            shape: 'sofa',
            color: '8f8a6e',
            price: [38000, 98000],
            nouns: ['Sofa Cum Bed'],
            sizes: ['2 Seater', '3 Seater'],
          },
        ],
      },
      { name: 'Armchairs', slug: 'armchairs', shape: 'armchair', color: 'a86b4c', price: [14000, 52000], nouns: ['Armchair', 'Lounge Chair', 'Accent Chair'] },
      { name: 'Coffee Tables', slug: 'coffee-tables', shape: 'coffee-table', color: '9c7454', price: [9000, 38000], nouns: ['Coffee Table', 'Centre Table'] },
      {
        name: 'TV Units',
        slug: 'tv-units',
        shape: 'tv-unit',
        color: '6e5a48',
        price: [16000, 64000],
        nouns: ['TV Cabinet', 'TV Unit'],
        sizes: ['150 cm', '180 cm'],
      },
    ],
  },
  {
    name: 'Bedroom',
    slug: 'bedroom',
    shape: 'bed',
    color: '5a6e7f',
    children: [
      {
        name: 'Beds',
        slug: 'beds',
        shape: 'bed',
        color: '7a5c4a',
        children: [
          {
            name: 'King Beds',
            slug: 'king-beds',
            shape: 'bed',
            color: '6a4c3a',
            price: [58000, 165000],
            nouns: ['King Bed', 'Storage King Bed'],
            sizes: ['King 76x80 in'],
          },
          {
            name: 'Queen Beds',
            slug: 'queen-beds',
            shape: 'bed',
            color: '8c6a52',
            price: [42000, 118000],
            nouns: ['Queen Bed', 'Panel Bed'],
            sizes: ['Queen 60x80 in'],
          },
        ],
      },
      {
        name: 'Wardrobes',
        slug: 'wardrobes',
        shape: 'wardrobe',
        color: '7b6a58',
        price: [36000, 125000],
        nouns: ['2-Door Wardrobe', '3-Door Wardrobe', 'Sliding Wardrobe'],
      },
      {
        name: 'Dressing Tables',
        slug: 'dressing-tables',
        shape: 'dressing-table',
        color: 'a0826a',
        price: [18000, 56000],
        nouns: ['Dressing Table', 'Vanity'],
      },
      {
        name: 'Mattresses',
        slug: 'mattresses',
        shape: 'mattress',
        color: '6d8fa8',
        price: [12000, 72000],
        nouns: ['Spring Mattress', 'Foam Mattress', 'Orthopaedic Mattress'],
        sizes: ['Single 42x78 in', 'Queen 60x80 in', 'King 72x80 in'],
      },
    ],
  },
  {
    name: 'Dining',
    slug: 'dining',
    shape: 'dining-table',
    color: '7a5b3e',
    children: [
      {
        name: 'Dining Tables',
        slug: 'dining-tables',
        shape: 'dining-table',
        color: '8b6443',
        price: [32000, 135000],
        nouns: ['Dining Table', 'Dining Set'],
        sizes: ['4 Seater', '6 Seater', '8 Seater'],
      },
      { name: 'Dining Chairs', slug: 'dining-chairs', shape: 'chair', color: '9a7052', price: [5500, 18000], nouns: ['Dining Chair', 'Upholstered Chair'] },
      { name: 'Sideboards', slug: 'sideboards', shape: 'sideboard', color: '6f5540', price: [28000, 76000], nouns: ['Sideboard', 'Buffet Cabinet'] },
    ],
  },
  {
    name: 'Office',
    slug: 'office',
    shape: 'desk',
    color: '4f5d6b',
    children: [
      {
        name: 'Office Desks',
        slug: 'office-desks',
        shape: 'desk',
        color: '5d6a78',
        price: [16000, 68000],
        nouns: ['Executive Desk', 'Workstation', 'Writing Desk'],
        sizes: ['120 cm', '150 cm'],
      },
      {
        name: 'Office Chairs',
        slug: 'office-chairs',
        shape: 'office-chair',
        color: '3f4a56',
        price: [8500, 42000],
        nouns: ['Ergonomic Chair', 'Executive Chair', 'Task Chair'],
      },
      { name: 'Bookshelves', slug: 'bookshelves', shape: 'bookshelf', color: '7c6451', price: [9500, 36000], nouns: ['Bookshelf', 'Display Shelf'] },
    ],
  },
  {
    name: 'Storage',
    slug: 'storage',
    shape: 'cabinet',
    color: '6b705c',
    children: [
      { name: 'Cabinets', slug: 'cabinets', shape: 'cabinet', color: '7a7f66', price: [11000, 46000], nouns: ['Chest of Drawers', 'Storage Cabinet'] },
      { name: 'Shoe Racks', slug: 'shoe-racks', shape: 'cabinet', color: '8d7a62', price: [6500, 22000], nouns: ['Shoe Rack', 'Shoe Cabinet'] },
    ],
  },
  {
    name: 'Kids',
    slug: 'kids',
    shape: 'kids-bed',
    color: '5b8fb9',
    children: [
      {
        name: 'Kids Beds',
        slug: 'kids-beds',
        shape: 'kids-bed',
        color: '5b8fb9',
        price: [22000, 68000],
        nouns: ['Kids Bed', 'Bunk Bed'],
        sizes: ['Single', 'Bunk'],
      },
      { name: 'Study Tables', slug: 'study-tables', shape: 'desk', color: '6aa391', price: [8000, 26000], nouns: ['Study Table', 'Study Desk'] },
    ],
  },
];

export const NAMES = [
  'Aria',
  'Bokul',
  'Cosmo',
  'Dhaka',
  'Elan',
  'Falgun',
  'Gulmohor',
  'Hasna',
  'Ira',
  'Jamdani',
  'Kadam',
  'Luna',
  'Meghna',
  'Nakshi',
  'Oslo',
  'Padma',
  'Rupsha',
  'Shapla',
  'Teesta',
  'Urbana',
  'Vela',
  'Zen',
  'Karnaphuli',
  'Sundari',
];
export const MATERIALS = ['Oak', 'Teak', 'Walnut', 'Fabric', 'Leatherette', 'Velvet', 'Mahogany', 'Oak Veneer', 'Linen', 'Rattan'];
export const COLORS: [string, string][] = [
  ['Grey', '7d8790'],
  ['Beige', 'c9b79c'],
  ['Walnut', '6b4a33'],
  ['Teal', '2f7f7a'],
  ['Navy', '2e3f63'],
  ['Mustard', 'c79a2b'],
  ['Charcoal', '3c4047'],
  ['Oak', 'b08a5b'],
  ['Olive', '6d7447'],
  ['Maroon', '7a2e35'],
];

export const BRANCHES = [
  {
    name: 'Gulshan Flagship Showroom',
    kind: 'showroom',
    address: 'House 42, Road 11, Gulshan-1',
    city: 'Dhaka',
    phone: '+880 9612 016771',
    hours: 'Sat–Thu 10:00–21:00, Fri 15:00–21:00',
    latitude: 23.7806,
    longitude: 90.4193,
  },
  {
    name: 'Dhanmondi Showroom',
    kind: 'showroom',
    address: 'Plot 7, Satmasjid Road, Dhanmondi',
    city: 'Dhaka',
    phone: '+880 9612 016772',
    hours: 'Sat–Thu 10:00–21:00, Fri 15:00–21:00',
    latitude: 23.7465,
    longitude: 90.3742,
  },
  {
    name: 'Uttara Showroom',
    kind: 'showroom',
    address: 'House 5, Sector 7, Uttara',
    city: 'Dhaka',
    phone: '+880 9612 016773',
    hours: 'Sat–Thu 10:00–20:30',
    latitude: 23.8686,
    longitude: 90.3984,
  },
  {
    name: 'Chattogram GEC Showroom',
    kind: 'showroom',
    address: '1 CDA Avenue, GEC Circle',
    city: 'Chattogram',
    phone: '+880 9612 016774',
    hours: 'Sat–Thu 10:00–20:30',
    latitude: 22.3593,
    longitude: 91.8217,
  },
  {
    name: 'Sylhet Zindabazar Showroom',
    kind: 'showroom',
    address: 'Blue Water Plaza, Zindabazar',
    city: 'Sylhet',
    phone: '+880 9612 016775',
    hours: 'Sat–Thu 10:00–20:00',
    latitude: 24.8966,
    longitude: 91.8698,
  },
  {
    name: 'Gazipur Factory Outlet',
    kind: 'outlet',
    address: 'Board Bazar, Dhaka–Mymensingh Highway',
    city: 'Gazipur',
    phone: '+880 9612 016776',
    hours: 'Every day 09:00–19:00',
    latitude: 23.9476,
    longitude: 90.3795,
  },
];

export const CURRENCIES = [
  { code: 'BDT', country: 'bangladesh', rate: 1, num_code: '+88' },
  { code: 'USD', country: 'united states', rate: 122, num_code: '+1' },
  { code: 'EUR', country: 'european union', rate: 131.5, num_code: '+32' },
  { code: 'GBP', country: 'united kingdom', rate: 155.2, num_code: '+44' },
  { code: 'INR', country: 'india', rate: 1.45, num_code: '+91' },
  { code: 'AED', country: 'united arab emirates', rate: 33.2, num_code: '+971' },
];
