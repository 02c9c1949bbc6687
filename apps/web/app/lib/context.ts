import type { WebLoadContext } from '@storefront/shared';

declare module 'react-router' {
  interface AppLoadContext extends WebLoadContext {}
}
