import {
  BUILD_CHECK_INTERVAL_MS,
  isChunkLoadError,
  LATEST_BUILD_PATH,
  parseLatestBuild,
  RELOAD_MARKER_KEY,
  shouldReloadForChunkError,
} from '@storefront/shared';
import { createElement, useEffect } from 'react';
import { ErrorPage } from '../components/layout/error-page.tsx';

// Build freshness in the browser (spec §4, §9; docs/decisions/0011). The rules are in
// packages/shared/src/build-freshness.ts; this file wires them to the page.

declare global {
  /** The id of the build this code belongs to (build-info.vite.ts). */
  const __BUILD_ID__: string;
  interface Window {
    /**
     * Called by React Router when a route module fails to load (patched in by
     * build-info.vite.ts). Resolves to the module to use in its place, or never (reloading).
     */
    __storefrontRouteModuleError?: (error: unknown, route: { module: string }) => Promise<{ default: () => unknown }>;
  }
}

export const BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';

let latestBuildId: string | null = null;
let lastCheckAt = 0;

/** Reads /latest-build.json past every cache; null when it cannot be read. */
export async function checkLatestBuild(): Promise<string | null> {
  lastCheckAt = Date.now();
  try {
    const res = await fetch(`${LATEST_BUILD_PATH}?t=${Date.now()}`, { cache: 'no-store', credentials: 'omit' });
    if (!res.ok) return latestBuildId;
    const info = parseLatestBuild(await res.json());
    if (info) latestBuildId = info.buildId;
  } catch {
    // Offline or mid-deploy: keep what we knew.
  }
  return latestBuildId;
}

function readMarker(): number | null {
  try {
    const v = sessionStorage.getItem(RELOAD_MARKER_KEY);
    return v == null ? null : Number(v);
  } catch {
    return null;
  }
}

function writeMarker(at: number): boolean {
  try {
    sessionStorage.setItem(RELOAD_MARKER_KEY, String(at));
    return true;
  } catch {
    // Without storage there is no guard against a loop: do not reload at all.
    return false;
  }
}

/**
 * A page chunk failed to load. Reloads (and answers true) when a newer build exists and
 * no reload happened in the last 10 seconds; otherwise answers false and the caller
 * shows an error.
 */
export async function handleChunkLoadError(): Promise<boolean> {
  let latest = latestBuildId;
  // The hourly poll may not have seen the deploy yet: one more look before deciding.
  if (!latest || latest === BUILD_ID) latest = await checkLatestBuild();
  const now = Date.now();
  if (!shouldReloadForChunkError({ currentBuildId: BUILD_ID, latestBuildId: latest, lastReloadAt: readMarker(), now })) return false;
  if (!writeMarker(now)) return false;
  window.location.reload();
  return true;
}

export const CHUNK_ERROR_MESSAGE = 'This page could not be loaded. Please check your connection and try again.';

function ChunkLoadErrorPage() {
  return createElement(ErrorPage, { status: 503, statusMessage: 'Service Unavailable', description: CHUNK_ERROR_MESSAGE });
}

function install() {
  if (typeof window === 'undefined' || window.__storefrontRouteModuleError) return;
  window.__storefrontRouteModuleError = async (error) => {
    console.error('A page chunk failed to load', error);
    if (await handleChunkLoadError()) return new Promise<never>(() => {});
    // React Router ignores a failed lazy route component (the page would stay blank), so
    // the page's place is taken by one that says what happened. Until the next full load.
    return { default: ChunkLoadErrorPage };
  };
  // The import still fails for its caller (no preventDefault), which shows its own error.
  window.addEventListener('vite:preloadError', (event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (payload === undefined || isChunkLoadError(payload)) void handleChunkLoadError();
  });
}

// Installed when this module loads (with the root route), before any navigation can need it.
install();

/** Polls the latest-build file hourly, and on return to a tab that missed a check. */
export function useBuildFreshness() {
  useEffect(() => {
    // Marks the page as running (hydrated) this build; tests and support read it.
    document.documentElement.dataset.build = BUILD_ID;
    lastCheckAt = Date.now();
    const timer = setInterval(() => void checkLatestBuild(), BUILD_CHECK_INTERVAL_MS);
    // Background tabs throttle timers; catch up when the shopper comes back.
    const onVisible = () => {
      if (document.visibilityState === 'visible' && Date.now() - lastCheckAt >= BUILD_CHECK_INTERVAL_MS) void checkLatestBuild();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
}
