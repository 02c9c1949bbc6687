import { MESSAGES } from '@storefront/shared';
import { data } from 'react-router';
import type { Route } from './+types/not-found';

// Any path no screen claims: status 404 with 'Page not found: {path}' (spec §2).
export async function loader({ request }: Route.LoaderArgs) {
  const path = decodeURIComponent(new URL(request.url).pathname);
  // The path beside the message: the error page says the sentence in the shopper's language.
  throw data({ message: MESSAGES.notFound(path), path }, { status: 404 });
}

export default function NotFound() {
  return null;
}
