declare module 'virtual:i18n/chunk-urls' {
  /** Each catalogue that loads as a chunk of its own, by language: its URL in the browser build. */
  const urls: Partial<Record<string, string>>;
  export default urls;
}
declare module 'virtual:i18n/*' {
  import type { CompiledCatalog } from '@storefront/shared/i18n/compile';
  const messages: CompiledCatalog;
  export default messages;
}
