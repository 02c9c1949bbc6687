import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';

// `npm run dev` as the README documents it: one command, one port, pages rendered from the
// sources by the real server with the real API and database, and Vite's modules for the
// browser. Started exactly as a developer starts it, so the command cannot break unseen.
// SQLite only (the api-postgres project leaves this file out): the dev server's database is
// whatever DATABASE_URL says, and one run shows the loop works.

let child: ChildProcess;
let base: string;
let log = '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-dev-'));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_URL: base };
  delete env.DATABASE_URL;
  delete env.SQLITE_FILE;
  delete env.NODE_ENV;
  // Its own process group, so that npm, node and Vite's workers all stop together.
  child = spawn('npm', ['run', 'dev'], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (log += d));
  child.stderr?.on('data', (d: Buffer) => (log += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited with ${child.exitCode}:\n${log}`);
    const ok = await fetch(`${base}/api/health`, { headers: { 'x-api-key': 'storefront-web' } }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`npm run dev did not answer within 90 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}, 120_000);

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('renders the home page, the shop and a product page from the sources, with the demo catalogue', async () => {
    const home = await fetch(`${base}/`);
    expect(home.status, log).toBe(200);
    const html = await home.text();
    expect(html).toContain('Nibash Furniture');
    const product = /href="(\/products\/[a-z0-9-]+)"/.exec(html)?.[1];
    expect(product, 'a product link on the home page').toBeTruthy();

    const shop = await fetch(`${base}/shop`);
    expect(shop.status).toBe(200);
    expect(await shop.text()).toContain('<h1');

    const details = await fetch(`${base}${product}`);
    expect(details.status).toBe(200);
    expect(await details.text()).toContain('<h1');
  }, 60_000);

  it('serves the browser its modules through Vite, with the hot-update client', async () => {
    const client = await fetch(`${base}/@vite/client`);
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toContain('javascript');
    const root = await fetch(`${base}/app/root.tsx`);
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('import');
  }, 60_000);

  it('keeps the API answering as in production', async () => {
    const res = await fetch(`${base}/api/kvps`, { headers: { 'x-api-key': 'storefront-web' } });
    expect(res.status).toBe(200);
  });
});
