import { ZApiError } from '@storefront/shared';

/** Error replies documented on every route. */
export const errorResponses = {
  400: ZApiError,
  401: ZApiError,
  404: ZApiError,
} as const;
