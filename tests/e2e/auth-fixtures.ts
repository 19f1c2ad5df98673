import { expect, type Page } from '@playwright/test';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_EDITOR, startContentServer, type ContentServer } from '../../backend/server.ts';
import { readSitePolicy } from '../../cli/render/csp.ts';
import { startStaticServer, type StaticServer } from '../../cli/serve/static-server.ts';
import { latestBuildId } from './fixtures.ts';
import { runCli } from '../helpers/cli.ts';

/** A GraphQL request as the content backend saw it. */
export interface ApiRequest {
  operationName: string | null;
  authorization: string | null;
}

/**
 * A site built against a running content backend that the browser may call (editor preview, login,
 * live data): the backend and the built site on two different 127.0.0.1 ports.
 */
export interface LiveSite {
  url: string;
  dir: string;
  buildId: string;
  backend: ContentServer;
  /** Every GraphQL request the backend answered, in order. */
  api: ApiRequest[];
  close(): Promise<void>;
}

/** The newest hand-written sample article is a draft: the API returns it only with an editor's token. */
export const DRAFT_TITLE = 'Winter programme 2027 announced';

export async function startLiveSite({ env = {} }: { env?: Record<string, string> } = {}): Promise<LiveSite> {
  const api: ApiRequest[] = [];
  const backend = await startContentServer({ onRequest: (r) => api.push(r) });
  let server: StaticServer | null = null;
  try {
    const dir = join(await mkdtemp(join(tmpdir(), 'site-live-')), 'site');
    const result = await runCli(['build', '--out', dir, '--endpoint', backend.url, '--public-endpoint', backend.url, '--quiet'], { env });
    if (result.code !== 0) throw new Error(`The build failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
    // The build's own requests are not what the tests look at.
    api.length = 0;
    // Served as `site preview` serves it: with the pages' own Content-Security-Policy as a header too.
    const policy = await readSitePolicy(dir);
    server = await startStaticServer({ root: dir, headers: policy ? { 'content-security-policy': policy } : {} });
    const id = await latestBuildId(dir);
    const site = server;
    return {
      url: site.url,
      dir,
      buildId: id,
      backend,
      api,
      close: async () => {
        await site.close();
        await backend.close();
      },
    };
  } catch (error) {
    await server?.close();
    await backend.close();
    throw error;
  }
}

/** Logs in through the site's /login form as the sample editor; resolves once the page says so. */
export async function logIn(page: Page, site: LiveSite): Promise<void> {
  await page.goto(site.url + '/login');
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await page.getByLabel('Email').fill(DEFAULT_EDITOR.email);
  await page.getByLabel('Password').fill(DEFAULT_EDITOR.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.locator('.login-page__done')).toContainText('You are logged in as');
}

/** The token cookie as the browser stores it, or undefined. */
export async function tokenCookie(page: Page): Promise<Awaited<ReturnType<ReturnType<Page['context']>['cookies']>>[number] | undefined> {
  return (await page.context().cookies()).find((c) => c.name === 'apollo:default.token');
}
