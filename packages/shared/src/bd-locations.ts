// Bangladesh's administrative levels for delivery addresses: the 8 divisions and their
// 64 districts (zila), with the spellings in official use since 2018 (Chattogram, Cumilla,
// Barishal, Bogura, Jashore). The third level, the area (thana, upazila or city
// neighbourhood such as "Gulshan 2"), is typed by the shopper: there are some 500
// upazilas and many more neighbourhoods, and couriers read them as written.

export const BD_DIVISIONS = {
  Barishal: ['Barguna', 'Barishal', 'Bhola', 'Jhalokati', 'Patuakhali', 'Pirojpur'],
  Chattogram: ['Bandarban', 'Brahmanbaria', 'Chandpur', 'Chattogram', "Cox's Bazar", 'Cumilla', 'Feni', 'Khagrachhari', 'Lakshmipur', 'Noakhali', 'Rangamati'],
  Dhaka: [
    'Dhaka',
    'Faridpur',
    'Gazipur',
    'Gopalganj',
    'Kishoreganj',
    'Madaripur',
    'Manikganj',
    'Munshiganj',
    'Narayanganj',
    'Narsingdi',
    'Rajbari',
    'Shariatpur',
    'Tangail',
  ],
  Khulna: ['Bagerhat', 'Chuadanga', 'Jashore', 'Jhenaidah', 'Khulna', 'Kushtia', 'Magura', 'Meherpur', 'Narail', 'Satkhira'],
  Mymensingh: ['Jamalpur', 'Mymensingh', 'Netrokona', 'Sherpur'],
  Rajshahi: ['Bogura', 'Chapai Nawabganj', 'Joypurhat', 'Naogaon', 'Natore', 'Pabna', 'Rajshahi', 'Sirajganj'],
  Rangpur: ['Dinajpur', 'Gaibandha', 'Kurigram', 'Lalmonirhat', 'Nilphamari', 'Panchagarh', 'Rangpur', 'Thakurgaon'],
  Sylhet: ['Habiganj', 'Moulvibazar', 'Sunamganj', 'Sylhet'],
} as const satisfies Record<string, readonly string[]>;

export type TDivision = keyof typeof BD_DIVISIONS;

export const DIVISION_NAMES = Object.keys(BD_DIVISIONS) as TDivision[];

export function isDivision(name: string): name is TDivision {
  return Object.hasOwn(BD_DIVISIONS, name);
}

/** The districts of a division, or an empty list for an unknown division. */
export function districtsOf(division: string): readonly string[] {
  return isDivision(division) ? BD_DIVISIONS[division] : [];
}

export function isDistrictOf(division: string, district: string): boolean {
  return districtsOf(division).includes(district);
}

/** Every district of the country, division by division. */
export const ALL_DISTRICTS: readonly string[] = Object.values(BD_DIVISIONS).flat();
