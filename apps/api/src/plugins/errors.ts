import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDataException } from '../db/dialect/data-exception.ts';
import { isDatabaseUnavailable } from '../db/dialect/unavailable.ts';
import { ApiError, BusyError, type RateLimitedError } from '../lib/errors.ts';
import { storageFullOf } from '../lib/storage-full.ts';

type Body = { error: { code: string; message: string; fields?: Record<string, string> } };

// Fastify's own client errors, by code, mapped to our codes and plain messages.
const FASTIFY_CLIENT_ERRORS: Record<string, [string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'This content type is not accepted here'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['bad_request', 'The Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['bad_request', 'The JSON body is empty'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['bad_request', 'The body is not valid JSON'],
  FST_ERR_CTP_MALFORMED_JSON: ['bad_request', 'The body is not valid JSON'],
};

/** A full disk is logged at most this often: every refused request would otherwise write a line to it (docs/decisions/0053). */
const STORAGE_FULL_LOG_MS = 60_000;
/** What a full disk tells the client: not its fault, and not over in seconds. */
const STORAGE_FULL_RETRY_AFTER_S = 60;

export function errorBody(code: string, message: string, fields?: Record<string, string>): Body {
  return { error: fields && Object.keys(fields).length ? { code, message, fields } : { code, message } };
}

function fieldsFromValidation(error: FastifyError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.validation ?? []) {
    const raw = (issue as { instancePath?: string }).instancePath ?? '';
    const key = raw.replace(/^\//, '').replace(/\//g, '.') || (issue.params as { missingProperty?: string })?.missingProperty || '_';
    if (!fields[key]) fields[key] = issue.message ?? 'Invalid value';
  }
  return fields;
}

/** One error handler for the whole API: one shape, no stack, no 5xx text for clients. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  // A request refused before its body was read (no API key, a content type the route does
  // not read, too large, over an upload quota) has its connection closed after the answer:
  // with keep-alive, Node would read the rest of the body and throw it away, so a client
  // streaming garbage behind a refused head would keep a connection and a core busy for
  // as long as it liked (docs/decisions/0024). Node ends the socket once the answer is out.
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode >= 400 && !request.raw.complete) reply.header('connection', 'close');
  });

  let storageFullLoggedAt = Number.NEGATIVE_INFINITY;
  let storageFullSinceLog = 0;

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      if (error.status === 429 && !reply.getHeader('retry-after')) {
        reply.header('retry-after', String((error as Partial<RateLimitedError>).retryAfterSeconds ?? 60));
      }
      if (error instanceof BusyError) reply.header('retry-after', String(error.retryAfterSeconds));
      // Any other refusal that knows when to come back (a picture budget: docs/decisions/0050).
      const after = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
      if (after && !reply.getHeader('retry-after')) reply.header('retry-after', String(after));
      return reply.status(error.status).send(errorBody(String(error.code), error.message, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const where = (error as { validationContext?: string }).validationContext ?? 'body';
      return reply.status(400).send(errorBody('validation_error', `The request ${where} is not valid`, fieldsFromValidation(error)));
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return reply.status(error.statusCode ?? 400).send(errorBody(known[0], known[1]));
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send(errorBody('rate_limited', 'Too many requests, please try again later'));
    if (status >= 400 && status < 500) {
      // Other client errors raised by Fastify or a plugin: keep the status, not the internals.
      return reply.status(status).send(errorBody('bad_request', error.message && error.message.length < 200 ? error.message : 'The request is not valid'));
    }
    const full = storageFullOf(error);
    if (full) {
      // The shop cannot write until an operator makes room: 503 with a wait, as when the
      // database is unreachable; the code storage_full stays the guests' file allowance
      // (507, docs/decisions/0024). Counted in /metrics (storefront_storage_full_errors_total).
      storageFullSinceLog++;
      if (Date.now() - storageFullLoggedAt >= STORAGE_FULL_LOG_MS) {
        request.log.error({ err: error, store: full, refusedSinceLastLine: storageFullSinceLog }, `storage is full (${full}): writes are refused with 503`);
        storageFullLoggedAt = Date.now();
        storageFullSinceLog = 0;
      }
      return reply
        .status(503)
        .header('retry-after', String(STORAGE_FULL_RETRY_AFTER_S))
        .send(errorBody('service_unavailable', 'The shop cannot save anything right now. Please try again in a few minutes.'));
    }
    if (isDataException(error)) {
      // A value the database refused (out of range, not valid text): the client's input.
      request.log.warn({ err: error }, 'the database refused a value from the request');
      return reply.status(400).send(errorBody('invalid_value', 'A value in the request is out of range or not valid text'));
    }
    if (isDatabaseUnavailable(error)) {
      // Not the shopper's fault and not a bug: the database is down, restarting or locked.
      // The pool reconnects by itself; the client may simply try again.
      request.log.warn({ err: error }, 'the database is unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(errorBody('service_unavailable', 'The shop cannot reach its database right now. Please try again in a moment.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('internal_error', 'Something went wrong on our side. Please try again.'));
  });
});

/**
 * Answers sent before Fastify's hooks run (so before helmet's) still carry what every
 * other answer carries (app.ts sets the same through helmet).
 */
const BARE_ANSWER_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

/**
 * Requests Node's HTTP parser refuses before any route runs (a head over 16 KB, a broken
 * request line, a client too slow to send its head) get the one error shape too; Fastify's
 * default answers them with a JSON body of its own.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'headers_too_large', 'The request headers or URL are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_timeout', 'The request took too long to arrive']
        : [400, 'Bad Request', 'bad_request', 'The request is not valid HTTP'];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    // Written by hand, before any hook: the hardening headers of every other answer too.
    const head = [
      `HTTP/1.1 ${status} ${reason}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Content-Type: application/json; charset=utf-8',
      ...Object.entries(BARE_ANSWER_HEADERS).map(([k, v]) => `${k}: ${v}`),
      'Connection: close',
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/**
 * Errors of Fastify's router, raised before any route or error handler (a path with a
 * broken percent-escape, a path parameter over the length limit): the one error shape.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(BARE_ANSWER_HEADERS);
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply.status(400).send(errorBody('bad_request', 'The URL is not valid (a broken percent-escape)'));
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(414).send(errorBody('uri_too_long', 'A part of the URL is too long'));
  } else {
    reply.log.error({ err: error }, 'router error');
    void reply.status(500).send(errorBody('internal_error', 'Something went wrong on our side. Please try again.'));
  }
}
