import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROME_PATH, CHROMIUM_ARGS } from './fixtures/chromium.ts';
import { RAILS, railsEnv } from './fixtures/rails-stand-ins.ts';

// End-to-end tests drive Debian's Chromium through the production build, served by the
// real server on a fresh database: SQLite always, and PostgreSQL too when DATABASE_URL
// is set (each run in its own schema, dropped afterwards).

// Workers load this file again: they take the run's name from the main process.
process.env.E2E_RUN ??= `${Date.now().toString(36)}${process.pid}`;
const run = process.env.E2E_RUN;
const root = path.resolve(import.meta.dirname, '..');
const pgUrl = process.env.DATABASE_URL;
export const PG_SCHEMA = `e2e_${run}`;
process.env.E2E_PG_SCHEMA = PG_SCHEMA;
// Files uploaded during the run go to a folder of its own, removed by the teardown.
const dataRoot = path.join(os.tmpdir(), `storefront-e2e-${run}-data`);
process.env.E2E_DATA_ROOT = dataRoot;
// The SQLite server's database: the back-office specs make its first owner with the command line.
const sqliteFile = path.join(os.tmpdir(), `storefront-e2e-${run}.db`);
process.env.E2E_SQLITE_FILE = sqliteFile;

// E2E_PORT moves the servers (and WEB_BUILD_DIR picks the build) so runs can sit side by side.
const basePort = Number(process.env.E2E_PORT ?? 3101);
const buildDir = process.env.WEB_BUILD_DIR ?? 'apps/web/build';

const server = (port: number, env: Record<string, string>) => ({
  command: 'node apps/api/dist/main.js',
  cwd: root,
  url: `http://127.0.0.1:${port}/api/health`,
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    WEB_BUILD_DIR: buildDir,
    DATA_DIR: path.join(dataRoot, String(port)),
    // Every browser of the run signs up and in from 127.0.0.1: the per-address limits would
    // count the whole suite as one client. The per-account limit stays as in production.
    SIGNUP_LIMIT_PER_ADDRESS: '1000',
    SIGNIN_LIMIT_PER_ADDRESS: '1000',
    // The same for checkouts and the units unpaid orders may hold (docs/decisions/0022);
    // the guests of the suite also share one mobile number (fixtures/checkout.ts).
    ORDER_LIMIT_PER_ADDRESS: '1000',
    ORDER_LIMIT_PER_CONTACT: '1000',
    ORDER_HOLD_MAX_UNITS: '100000',
    ORDER_HOLD_MAX_UNITS_PER_ADDRESS: '100000',
    // bKash and Steadfast are the stand-ins of fixtures/rails-stand-ins.ts, one pair per server.
    ...railsEnv(port),
    ...env,
  },
});

/** The bKash and Steadfast stand-ins of the shop server on this port. */
const standIns = (shopPort: number) => ({
  command: `node --import tsx e2e/fixtures/rails-stand-ins.ts ${shopPort}`,
  cwd: root,
  url: `http://127.0.0.1:${RAILS.ports(shopPort).control}/health`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
});

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: CHROME_PATH,
    args: CHROMIUM_ARGS,
  },
};

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 2,
  // One retry in CI: a test that passes only on retry is reported as flaky, not hidden.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  globalTeardown: './fixtures/teardown.ts',
  // A failed test keeps its trace (each action's page, as DOM snapshots) and a screenshot.
  // The trace records no film of the screen: encoding a frame at every paint took as much
  // of the two cores as the tests themselves (the 3D viewer's test ran twice as long).
  use: { trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true }, screenshot: 'only-on-failure' },
  webServer: [
    standIns(basePort),
    server(basePort, { SQLITE_FILE: sqliteFile, DATABASE_URL: '' }),
    ...(pgUrl ? [standIns(basePort + 1), server(basePort + 1, { DATABASE_URL: pgUrl, DATABASE_SCHEMA: PG_SCHEMA })] : []),
  ],
  // Specs under tests/shop-wide change what every shopper sees (a discount, a delivery
  // threshold, the hotline, the logo): they run after the rest of their database's specs, so
  // no other spec reads a price or a header while they change it.
  projects: [
    { name: 'sqlite', testIgnore: /shop-wide\//, use: { ...chromium, baseURL: `http://127.0.0.1:${basePort}` } },
    { name: 'sqlite-shop-wide', testMatch: /shop-wide\/.*\.spec\.ts/, dependencies: ['sqlite'], use: { ...chromium, baseURL: `http://127.0.0.1:${basePort}` } },
    ...(pgUrl
      ? [
          { name: 'postgres', testIgnore: /shop-wide\//, use: { ...chromium, baseURL: `http://127.0.0.1:${basePort + 1}` } },
          {
            name: 'postgres-shop-wide',
            testMatch: /shop-wide\/.*\.spec\.ts/,
            dependencies: ['postgres'],
            use: { ...chromium, baseURL: `http://127.0.0.1:${basePort + 1}` },
          },
        ]
      : []),
  ],
});
