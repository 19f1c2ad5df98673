import { test as base, expect, type ConsoleMessage, type Page } from '@playwright/test';
import { join } from 'node:path';
import { startStaticServer, type StaticServer } from '../../cli/serve/static-server.ts';
import { readBuild, readLatest } from '../../cli/output/output.ts';
import type { BuildMeta } from '../../runtime/shared/contract.ts';
import { LATEST_FILE } from '../../runtime/shared/paths.ts';

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
      if (!dir)
        throw new Error('E2E_SITE_DIR is not set: run the browser tests through playwright.config.ts (global-setup builds the site).');
      const server = await startStaticServer({ root: dir });
      await use({ ...server, dir });
      await server.close();
    },
    { scope: 'worker' },
  ],
  site: async ({ server }, use) => {
    const { meta } = await readBuild(server.dir);
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

/** Serves a private copy of the built site, for tests that publish another build into it. */
export async function serveCopy(): Promise<{ url: string; dir: string; close: () => Promise<void> }> {
  const { cp, mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const source = process.env.E2E_SITE_DIR;
  if (!source) throw new Error('E2E_SITE_DIR is not set: run the browser tests through playwright.config.ts.');
  const dir = join(await mkdtemp(join(tmpdir(), 'site-copy-')), 'site');
  await cp(source, dir, { recursive: true });
  const server = await startStaticServer({ root: dir });
  return { url: server.url, dir, close: server.close };
}

/**
 * Publishes the second e2e build into `dir` the way a deploy does: files first, latest.json last.
 * `files` picks which files (paths relative to the site root, e.g. `/news/_payload.json`); `latest` false leaves latest.json alone.
 */
export async function publishNextBuild(
  dir: string,
  { files = () => true, latest = true }: { files?: (file: string) => boolean; latest?: boolean } = {},
): Promise<string> {
  const { cp, stat } = await import('node:fs/promises');
  const next = process.env.E2E_NEXT_SITE_DIR;
  if (!next) throw new Error('E2E_NEXT_SITE_DIR is not set: run the browser tests through playwright.config.ts.');
  const latestFile = join(next, LATEST_FILE);
  await cp(next, dir, {
    recursive: true,
    filter: async (src) => (await stat(src)).isDirectory() || (src !== latestFile && files(src.slice(next.length))),
  });
  if (latest) await cp(latestFile, join(dir, LATEST_FILE));
  return latestBuildId(next);
}

/** The id of the build a site folder's latest.json names. */
export async function latestBuildId(siteDir: string): Promise<string> {
  return (await readLatest(siteDir)).id;
}

/** Makes the page check for new builds every `ms` instead of hourly, by rewriting the inlined boot config. */
export async function shortenBuildChecks(page: Page, ms: number): Promise<void> {
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const body = (await response.text()).replace(/"buildCheckInterval":\d+/, `"buildCheckInterval":${ms}`);
    await route.fulfill({ response, body });
  });
}

/** Pretends the visitor is on a connection with these Network Information API values. */
export async function emulateConnection(page: Page, connection: { saveData?: boolean; effectiveType?: string }): Promise<void> {
  await page.addInitScript((c) => {
    Object.defineProperty(Navigator.prototype, 'connection', {
      configurable: true,
      get: () => ({ saveData: false, effectiveType: '4g', ...c }),
    });
  }, connection);
}

/** Records document (full page) loads. */
export function recordDocuments(page: Page): string[] {
  const documents: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'document' && req.frame() === page.mainFrame()) documents.push(new URL(req.url()).pathname);
  });
  return documents;
}

/** Adds a plain link to the page's main content, as rich text from the CMS would contain, and returns its locator. */
export async function addLink(page: Page, href: string, id = 'test-link'): Promise<ReturnType<Page['locator']>> {
  await page.evaluate(
    ([h, i]) => {
      const a = document.createElement('a');
      a.href = h!;
      a.id = i!;
      a.textContent = `Go to ${h}`;
      a.style.display = 'block';
      document.querySelector('main')?.prepend(a);
    },
    [href, id],
  );
  return page.locator(`#${id}`);
}
