import { redirect } from 'react-router';
import type { Route } from './+types/showrooms-redirect';

// The spec names a showrooms page without a path; it is /outlets. /showrooms is
// the address people guess, so it leads there for good.
export function loader({ request }: Route.LoaderArgs) {
  const { search } = new URL(request.url);
  return redirect(`/outlets${search}`, 301);
}
