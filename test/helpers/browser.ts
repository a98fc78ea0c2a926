import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { lowerSessionToOurNiceness } from './autogroup';
import { ROOT } from './paths';

/** Debian's chromium (scripts/lib/setup.sh installs it); nothing is downloaded. */
export const CHROMIUM = process.env.VOICE_ALERT_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = join(ROOT, 'test', 'artifacts');

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Headless chromium on a fresh profile (its own user-data dir, so its own cookies),
 * with everything that would reach the internet switched off. `args`: more switches, e.g.
 * `--ignore-certificate-errors-spki-list=<hash>` to trust one test certificate's key.
 */
export async function launchBrowser(viewport = { width: 1280, height: 900 }, args: string[] = []): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'va-chromium-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...args,
    ],
  });
  // Chromium runs in a session of its own: at scripts/test's lower priority its group is lowered too.
  await lowerSessionToOurNiceness({ argument: `--user-data-dir=${profile}` });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export const shot = (name: string) => join(ARTIFACTS, `panel-${name}.png`);
