import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startStack, type Stack } from './stack';

/** Debian's chromium, headless, without the background traffic of a fresh profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * The file's stack (`npm start`'s, as startStack starts it), one Chromium and one page in it: started
 * before its tests, closed after them. The tests share the page (each loads what it reads with goto): a
 * page of its own each was a browser context and window each, and Chromium starts a renderer for a
 * window's top-chrome WebUI (a median 0.6 s of CPU apiece in a CI run's samples) beside the page's own,
 * which started cold, with an empty HTTP cache.
 */
export function useStackAndBrowser(): { readonly stack: Stack; readonly browser: Browser; readonly page: Page } {
  const started = {} as { stack: Stack; browser: Browser; page: Page };
  before(async () => {
    started.stack = await startStack();
    started.browser = await launchChromium();
    started.page = await started.browser.newPage({ viewport: { width: 1280, height: 1200 } });
  });
  after(async () => {
    await started.browser?.close();
    if (started.stack) await started.stack.stop();
  });
  return started;
}
