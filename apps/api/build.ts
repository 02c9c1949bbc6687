import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

// Compiles the server to plain JavaScript for production (docs/decisions/0026): one bundle
// of our own code (apps/api and packages/shared) per command, with every npm package left
// to Node's own resolution. The server then starts with plain `node`, without a
// TypeScript loader: about half the start-up time and memory of running the sources.
//
// Outputs sit in apps/api/dist/, one folder below apps/api like src/, so that paths made
// from import.meta.url (config.ts REPO_ROOT) mean the same in both.

const here = path.dirname(fileURLToPath(import.meta.url));

/** npm packages stay external; our workspace packages are bundled. */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@storefront/') ? undefined : { path: args.path, external: true }));
  },
};

// Chunks are named by their content: without emptying the folder, every build would leave
// the previous build's chunks beside the new ones.
fs.rmSync(path.join(here, 'dist'), { recursive: true, force: true });

await build({
  entryPoints: {
    main: path.join(here, 'src/main.ts'),
    'seed-cli': path.join(here, 'src/db/seed/cli.ts'),
    'backup-cli': path.join(here, 'src/ops/backup-cli.ts'),
    'restore-cli': path.join(here, 'src/ops/restore-cli.ts'),
  },
  outdir: path.join(here, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  sourcemap: 'linked',
  // Stack traces name our functions as they are in the sources.
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [externalPackages],
  // Shared chunks sit beside the commands, for the same reason.
  chunkNames: 'chunk-[hash]',
});
