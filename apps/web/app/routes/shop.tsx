import { ListingView, listingMeta } from '../components/catalogue/listing-view.tsx';
import { loadListing } from '../lib/listing.server.ts';
import type { Route } from './+types/shop';

const ABOUT = 'Sofas, beds, dining, office and storage furniture made in Bangladesh. Browse by category, filter by colour, size and price.';

export async function loader({ context, request }: Route.LoaderArgs) {
  return loadListing(context, request, '/shop');
}

export function meta({ data, matches }: Route.MetaArgs) {
  return listingMeta(data, matches, ABOUT);
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <ListingView data={loaderData} />;
}
