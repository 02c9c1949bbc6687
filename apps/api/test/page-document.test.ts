import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The document the server renders, as a browser reads it: the page's scripts preloaded at
// low priority behind the stylesheet (decision 0046), and the page otherwise whole.

const WEB_BUILD = path.resolve(REPO_ROOT, process.env.WEB_BUILD_DIR ?? 'apps/web/build');
let t: TestApp;

beforeAll(async () => {
  if (!fs.existsSync(path.join(WEB_BUILD, 'server/index.js'))) throw new Error(`${WEB_BUILD} is missing: run \`npm run build\` first`);
  t = await startTestApp({ config: { webBuildDir: WEB_BUILD, pageCacheMs: 0 } });
});
afterAll(() => t?.close());

describe('the rendered document', () => {
  for (const url of ['/', '/?lang=bn', '/shop']) {
    it(`${url}: every module preload asks for low priority, the stylesheet does not, and the page ends whole`, async () => {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      const html = res.body;
      const head = html.slice(0, html.indexOf('</head>'));
      const preloads = head.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
      expect(preloads.length).toBeGreaterThan(2);
      for (const link of preloads) expect(link).toContain('fetchpriority="low"');
      expect(head).toMatch(/<link rel="stylesheet" href="\/assets\/app-[^"]+\.css" data-precedence="high"\/>/);
      expect(html).not.toContain('\uFFFD');
      expect(html.trimEnd().endsWith('</html>')).toBe(true);
      // A Bangla page preloads its catalogue too (decision 0038), an English one has none to load.
      const catalogue = preloads.filter((link) => /href="\/assets\/bn-[\w-]+\.js"/.test(link));
      if (url.includes('lang=bn')) {
        expect(html).toMatch(/[\u0980-\u09FF]{3}/);
        expect(catalogue).toHaveLength(1);
      } else expect(catalogue).toEqual([]);
    });
  }
});
