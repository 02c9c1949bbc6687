import { ListingView, listingMeta } from '../components/catalogue/listing-view.tsx';
import { loadListing } from '../lib/listing.server.ts';
import type { Route } from './+types/new-arrival';

const ABOUT = 'The newest furniture in the shop: pieces added in the last weeks.';

export async function loader({ context, request }: Route.LoaderArgs) {
  return loadListing(context, request, '/new-arrival');
}

export function meta({ data, matches }: Route.MetaArgs) {
  return listingMeta(data, matches, ABOUT);
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <ListingView data={loaderData} />;
}
