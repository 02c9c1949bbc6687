import { RELOAD_GUARD_MS } from './constants.ts';

// Build freshness (spec §4, §9): the app knows the id of the build it runs, polls the
// latest build's id hourly, and when a page chunk fails to load (the old chunk is gone
// after a deploy) reloads once onto the new build. A marker with the time of the last
// reload keeps it from looping when the reload does not help.

export const LATEST_BUILD_PATH = '/latest-build.json';
export const RELOAD_MARKER_KEY = 'build-reload-at';

/** The latest-build file's shape. */
export interface LatestBuild {
  buildId: string;
  builtAt?: string;
}

export function parseLatestBuild(value: unknown): LatestBuild | null {
  if (!value || typeof value !== 'object') return null;
  const id = (value as { buildId?: unknown }).buildId;
  return typeof id === 'string' && id.trim() !== '' ? { buildId: id, builtAt: String((value as { builtAt?: unknown }).builtAt ?? '') || undefined } : null;
}

/** A newer build exists when the latest id is known and differs from ours. */
export function isNewerBuild(currentBuildId: string, latestBuildId: string | null | undefined): boolean {
  return !!latestBuildId && !!currentBuildId && latestBuildId !== currentBuildId;
}

/**
 * Reload after a failed chunk load only when a newer build exists and no reload happened
 * in the last 10 seconds (the marker holds the time of the last one, or null).
 */
export function shouldReloadForChunkError(input: {
  currentBuildId: string;
  latestBuildId: string | null | undefined;
  lastReloadAt: number | null;
  now: number;
}): boolean {
  if (!isNewerBuild(input.currentBuildId, input.latestBuildId)) return false;
  if (input.lastReloadAt == null || !Number.isFinite(input.lastReloadAt)) return true;
  const since = input.now - input.lastReloadAt;
  // A marker a little in the future counts as fresh; one far in the future means the clock
  // was set back, and must not block reloads for the rest of the visit.
  return since >= RELOAD_GUARD_MS || since < -RELOAD_GUARD_MS;
}

/** Messages browsers give when a dynamic import or a module script fails to load. */
export function isChunkLoadError(error: unknown): boolean {
  const msg = String((error as { message?: unknown })?.message ?? error ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk [\w-]+ failed/i.test(
    msg,
  );
}
