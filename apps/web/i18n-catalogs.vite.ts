import type { Plugin } from 'vite';
import { compileCatalog } from '../../packages/shared/src/i18n/compile.ts';
import { parseLocale } from '../../packages/shared/src/i18n/locales.ts';

// `virtual:i18n/en` and `virtual:i18n/bn`: each language's catalogue compiled at build time
// (packages/shared/src/i18n/compile.ts), so the browser gets ready-made messages and no ICU
// parser (docs/decisions/0038). The catalogue is read when the build (or `npm run dev`)
// starts: restart the dev server after editing one.
const PREFIX = 'virtual:i18n/';

export function i18nCatalogs(): Plugin {
  return {
    name: 'storefront-i18n-catalogs',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const locale = parseLocale(id.slice(PREFIX.length + 1));
      if (!locale) throw new Error(`unknown catalogue ${id}`);
      // A string for JSON.parse rather than an object literal: V8 parses JSON faster than
      // JavaScript, and the Bangla catalogue (about 100 KB) is evaluated before hydration.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(compileCatalog(locale)))});`;
    },
  };
}
