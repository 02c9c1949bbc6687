import { expect } from 'vitest';
import type { ApiResponse } from './test-app.ts';

/**
 * The one error shape of conventions.md: JSON `{ error: { code, message, fields? } }`,
 * nothing else beside it, and no stack or internals in the message.
 */
export function expectApiError(res: ApiResponse, status: number, code?: string): void {
  expect(res.status, `status of ${res.text.slice(0, 200)}`).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(Object.keys(res.body)).toEqual(['error']);
  const { error } = res.body;
  expect(typeof error.code).toBe('string');
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  for (const key of Object.keys(error)) expect(['code', 'message', 'fields']).toContain(key);
  if (error.fields !== undefined) {
    for (const v of Object.values(error.fields)) expect(typeof v).toBe('string');
  }
  expect(error.message).not.toMatch(/\n\s+at |node_modules|FST_/);
  if (code) expect(error.code).toBe(code);
}
