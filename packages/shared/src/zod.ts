import { z } from 'zod';

// In the browser, zod must not try to compile its fast parsers with new Function(): the
// pages' Content-Security-Policy forbids eval, and even the caught attempt is reported as
// a violation. The flag is read when a schema is built, so every shared module takes zod
// from here, not from 'zod' directly (package.json lists this module as having side
// effects, or the bundler would drop it: its one export is zod's own). The server keeps the
// compiled parsers.
if (typeof (globalThis as { document?: unknown }).document !== 'undefined') z.config({ jitless: true });

export { z };
