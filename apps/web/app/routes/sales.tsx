import { ListingView, listingMeta } from '../components/catalogue/listing-view.tsx';
import { loadListing } from '../lib/listing.server.ts';
import type { Route } from './+types/sales';

const ABOUT = 'Furniture on sale now: reduced prices across sofas, beds, dining and office.';

export async function loader({ context, request }: Route.LoaderArgs) {
  return loadListing(context, request, '/sales');
}

export function meta({ data, matches }: Route.MetaArgs) {
  return listingMeta(data, matches, ABOUT);
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <ListingView data={loaderData} />;
}
