import fs from 'node:fs';
import path from 'node:path';
import { TraceMap } from '@jridgewell/trace-mapping';

/** The source map of a built asset by its address (built with WEB_SOURCEMAP=1), read once; null without one. */
export function sourceMaps(build: string): (url: string) => TraceMap | null {
  const maps = new Map<string, TraceMap | null>();
  return (url) => {
    if (!maps.has(url)) {
      const file = path.join(build, 'client', `${new URL(url).pathname}.map`);
      maps.set(url, fs.existsSync(file) ? new TraceMap(fs.readFileSync(file, 'utf8')) : null);
    }
    return maps.get(url) ?? null;
  };
}

/** A readable name for a source: the package for node_modules, else the path under the repo. */
export function shortSource(source: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg) return `npm:${pkg[1]}`;
  // The web app's sources are relative to its build: ../../../app/lib/x.ts.
  return source.replace(/^(\.\.\/)+/, 'apps/web/').replace(/^.*?\/(apps|packages)\//, '$1/');
}
