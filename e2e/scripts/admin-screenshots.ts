import { chromium, type Page } from '@playwright/test';
import { totp } from '../../apps/api/src/modules/staff/totp.ts';
import { CHROME_PATH, CHROMIUM_ARGS } from '../fixtures/chromium.ts';

// Screenshots of the back office at a laptop's and a tablet's width, for a person to look
// at. Signs in as an owner made with `npm run admin -- create-owner`:
//   ADMIN_EMAIL=… ADMIN_PASSWORD=… ADMIN_TOTP_SECRET=… node --import tsx e2e/scripts/admin-screenshots.ts http://127.0.0.1:3000 /admin/products …
const [base, ...paths] = process.argv.slice(2);
const out = process.env.SHOT_DIR ?? '/tmp/shots';
const { ADMIN_EMAIL = '', ADMIN_PASSWORD = '', ADMIN_TOTP_SECRET = '' } = process.env;

async function signIn(page: Page, step: number) {
  await page.goto(`${base}/admin/sign-in`);
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // A code works once: each sign-in uses the next 30-second step's code.
  await page.getByLabel('Code from your authenticator app').fill(totp(ADMIN_TOTP_SECRET, Date.now() + step * 30_000));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await page.waitForURL(/\/admin(\/(orders|products|account))?(\?|$)/);
}

const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROMIUM_ARGS });
let step = 0;
for (const [name, viewport] of [
  ['laptop', { width: 1280, height: 860 }],
  ['tablet', { width: 820, height: 1180 }],
  ['phone', { width: 360, height: 780 }],
] as const) {
  const page = await browser.newPage({ viewport });
  await signIn(page, step++);
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: 'networkidle' });
    const file = `${out}/admin-${name}${p.replace(/[^a-z0-9]+/gi, '_')}.png`;
    await page.screenshot({ path: file, fullPage: process.env.FULL !== '0' });
    console.log(file);
    // A printed page is also printed, as Chromium prints it, to see that it fits one A4 page.
    if (name === 'laptop' && p.includes('/print')) {
      const pdf = await page.pdf({ format: 'A4', printBackground: true, path: file.replace(/\.png$/, '.pdf') });
      console.log(`${file.replace(/\.png$/, '.pdf')}: ${(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length} page(s)`);
    }
  }
  await page.close();
}
await browser.close();
