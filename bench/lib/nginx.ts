import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, REPO_ROOT } from './server.ts';

// Debian's nginx in front of several shop processes, for the scale-out proof
// (bench/lib/scale-out.ts). It runs as a child of this process in the foreground
// (`daemon off;`), with its configuration, pid file, logs and buffers in a temp folder of
// its own: /etc/nginx and the system service are left alone.

export const NGINX_TEMPLATE = path.join(REPO_ROOT, 'deploy/nginx/scale-out-test.conf.template');

function findNginx(): string | null {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (fs.existsSync(p)) return p;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

/**
 * The nginx binary, installed from Debian's package when missing (`apt-get install -y
 * nginx`, after `apt-get update` when the first try fails). Needs root, as apt does.
 * Never a downloaded binary.
 */
export function ensureNginx(log: (line: string) => void = () => {}): string {
  const found = findNginx();
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error('nginx is not installed and installing it needs root: apt-get install -y nginx');
  const install = () =>
    spawnSync('apt-get', ['install', '-y', 'nginx'], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 300_000 });
  log('nginx is not installed: apt-get install -y nginx…');
  let r = install();
  if (r.status !== 0) {
    log('apt-get install failed; apt-get update, then again…');
    const u = spawnSync('apt-get', ['update'], { encoding: 'utf8', timeout: 300_000 });
    if (u.status !== 0) throw new Error(`apt-get update failed:\n${u.stderr}`);
    r = install();
  }
  const bin = findNginx();
  if (r.status !== 0 || !bin) throw new Error(`apt-get install -y nginx failed:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
  return bin;
}

export interface Nginx {
  readonly port: number;
  /** http://127.0.0.1:PORT */
  readonly baseUrl: string;
  readonly prefix: string;
  /** The configuration it runs with (the template, filled in). */
  readonly config: string;
  /** What nginx wrote to its error log. */
  errorLog(): string;
  stop(): Promise<void>;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/** Fills the template: one upstream server per port, listening on 127.0.0.1:port. */
export function nginxConfig(template: string, o: { prefix: string; port: number; upstreams: number[] }): string {
  const fields: Record<string, string> = {
    PREFIX: o.prefix,
    LISTEN: `127.0.0.1:${o.port}`,
    UPSTREAM_SERVERS: o.upstreams.map((p) => `    server 127.0.0.1:${p};`).join('\n'),
  };
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (m, k: string) => {
    if (!(k in fields)) throw new Error(`unknown field ${m} in the nginx template`);
    return fields[k];
  });
}

export async function startNginx(o: { upstreams: number[]; port?: number; log?: (line: string) => void }): Promise<Nginx> {
  const bin = ensureNginx(o.log);
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-nginx-'));
  // Run as root, nginx's workers drop to an unprivileged user: they must reach the
  // buffers' folders (nginx creates and hands over the folders themselves).
  fs.chmodSync(prefix, 0o755);
  const port = o.port ?? (await freePort());
  const config = nginxConfig(fs.readFileSync(NGINX_TEMPLATE, 'utf8'), { prefix, port, upstreams: o.upstreams });
  const confFile = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(confFile, config);
  // -e: the error log before the configuration is read (otherwise /var/log/nginx).
  const args = ['-p', prefix, '-c', confFile, '-e', path.join(prefix, 'error.log')];
  try {
    execFileSync(bin, [...args, '-t', '-q'], { stdio: 'pipe' });
  } catch (err) {
    const e = err as { stderr?: Buffer };
    fs.rmSync(prefix, { recursive: true, force: true });
    throw new Error(`nginx rejected the configuration:\n${e.stderr?.toString() ?? err}\n${config}`);
  }
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out = (out + d).slice(-8000)));
  child.stderr?.on('data', (d: Buffer) => (out = (out + d).slice(-8000)));
  const errorLog = () => {
    try {
      return fs.readFileSync(path.join(prefix, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGQUIT: graceful shutdown (SIGTERM is the fast one).
      child.kill('SIGQUIT');
      if (!(await waitExit(child, 10_000))) {
        child.kill('SIGKILL');
        await waitExit(child, 5_000);
      }
    }
    live.delete(child);
    fs.rmSync(prefix, { recursive: true, force: true });
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx exited during start (${child.exitCode ?? child.signalCode}):\n${out}\n${log}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx at ${baseUrl} did not answer /api/health in time:\n${out}\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, baseUrl, prefix, config, errorLog, stop };
}
