import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startStack, type Stack } from './stack';

/**
 * How long a page's action or navigation may take: a yielding file's browser, stack and test run in an
 * idle cgroup beside files that keep both cores busy, and may wait seconds for a turn (Playwright's own 30 s
 * is for a machine with cores to spare). What a test waits for still has to happen.
 */
const PAGE_TIMEOUT_MS = 120_000;

/** Debian's chromium, headless, without the background traffic of a fresh profile; its pages wait PAGE_TIMEOUT_MS. */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  // browser.newPage() makes its context with this.newContext().
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    return context;
  };
  return browser;
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
