import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { readBuild } from '../../cli/output/output.ts';
import { loginToken } from '../backend/client.ts';
import { runCli } from '../helpers/cli.ts';
import { S3_ENV, startBucketWebsite, startS3Server, type BucketWebsite, type S3TestServer } from '../helpers/s3-server.ts';
import { expect, test, waitForHydration } from './fixtures.ts';

/**
 * Deploy while browsing: a tab opened on build 1, served from the bucket, keeps navigating while
 * `site publish` puts build 2 in place, and moves into build 2 through exactly one full page load.
 */

interface Built {
  dir: string;
  id: string;
}

let s3: S3TestServer;
let website: BucketWebsite;
let backend: ContentServer;
const builds: Built[] = [];

async function buildSite(token?: string, flags: string[] = []): Promise<Built> {
  const dir = join(await mkdtemp(join(tmpdir(), 'site-e2e-publish-')), 'site');
  const result = await runCli(['build', '--out', dir, '--endpoint', backend.url, '--quiet', ...flags], { env: { GRAPHQL_TOKEN: token } });
  if (result.code !== 0) throw new Error(`build failed:\n${result.stderr}`);
  const { latest } = await readBuild(dir);
  return { dir, id: latest.id };
}

async function publishBuild(build: Built): Promise<void> {
  const result = await runCli(['publish', '--out', build.dir, '--bucket', s3.bucket, '--endpoint-url', s3.endpoint, '--quiet'], {
    env: S3_ENV,
  });
  if (result.code !== 0) throw new Error(`publish of ${build.id} failed:\n${result.stderr}`);
}

/** The build the document in the tab was rendered by (its inline boot data). */
function documentBuild(page: Page): Promise<string> {
  return page.evaluate(() => (JSON.parse(document.getElementById('__BOOT__')?.textContent ?? '{}') as { buildId?: string }).buildId ?? '');
}

test.beforeAll(async () => {
  // Two builds from the same backend: the second with the editor's token, so its content differs
  // (drafts included), and with another option every page carries (as a deploy of new code would
  // change the client bundle), so its build id differs too: a content edit alone keeps the id.
  backend = await startContentServer({ host: '127.0.0.1' });
  const token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
  builds.push(await buildSite(), await buildSite(token, ['--build-check-interval', '1800000']));
  await backend.close();
  s3 = await startS3Server();
  await publishBuild(builds[0]!);
  website = await startBucketWebsite({ endpoint: s3.endpoint, bucket: s3.bucket });
});

test.afterAll(async () => {
  await website?.close();
  await s3?.stop();
});

test('a tab on build 1 keeps navigating while build 2 is published, and moves into build 2 through one full page load', async ({
  page,
}) => {
  const [one, two] = [builds[0]!, builds[1]!];
  expect(one.id).not.toBe(two.id);
  const documents: string[] = [];
  const failures: string[] = [];
  /** Payloads the tab received, by page path, with the build that wrote them. */
  const payloads = new Map<string, string>();
  let pendingPayloads = 0;
  const isPayload = (url: string): boolean => new URL(url).pathname.endsWith('/_payload.json');
  page.on('request', (req) => {
    if (req.resourceType() === 'document') documents.push(new URL(req.url()).pathname);
    if (isPayload(req.url())) pendingPayloads++;
  });
  page.on('requestfailed', (req) => isPayload(req.url()) && pendingPayloads--);
  page.on('response', (res) => {
    if (res.status() >= 400) failures.push(`${res.status()} ${res.url()}`);
    if (!isPayload(res.url())) return;
    const path = new URL(res.url()).pathname.slice(0, -'/_payload.json'.length) || '/';
    void res
      .json()
      .then(
        (p: { buildId: string }) => payloads.set(path, p.buildId),
        () => undefined,
      )
      .finally(() => pendingPayloads--);
  });
  page.on('pageerror', (err) => failures.push(`pageerror: ${err.message}`));

  await page.goto(`${website.url}/news`);
  await waitForHydration(page);
  expect(await documentBuild(page)).toBe(one.id);
  // The runtime prefetches visible links; wait until it holds build 1's payload for one of them.
  const links = async (): Promise<string[]> =>
    page.locator('main a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
  const heldLink = async (): Promise<string | undefined> => (await links()).find((href) => payloads.get(href) === one.id);
  await expect.poll(heldLink, { message: 'a link on /news whose payload the tab holds' }).toBeDefined();
  const prefetched = (await heldLink())!;
  await expect.poll(() => pendingPayloads, { message: 'prefetches still in flight' }).toBe(0);

  await publishBuild(two);

  // The tab still runs build 1: a page whose payload it holds opens client-side, with build 1's
  // chunks, which the bucket still serves.
  await page.locator(`main a[href="${prefetched}"]`).first().click();
  await expect(page).toHaveURL(website.url + prefetched);
  await expect(page.locator('main h1')).not.toBeEmpty();
  expect(documents).toEqual(['/news']);
  expect(await documentBuild(page)).toBe(one.id);

  // A page it has not loaded yet comes from build 2: the payload's build differs, so the runtime
  // loads that page in full, once, and the tab runs build 2 from then on.
  // Pages the tab has shown hold their data too (the first one inline), so they do not count.
  const fresh = (await links()).find((href) => href !== '/news' && href !== prefetched && payloads.get(href) !== one.id);
  expect(fresh, 'a link whose payload the tab does not hold').toBeDefined();
  await page.locator(`main a[href="${fresh}"]`).first().click();
  await expect(page).toHaveURL(website.url + fresh);
  await waitForHydration(page);
  await expect(page.locator('main h1')).not.toBeEmpty();
  expect(await documentBuild(page)).toBe(two.id);
  expect(documents).toEqual(['/news', fresh]);

  // Inside build 2, navigation is client-side again.
  await page.locator('header a[href="/events"]').first().click();
  await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'events');
  expect(documents).toEqual(['/news', fresh]);
  expect(await documentBuild(page)).toBe(two.id);
  expect(failures).toEqual([]);
});
