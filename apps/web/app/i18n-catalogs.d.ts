declare module 'virtual:i18n/*' {
  import type { CompiledCatalog } from '@storefront/shared/i18n/compile';
  const messages: CompiledCatalog;
  export default messages;
}
