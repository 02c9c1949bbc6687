// Where a page may send the visitor after signing in or up (?redirectTo=…). A value is
// used only when the browser would read it as a path of the shop itself: it is parsed as a
// URL against the shop's origin exactly as a browser resolves a link, and kept only when
// the result has that origin. Checking the text instead ("starts with / but not //")
// misses what browsers forgive: a backslash for a slash, tabs and newlines dropped
// anywhere, leading spaces and controls, a scheme without slashes.

/** Stands in for the shop's origin when none is known: only its being one origin matters. */
const PLACEHOLDER_ORIGIN = 'http://shop.invalid';

/**
 * The path, query and fragment `value` points to when it stays on `origin`; otherwise
 * `fallback`. The answer always starts with a single `/`, so it cannot be read as another
 * host wherever it is used (a link, navigate(), a Location header).
 */
export function safeRedirect(value: string | null | undefined, opts: { origin?: string | null; fallback?: string } = {}): string {
  const fallback = opts.fallback ?? '/profile';
  if (!value) return fallback;
  let base: URL;
  try {
    base = new URL(opts.origin || PLACEHOLDER_ORIGIN);
  } catch {
    base = new URL(PLACEHOLDER_ORIGIN);
  }
  let target: URL;
  try {
    target = new URL(value, base);
  } catch {
    return fallback;
  }
  if (target.origin !== base.origin || target.username || target.password) return fallback;
  // A value with a scheme of its own must name the shop on its own too: "https:evil.com"
  // resolves to a path of an https page but to another host from an http one.
  let alone: URL | null = null;
  try {
    alone = new URL(value);
  } catch {
    // No scheme: a path, resolved above.
  }
  if (alone && alone.origin !== base.origin) return fallback;
  const path = `${target.pathname}${target.search}${target.hash}`;
  // "/.//evil.com" and the like resolve to a path that starts with "//": on its own that
  // path names a host.
  if (!path.startsWith('/') || path.startsWith('//')) return fallback;
  return path;
}
