import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, readRss, REPO_ROOT } from './lib/server.ts';
import { formatTable } from './lib/table.ts';

// How long the production server takes from process start to listening, and how much
// memory it holds before its first request: SQLite, the demo catalogue already seeded
// (the first start, which migrates and seeds, is not counted), the web build loaded.
// Usage: npm run startup -w bench -- [--runs 5] [--cmd "node apps/api/dist/main.js"]

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const runs = Number(opt('runs', '5'));
const cmd = opt('cmd', 'node apps/api/dist/main.js');

interface Start {
  ms: number;
  rss: number;
}

async function startOnce(dataDir: string): Promise<Start> {
  const port = await freePort();
  const [bin, ...rest] = cmd.split(' ');
  const began = performance.now();
  const child = spawn(bin, rest, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      ALLOW_TEST_PAYMENTS: '1',
      PAYMENT_SANDBOX_SECRET: 'startup-bench-secret',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    return await new Promise<Start>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "shop is ready" within 120 s from: ${cmd}`)), 120_000);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('shop is ready')) {
          clearTimeout(timer);
          const ms = performance.now() - began;
          resolve({ ms, rss: readRss(child.pid ?? 0) ?? 0 });
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}:\n${out.slice(-2000)}`));
      });
    });
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (name: string, xs: number[], f: (x: number) => string) => [name, f(median(xs)), f(Math.min(...xs)), f(Math.max(...xs))];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-bench-'));
try {
  await startOnce(dataDir); // migrations and the demo seed: not counted
  const starts: Start[] = [];
  for (let i = 0; i < runs; i++) starts.push(await startOnce(dataDir));
  console.log(
    `node ${process.version}, command: ${cmd}, ${runs} starts, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    formatTable(
      ['figure', 'median', 'min', 'max'],
      [
        row(
          'start to listening, ms',
          starts.map((s) => s.ms),
          (x) => x.toFixed(0),
        ),
        row(
          'RSS before first request, MB',
          starts.map((s) => s.rss),
          (x) => (x / 1048576).toFixed(1),
        ),
      ],
      ['left', 'right', 'right', 'right'],
    ),
  );
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
