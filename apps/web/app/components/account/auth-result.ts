import { ACCOUNT_MESSAGES, MESSAGES } from '@storefront/shared';
import type { ApiResult } from '../../lib/api-client.ts';

/**
 * What a failed account call means for the form (spec §8). Network failures and server
 * faults are shown too, not only logged (decisions.md); what was typed is never cleared.
 */
export function formFailure(res: Extract<ApiResult<unknown>, { ok: false }>): { form?: string; fields?: Record<string, string> } {
  if (res.networkError) return { form: MESSAGES.network.unreachable };
  if (res.status === 429) return { form: res.error?.message ?? ACCOUNT_MESSAGES.rateLimited(60) };
  if (res.status >= 500 || res.status === 0) {
    // spec §8: "System is under maintenance" is logged; the shopper is told plainly too.
    console.warn('System is under maintenance', res.status);
    return { form: ACCOUNT_MESSAGES.serverError };
  }
  if (res.error?.fields && Object.keys(res.error.fields).length) return { fields: res.error.fields };
  return { form: res.error?.message ?? ACCOUNT_MESSAGES.serverError };
}
