import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { compileCatalog } from '../../packages/shared/src/i18n/compile.ts';
import { parseLocale } from '../../packages/shared/src/i18n/locales.ts';

// `virtual:i18n/en` and `virtual:i18n/bn`: each language's catalogue compiled at build time
// (packages/shared/src/i18n/compile.ts), so the browser gets ready-made messages and no ICU
// parser (docs/decisions/0038). The catalogue is read when the build (or `npm run dev`)
// starts: restart the dev server after editing one.
//
// `virtual:i18n/chunk-urls`: where the browser build put each catalogue that loads as a chunk
// of its own (Bangla), for the server to preload it on pages in that language. The client
// build runs first and records them beside its output (`client/.vite/`, the folder of Vite's
// own manifest); the server build reads them. In dev there is no such file: the catalogue
// then loads without a preload.
const PREFIX = 'virtual:i18n/';
const CHUNK_URLS = `${PREFIX}chunk-urls`;
const RECORD = '.vite/i18n-chunks.json';

export function i18nCatalogs(): Plugin {
  let outDir = '';
  let building = false;
  return {
    name: 'storefront-i18n-catalogs',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      building = config.command === 'build';
    },
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    generateBundle(_options, bundle) {
      if (this.environment?.name !== 'client') return;
      const urls: Record<string, string> = {};
      for (const chunk of Object.values(bundle)) {
        const locale = chunk.type === 'chunk' && chunk.facadeModuleId?.startsWith(`\0${PREFIX}`) && parseLocale(chunk.facadeModuleId.slice(PREFIX.length + 1));
        if (locale) urls[locale] = `/${chunk.fileName}`;
      }
      this.emitFile({ type: 'asset', fileName: RECORD, source: JSON.stringify(urls) });
    },
    load(id) {
      if (id === `\0${CHUNK_URLS}`) {
        // The server build's outDir is build/server; the client's is its sibling.
        const record = path.join(path.dirname(outDir), 'client', RECORD);
        const urls = building && this.environment?.name !== 'client' && fs.existsSync(record) ? fs.readFileSync(record, 'utf8') : '{}';
        return `export default ${urls};`;
      }
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const locale = parseLocale(id.slice(PREFIX.length + 1));
      if (!locale) throw new Error(`unknown catalogue ${id}`);
      return `export default ${JSON.stringify(compileCatalog(locale))};`;
    },
  };
}
