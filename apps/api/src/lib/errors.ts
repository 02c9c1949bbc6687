import { ERROR_STATUS, type TErrorCode } from '@storefront/shared';

/** An expected failure that reaches the client in the one error shape. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: TErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    status?: number,
  ) {
    super(message);
    this.status = status ?? ERROR_STATUS[code as keyof typeof ERROR_STATUS] ?? 400;
  }
}

export const notFound = (what = 'The item') => new ApiError('not_found', `${what} was not found`);
export const badRequest = (message: string, fields?: Record<string, string>) => new ApiError('bad_request', message, fields);
/** A 400 about one field of a form, its message shown by that field. */
export const fieldError = (field: string, message: string) => new ApiError('validation_error', message, { [field]: message });
export const conflict = (code: string, message: string, fields?: Record<string, string>) => new ApiError(code, message, fields, 409);

/** A 429 that says when to try again: the error handler sends it as Retry-After (seconds). */
export class RateLimitedError extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    fields?: Record<string, string>,
  ) {
    super('rate_limited', message, fields, 429);
  }
}

/** More work than the process can do in time: 503 with Retry-After (docs/decisions/0029). */
export class BusyError extends ApiError {
  readonly retryAfterSeconds = 2;
  constructor() {
    super('service_unavailable', 'The shop is very busy right now. Please try again in a moment.', undefined, 503);
  }
}
