import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, testDbKind } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('GET /api/health', () => {
  it('answers ok with the kind of database it runs on', async () => {
    const res = await t.api('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: testDbKind() });
  });

  it('runs on the database its vitest project names', async ({ task }) => {
    // api-sqlite and api-postgres must each really run their own database.
    const project = task.file.projectName;
    expect(project).toMatch(/^api-(sqlite|postgres)$/);
    const res = await t.api('/api/health');
    expect(`api-${res.body.database}`).toBe(project);
  });

  it('needs no API key', async () => {
    const res = await t.api('/api/health', { apiKey: null });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('answers 503 unavailable, not a crash, when the database is gone', async () => {
    // A second app on a database that is closed at once.
    const other = await startTestApp({ seed: false });
    try {
      await other.db.destroy();
      const res = await other.api('/api/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', database: testDbKind() });
    } finally {
      // Its database is already closed; close() still removes it.
      await other.close().catch(() => {});
    }
  });
});
