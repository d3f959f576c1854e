// Headless Chromium for page tests: Debian's chromium driven by playwright-core (no browser download).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The Chromium executable: $CHROMIUM_PATH, else Debian's /usr/bin/chromium; a clear error when neither exists. */
export function chromiumPath(): string {
  const p = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(p)) {
    throw new Error(`Chromium not found at ${p}: install it (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium executable.`);
  }
  return p;
}

/** Launches headless Chromium (no sandbox: tests may run as root). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
}

/** A page loaded from a local file, with every console error, page error and request it made. */
export interface LoadedPage {
  page: Page;
  url: string;
  errors: string[];
  requests: string[];
}

/** Opens `file` in a new page and waits for it to load, recording errors and requests from the start. */
export async function loadFile(browser: Browser, file: string): Promise<LoadedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const url = pathToFileURL(file).href;
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url, { waitUntil: 'load' });
  return { page, url, errors, requests };
}
