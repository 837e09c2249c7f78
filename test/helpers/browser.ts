import { after, before } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startStack, type Stack } from './stack';

/** Debian's chromium, headless, without the background traffic of a fresh profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** The file's stack (`npm start`'s, as startStack starts it) and one Chromium: started before its tests, closed after them. */
export function useStackAndBrowser(): { readonly stack: Stack; readonly browser: Browser } {
  const started = {} as { stack: Stack; browser: Browser };
  before(async () => {
    started.stack = await startStack();
    started.browser = await launchChromium();
  });
  after(async () => {
    await started.browser?.close();
    if (started.stack) await started.stack.stop();
  });
  return started;
}
