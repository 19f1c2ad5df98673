import { test as base, expect, type ConsoleMessage, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startStaticServer, type StaticServer } from '../../cli/static-server.ts';
import type { BuildMeta, LatestBuild } from '../../runtime/shared/contract.ts';

/** The site built by global-setup, served by the preview server on a free 127.0.0.1 port. */
export interface BuiltSite {
  url: string;
  dir: string;
  meta: BuildMeta;
}

export interface Fixtures {
  site: BuiltSite;
  /** Console errors and warnings of the page, collected from the start. */
  consoleProblems: string[];
}

export const test = base.extend<Fixtures, { server: StaticServer & { dir: string } }>({
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dir = process.env.E2E_SITE_DIR;
      if (!dir) throw new Error('E2E_SITE_DIR is not set: run the browser tests through playwright.config.ts (global-setup builds the site).');
      const server = await startStaticServer({ root: dir });
      await use({ ...server, dir });
      await server.close();
    },
    { scope: 'worker' },
  ],
  site: async ({ server }, use) => {
    const latest = JSON.parse(await readFile(join(server.dir, '_assets/builds/latest.json'), 'utf8')) as LatestBuild;
    const meta = JSON.parse(await readFile(join(server.dir, `_assets/builds/meta/${latest.id}.json`), 'utf8')) as BuildMeta;
    await use({ url: server.url, dir: server.dir, meta });
  },
  consoleProblems: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (msg: ConsoleMessage) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    await use(problems);
  },
});

export { expect };

/** Waits until the runtime has hydrated the page (it marks the root once React owns it). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}
