import type { Browser, CDPSession, Page } from 'puppeteer-core';

/**
 * A page in a browser context of its own (a cold cache) at a phone's viewport, with V8's
 * sampling profiler enabled (not started) at `intervalUs`: how page-profile and load-tasks
 * open every load they measure.
 */
export async function phonePage(browser: Browser, intervalUs: number): Promise<{ page: Page; cdp: CDPSession; close(): Promise<void> }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 412, height: 823, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });
  const cdp = await page.createCDPSession();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  return { page, cdp, close: () => context.close() };
}
