import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openDb } from '../db/database.ts';
import { StaffService } from '../modules/staff/staff.service.ts';

// npm run admin -- create-owner EMAIL [--name "Full Name"]
// Creates a back-office owner (docs/decisions/0031). There is no default account and no
// default password: the password is typed at the prompt (or, for scripts, given as the
// first line of standard input), and two-factor sign-in is set up at once: the secret to
// add to an authenticator app and ten recovery codes are printed this one time.

const { positionals, values } = parseArgs({ allowPositionals: true, options: { name: { type: 'string' } } });
const [command, email] = positionals;

function usage(): never {
  console.error('usage: npm run admin -- create-owner EMAIL [--name "Full Name"]');
  process.exit(2);
}

async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const rl = readline.createInterface({ input: process.stdin });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    return '';
  }
  // Typed without echo.
  process.stdout.write(prompt);
  process.stdin.setRawMode(true);
  process.stdin.resume();
  return new Promise((resolve) => {
    let typed = '';
    const onData = (buf: Buffer) => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          process.stdin.setRawMode(false);
          process.stdin.pause();
          process.stdin.off('data', onData);
          process.stdout.write('\n');
          resolve(typed);
          return;
        }
        if (ch === '\u0003') process.exit(130);
        if (ch === '\u007f') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    process.stdin.on('data', onData);
  });
}

if (command !== 'create-owner' || !email) usage();

const config = loadConfig();
const db = openDb(config.db);
try {
  await migrateToLatest(db, config.db.kind === 'postgres' ? config.db.schema : undefined);
  const password = await readPassword('Password for the new owner (at least 12 characters): ');
  if (process.stdin.isTTY) {
    const again = await readPassword('Type it again: ');
    if (again !== password) throw new Error('the two passwords differ');
  }
  const service = new StaffService(db, { accounts: config.accounts, brandName: 'Back office' });
  const r = await service.createOwner(email, values.name ?? email.split('@')[0], password);
  console.log(`Owner ${r.staff.email} created.

Two-factor sign-in is on. Add this account to an authenticator app (Google Authenticator,
Microsoft Authenticator, 1Password, Aegis, ...) by scanning or typing:
  secret:  ${r.secret}
  address: ${r.otpauthUri}

Recovery codes (each works once, if the phone is lost; keep them somewhere safe):
  ${r.recoveryCodes.join('\n  ')}

Sign in at ${config.publicUrl}/admin/sign-in`);
} catch (err) {
  const e = err as { message?: string; fields?: Record<string, string> };
  console.error(`could not create the owner: ${Object.values(e.fields ?? {})[0] ?? e.message}`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
