import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';

// The real server entry (main.ts, compiled) in production: it refuses the test gateway
// and built-in secrets in one log line and exits non-zero, before it touches the database
// (docs/decisions/0027). The rules themselves are unit-tested in src/config.test.ts. The
// child runs on SQLite in a temp folder whichever database the vitest project names.

// The compiled server, as production runs it (npm test builds it first).
const MAIN = path.join(REPO_ROOT, 'apps/api/dist/main.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-prod-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts main.ts with only the given settings; `untilReady` stops it (SIGTERM) once it says it is ready. */
function runMain(settings: Record<string, string>, untilReady = false): Promise<Run> {
  const dataDir = fs.mkdtempSync(path.join(tmp, 'data-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    WEB_BUILD_DIR: '',
    SEED_DEMO: '0',
    ...settings,
  };
  const child = spawn(process.execPath, [MAIN], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { code: null, signal: null, stdout: '', stderr: '' };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`main.ts did not finish in time:\n${run.stdout}\n${run.stderr}`));
    }, 30_000);
    child.stdout.on('data', (d: Buffer) => {
      run.stdout += d;
      if (untilReady && run.stdout.includes('shop is ready')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (run.stderr += d));
    // 'close', not 'exit': only then has everything the child wrote been read from its pipes.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      run.code = code;
      run.signal = signal;
      resolve(run);
    });
  });
}

describe('starting in production', () => {
  it('refuses the built-in test gateway: exit 1, one log line saying what to set, no database made', async () => {
    const run = await runMain({ NODE_ENV: 'production' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    const line = JSON.parse(lines[0]);
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(/^refusing to start in production/);
    expect(line.msg).toContain('PAYMENT_PROVIDER=sslcommerz');
    expect(line.msg).toContain('ALLOW_TEST_PAYMENTS=1');
    const made = fs.readdirSync(tmp).flatMap((d) => fs.readdirSync(path.join(tmp, d)));
    expect(made).not.toContain('storefront.db');
  });

  it('starts as a demo that says so, with a sandbox secret of its own from a file', async () => {
    const secret = path.join(tmp, 'sandbox-secret');
    fs.writeFileSync(secret, 'b1946ac92492d2347c6235b4d2611184\n');
    const run = await runMain({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: '1', PAYMENT_SANDBOX_SECRET_FILE: secret }, true);
    expect(run.stdout, `exit ${run.code} ${run.signal}: ${run.stderr}`).toContain('shop is ready');
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain('b1946ac92492d2347c6235b4d2611184');
  });

  it('says in one line, without the password, that the database cannot be reached', async () => {
    const run = await runMain({
      ...{ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: '1', PAYMENT_SANDBOX_SECRET: 'a-secret-of-its-own' },
      DATABASE_URL: 'postgres://shop:hunter2-secret@127.0.0.1:1/shop',
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(JSON.parse(lines[0]).msg).toMatch(/^could not start: /);
    expect(run.stdout + run.stderr).not.toContain('hunter2-secret');
    expect(run.stdout + run.stderr).not.toContain('a-secret-of-its-own');
  });
});
