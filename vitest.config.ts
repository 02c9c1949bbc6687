import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// One command runs every unit and API test (`npm run test:unit`, or `npx vitest run`).
// The API tests run once on SQLite and, when DATABASE_URL is set (as in CI), once more on
// PostgreSQL. The project name printed beside each file (api-sqlite, api-postgres) says
// which database ran it.

function apiProject(db: 'sqlite' | 'postgres', color: 'green' | 'blue'): TestProjectInlineConfiguration {
  return {
    test: {
      name: { label: `api-${db}`, color },
      include: ['apps/api/test/**/*.test.ts'],
      // The scale-out proof runs several server processes on one database, which SQLite
      // (one file, one writer, no sharing between machines) is not made for: it runs in
      // api-postgres only, and fails rather than skips if started on SQLite. The dev-server
      // test starts `npm run dev` on SQLite whatever the project: once is enough.
      exclude: [...configDefaults.exclude, db === 'sqlite' ? 'apps/api/test/scale-out.test.ts' : 'apps/api/test/dev-server.test.ts'],
      environment: 'node',
      env: { TEST_DB: db },
      // Each file starts the app on a fresh database of its own
      // (apps/api/test/helpers/test-app.ts), so files share no data. They may share loaded
      // modules: importing Fastify and its plugins once per worker instead of once per file
      // halves the run time.
      isolate: false,
      // Migrations and the demo seed take well under a second on either database; the
      // margins are for a busy two-core CI machine.
      testTimeout: 15_000,
      hookTimeout: 60_000,
    },
  };
}

export default defineConfig({
  test: {
    // Two cores: at most two worker processes. Forks rather than threads, for the native
    // SQLite driver.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: { label: 'unit', color: 'cyan' },
          include: ['packages/**/*.test.ts', 'apps/api/src/**/*.test.ts', 'apps/web/app/**/*.test.ts'],
          environment: 'node',
        },
      },
      apiProject('sqlite', 'green'),
      ...(process.env.DATABASE_URL ? [apiProject('postgres', 'blue')] : []),
    ],
  },
});
