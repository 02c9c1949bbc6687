import type { TApiError } from '@storefront/shared';
import { type AppLoadContext, data, redirect } from 'react-router';

/**
 * A back-office loader's read of /api/admin (in-process, the staff cookie forwarded). No
 * session: to the sign-in page, coming back here after; an owner who must set up two-factor:
 * to their account page; a role without the permission: the page's 403.
 */
export async function adminRead<T>(context: AppLoadContext, request: Request, path: string): Promise<T> {
  const res = await context.api(path);
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : null;
  if (res.ok) return json as T;
  const error = (json as TApiError | null)?.error;
  if (res.status === 401) {
    const url = new URL(request.url);
    throw redirect(`/admin/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (res.status === 403 && error?.code === 'two_factor_enrolment_required' && new URL(request.url).pathname !== '/admin/account') {
    throw redirect('/admin/account');
  }
  throw data({ message: error?.message ?? 'The back office could not answer' }, { status: res.status === 400 ? 404 : res.status });
}

/** adminRead for something that may not exist yet (an order's consignment): null on 404. */
export async function adminReadOptional<T>(context: AppLoadContext, request: Request, path: string): Promise<T | null> {
  const res = await context.api(path);
  if (res.status === 404) return null;
  const text = await res.text();
  if (res.ok) return (text ? JSON.parse(text) : null) as T;
  // Any other answer is the page's problem, said the way adminRead says it.
  return adminRead<T>(context, request, path);
}
