import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isBuildError } from '../../cli/errors/errors.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { publish, resolvePublishConfig, rollback, type PublishOptions, type PublishResult } from '../../cli/publish/index.ts';
import { runCli } from '../helpers/cli.ts';
import { S3_ENV, startBucketWebsite, startS3Server, writeFakeBuild, type BucketWebsite, type S3TestServer } from '../helpers/s3-server.ts';

/** A publish interrupted by the storage going away, and rollback to an earlier build. */

interface FakeBuild {
  dir: string;
  id: string;
  files: Record<string, string>;
}

describe('a publish interrupted mid-way, and rollback', () => {
  const builds: FakeBuild[] = [];
  const open: { stop?: () => Promise<void>; close?: () => Promise<void> }[] = [];

  beforeAll(async () => {
    Object.assign(process.env, S3_ENV);
    const root = await mkdtemp(join(tmpdir(), 'site-recovery-'));
    for (const n of [1, 2]) {
      const dir = join(root, `build-${n}`);
      builds[n] = { dir, ...(await writeFakeBuild(dir, n)) };
    }
  });
  afterEach(async () => {
    for (const thing of open.splice(0)) await (thing.stop?.() ?? thing.close?.());
  });

  const server = async (directory?: string): Promise<S3TestServer> => {
    const s3 = await startS3Server({ directory });
    open.push(s3);
    return s3;
  };
  const website = async (s3: S3TestServer): Promise<BucketWebsite> => {
    const site = await startBucketWebsite({ endpoint: s3.endpoint, bucket: s3.bucket });
    open.push(site);
    return site;
  };
  const run = (n: number, s3: S3TestServer, extra: PublishOptions = {}): Promise<PublishResult> =>
    publish(resolvePublishConfig({ outDir: builds[n]!.dir, bucket: s3.bucket, endpointUrl: s3.endpoint, ...extra }), {
      logger: createMemoryLogger(),
    });
  const served = async (site: BucketWebsite, key: string): Promise<string> => {
    const path = key === 'index.html' ? '/' : key.endsWith('/index.html') ? `/${key.slice(0, -'/index.html'.length)}` : `/${key}`;
    const response = await fetch(site.url + path);
    expect(response.status, path).toBe(200);
    return response.text();
  };
  const latestId = async (site: BucketWebsite): Promise<string> =>
    (JSON.parse(await served(site, '_assets/builds/latest.json')) as { id: string }).id;

  it('a publish stopped during the asset uploads leaves latest.json and every file of build 1 as they were', async () => {
    const s3 = await server();
    await run(1, s3);
    s3.stopAfterPuts(2);
    const failure = await run(2, s3, { concurrency: 4 }).catch((error: unknown) => error);
    expect(isBuildError(failure) && failure.code).toBe('StorageUnreachable');
    await s3.stopped;

    const restarted = await server(s3.directory);
    const site = await website(restarted);
    expect(await latestId(site)).toBe('build-1');
    for (const [key, content] of Object.entries(builds[1]!.files)) expect(await served(site, key), key).toBe(content);
  });

  it('a publish stopped among the pages never moves latest.json, every page it serves has its assets, and the next publish finishes the job', async () => {
    const s3 = await server();
    await run(1, s3);
    const changed = Object.keys(builds[2]!.files).filter((k) => builds[2]!.files[k] !== builds[1]!.files[k]);
    const assetsAndPayloads = changed.filter((k) => /^_assets\/[^/]+$/.test(k) || k.endsWith('_payload.json')).length;
    const uploads = changed.length + 1; // and the build's file manifest
    // One request at a time, so the stop never cuts an upload in half.
    // The first PUT is the pending record that lists the build's keys; then the uploads.
    s3.stopAfterPuts(1 + assetsAndPayloads + 2);
    const logger = createMemoryLogger();
    const failure = await publish(
      resolvePublishConfig({ outDir: builds[2]!.dir, bucket: s3.bucket, endpointUrl: s3.endpoint, concurrency: 1 }),
      { logger },
    ).catch((e: unknown) => e);
    expect(isBuildError(failure) && failure.code).toBe('StorageUnreachable');
    expect(logger.lines).toContain(
      `[publish] warning: stopped during pages after ${assetsAndPayloads + 2} of ${uploads} uploads; latest.json still names build build-1`,
    );
    await s3.stopped;

    const restarted = await server(s3.directory);
    const site = await website(restarted);
    expect(await latestId(site)).toBe('build-1');
    const pages = Object.keys(builds[1]!.files).filter((k) => k.endsWith('index.html') && !k.startsWith('only-'));
    const owners = new Set<string>();
    for (const key of pages) {
      const html = await served(site, key);
      const owner = [1, 2].find((n) => builds[n]!.files[key] === html);
      expect(owner, `${key} is build 1's or build 2's, whole`).toBeDefined();
      owners.add(`build-${owner}`);
      for (const [, asset] of html.matchAll(/(?:src|href)="\/(_assets\/[^"]+)"/g))
        expect(await served(site, asset!), asset).toBe(builds[owner!]!.files[asset!]);
    }
    expect(owners).toEqual(new Set(['build-1', 'build-2']));
    for (const key of Object.keys(builds[1]!.files).filter((k) => k.startsWith('_assets/') && !k.endsWith('latest.json')))
      expect(await served(site, key)).toBe(builds[1]!.files[key]);

    const finished = await run(2, restarted);
    expect(finished.unchanged).toBeGreaterThanOrEqual(assetsAndPayloads + 2);
    expect(finished.previousBuildId).toBe('build-1');
    expect(await latestId(site)).toBe('build-2');
    for (const [key, content] of Object.entries(builds[2]!.files)) expect(await served(site, key), key).toBe(content);
  });

  it('rollback points latest.json back to build 1 and restores its pages from its output folder, deleting nothing', async () => {
    const s3 = await server();
    const site = await website(s3);
    await run(1, s3);
    await run(2, s3);
    const options = { outDir: builds[1]!.dir, bucket: s3.bucket, endpointUrl: s3.endpoint, rollback: 'build-1' };
    const putsBefore = s3.requests.filter((r) => r.method === 'PUT').length;
    const dry = await rollback(resolvePublishConfig({ ...options, dryRun: true }), { logger: createMemoryLogger() });
    expect(dry.actions.at(-1)).toMatchObject({ kind: 'upload', key: '_assets/builds/latest.json' });
    expect(s3.requests.filter((r) => r.method === 'PUT').length).toBe(putsBefore);
    expect(await latestId(site)).toBe('build-2');

    const logger = createMemoryLogger();
    const result = await rollback(resolvePublishConfig(options), { logger });

    expect(result).toMatchObject({ buildId: 'build-1', previousBuildId: 'build-2', deleted: 0 });
    expect(result.actions.at(-1)).toMatchObject({ kind: 'upload', key: '_assets/builds/latest.json' });
    expect(logger.lines.at(-1)).toMatch(
      /^\[publish\] rolled back to build build-1 at s3:\/\/site\/ in [\d.]+ s: \d+ uploaded, \d+ unchanged, 0 deleted/,
    );
    expect(await latestId(site)).toBe('build-1');
    for (const [key, content] of Object.entries(builds[1]!.files)) expect(await served(site, key), key).toBe(content);
    // Build 2 stays whole in the bucket, so rolling forward is one more rollback.
    expect(await served(site, '_assets/entry-v2.js')).toBe(builds[2]!.files['_assets/entry-v2.js']);

    const forward = await runCli(
      ['publish', '--bucket', s3.bucket, '--endpoint-url', s3.endpoint, '--rollback', 'build-2', '--out', builds[2]!.dir],
      { env: S3_ENV },
    );
    expect(forward.code, forward.stderr).toBe(0);
    expect(forward.stdout).toMatch(/\[publish\] rolled back to build build-2 /);
    expect(await latestId(site)).toBe('build-2');
  });

  it('rollback without the build’s own output refuses and changes nothing, since the bucket holds only the newest pages', async () => {
    const s3 = await server();
    const site = await website(s3);
    await run(1, s3);
    await run(2, s3);
    const putsBefore = s3.requests.filter((r) => r.method === 'PUT').length;
    const result = await runCli(
      ['publish', '--bucket', s3.bucket, '--endpoint-url', s3.endpoint, '--rollback', 'build-1', '--out', builds[2]!.dir],
      { env: S3_ENV },
    );

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /\[RollbackNeedsOutput\] Rolling back to build build-1 needs its own copy of \d+ files .* does not hold build build-1\./,
    );
    expect(result.stderr).toMatch(/Hint: Pass --out with the folder that holds that build's output/);
    expect(s3.requests.filter((r) => r.method === 'PUT').length).toBe(putsBefore);
    expect(await latestId(site)).toBe('build-2');
  });

  it('rollback to a build the bucket no longer holds names the builds it does hold', async () => {
    const s3 = await server();
    await run(1, s3);
    await run(2, s3, { keepBuilds: 1 });
    const result = await runCli(
      ['publish', '--bucket', s3.bucket, '--endpoint-url', s3.endpoint, '--rollback', 'build-1', '--out', builds[1]!.dir],
      { env: S3_ENV },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '[RollbackBuildMissing] Build build-1 is not in the bucket; the builds there are: build-2 (1970-01-01T00:00:02.000Z).',
    );
  });
});
