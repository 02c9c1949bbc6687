import { randomBytes } from 'node:crypto';
import type { Plugin } from 'vite';

// Build freshness (spec §4, §9; docs/decisions/0011):
// 1. every build gets an id, compiled into the client code as __BUILD_ID__;
// 2. the client build writes it to /latest-build.json, which open tabs poll hourly;
// 3. React Router's own "reload when a route module fails to load" is routed through the
//    app's handler (app/lib/build-freshness.ts), which reloads only when a newer build
//    exists and not twice within 10 seconds.

const LATEST_BUILD_FILE = 'latest-build.json';

// React Router builds the client and the server with the same config in one process;
// one id for both. BUILD_ID from the environment wins (a CI pipeline's commit id, say).
const g = globalThis as { __storefrontBuildId?: string };
const buildId = (g.__storefrontBuildId ??= process.env.BUILD_ID || `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`);

// In react-router 7.18.4, loadRouteModule ends its catch block with these lines.
const RELOAD_PATTERN = /(reloading page\.\.\.`[\s\S]{0,400}?)window\.location\.reload\(\);\s*return new Promise\(\(\) => \{\s*\}\);/;
const RELOAD_REPLACEMENT =
  '$1if (typeof window.__storefrontRouteModuleError === "function") return window.__storefrontRouteModuleError(error, route);\n' +
  '    window.location.reload();\n    return new Promise(() => {});';

export function buildInfo(): Plugin {
  let patched = 0;
  let isBuild = false;
  return {
    name: 'storefront-build-info',
    config() {
      return { define: { __BUILD_ID__: JSON.stringify(buildId) } };
    },
    configResolved(config) {
      isBuild = config.command === 'build';
    },
    transform(code, id) {
      if (!/[\\/]react-router[\\/]dist[\\/]/.test(id) || !code.includes('reloading page...')) return null;
      const next = code.replace(RELOAD_PATTERN, RELOAD_REPLACEMENT);
      // Fail loudly rather than ship a build whose chunk reloads are unguarded.
      if (next === code) this.error('build-info: react-router changed its route module reload; update RELOAD_PATTERN (docs/decisions/0011)');
      patched++;
      return { code: next, map: null };
    },
    generateBundle() {
      const consumer = (this as { environment?: { config?: { consumer?: string } } }).environment?.config?.consumer;
      if (consumer && consumer !== 'client') return;
      this.emitFile({ type: 'asset', fileName: LATEST_BUILD_FILE, source: `${JSON.stringify({ buildId, builtAt: new Date().toISOString() })}\n` });
    },
    buildEnd(error) {
      const consumer = (this as { environment?: { config?: { consumer?: string } } }).environment?.config?.consumer;
      // The dev server pre-bundles react-router, out of reach of transform (decision 0011).
      if (isBuild && !error && consumer === 'client' && patched === 0)
        this.error('build-info: react-router route module loader not found in the client build (docs/decisions/0011)');
    },
  };
}
