import { MESSAGES } from '@storefront/shared';
import { data } from 'react-router';
import type { Route } from './+types/not-found';

// Any path no screen claims: status 404 with 'Page not found: {path}' (spec §2).
export async function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  throw data({ message: MESSAGES.notFound(decodeURIComponent(pathname)) }, { status: 404 });
}

export default function NotFound() {
  return null;
}
