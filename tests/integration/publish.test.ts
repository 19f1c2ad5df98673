import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeFor } from '../../cli/serve/content-types.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { publish, resolvePublishConfig, type PublishOptions, type PublishResult } from '../../cli/publish/index.ts';
import { STAGES, policyFor } from '../../cli/publish/policy.ts';
import type { LatestBuild } from '../../runtime/shared/contract.ts';
import { runCli } from '../helpers/cli.ts';
import { bucketSnapshot, getObject, S3_ENV, s3Client, startS3Server, writeFakeBuild, type S3TestServer } from '../helpers/s3-server.ts';
import { listFiles } from '../helpers/tree.ts';

/** A record's key without its version (manifest.ts recordKeyFor): the key a build's record has whatever its content. */
const unversioned = (key: string): string => key.replace(/\.[0-9a-f]{16}\.json$/, '.json');

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('site publish of a real build to an S3-compatible server', () => {
  let out: string;
  let s3: S3TestServer;
  let client: S3Client;
  let first: PublishResult;
  let firstLog: string[];
  let putsOfFirst: string[];
  let pendingFirst: string;

  const options = (extra: PublishOptions = {}): PublishOptions => ({
    outDir: out,
    bucket: s3.bucket,
    prefix: 'www',
    endpointUrl: s3.endpoint,
    ...extra,
  });

  beforeAll(async () => {
    Object.assign(process.env, S3_ENV);
    out = join(await mkdtemp(join(tmpdir(), 'site-publish-')), 'site');
    const built = await runCli(['build', '--out', out, '--quiet']);
    expect(built.code, built.stderr).toBe(0);
    s3 = await startS3Server();
    client = s3Client(s3.endpoint);
    const logger = createMemoryLogger();
    first = await publish(resolvePublishConfig(options()), { logger });
    firstLog = logger.lines;
    const puts = s3.requests.filter((r) => r.method === 'PUT').map((r) => r.key.replace(/^www\//, ''));
    // Before any file, the pending record that lists them all (so publish only ever deletes what it wrote).
    pendingFirst = puts[0]!;
    putsOfFirst = puts.slice(1);
  }, 240_000);

  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
  });

  it('uploads every file of the output folder with identical bytes, plus the build file manifest', async () => {
    const local = await listFiles(out);
    const stored = Object.keys(await bucketSnapshot(client, s3.bucket, 'www'))
      .map(unversioned)
      .sort();
    expect(stored).toEqual([...local, `_assets/builds/files/${first.buildId}.json`].sort());
    for (const key of local.filter((k) => k.endsWith('index.html') || k.endsWith('.js') || k.startsWith('media/')).slice(0, 40)) {
      const object = await getObject(client, s3.bucket, `www/${key}`);
      expect(object?.body.equals(await readFile(join(out, key))), key).toBe(true);
    }
  });

  it('stores every object with its Content-Type, and Cache-Control immutable only for hashed assets, build records and the search index’s content-named chunks', async () => {
    const keys = Object.keys(await bucketSnapshot(client, s3.bucket, 'www'));
    const seen = new Map<string, string>();
    for (const key of keys) {
      const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `www/${key}` }));
      expect(head.ContentType, key).toBe(contentTypeFor(key));
      const expected =
        key === '_assets/builds/latest.json'
          ? 'no-cache'
          : key.startsWith('_assets/') || /^_search\/((index|fragment|filter)\/[^/]+|pagefind\.[^/]+\.pf_meta)$/.test(key)
            ? IMMUTABLE
            : key.startsWith('media/')
              ? 'public, max-age=3600'
              : 'no-cache';
      expect(head.CacheControl, key).toBe(expected);
      expect(head.Metadata?.sha256, key).toMatch(/^[0-9a-f]{64}$/);
      seen.set(key, `${head.ContentType} | ${head.CacheControl}`);
    }
    // The kinds of file the issue names, spelled out.
    const entry = keys.find((k) => /^_assets\/entry-[^/]+\.js$/.test(k))!;
    const css = keys.find((k) => /^_assets\/site-[^/]+\.css$/.test(k))!;
    expect(seen.get(entry)).toBe(`text/javascript; charset=utf-8 | ${IMMUTABLE}`);
    expect(seen.get(css)).toBe(`text/css; charset=utf-8 | ${IMMUTABLE}`);
    expect(seen.get(`_assets/builds/meta/${first.buildId}.json`)).toBe(`application/json; charset=utf-8 | ${IMMUTABLE}`);
    expect(seen.get('_assets/builds/latest.json')).toBe('application/json; charset=utf-8 | no-cache');
    expect(seen.get('news/index.html')).toBe('text/html; charset=utf-8 | no-cache');
    expect(seen.get('news/_payload.json')).toBe('application/json; charset=utf-8 | no-cache');
    expect(seen.get('404.html')).toBe('text/html; charset=utf-8 | no-cache');
    expect(seen.get('sitemap.xml')).toBe('application/xml; charset=utf-8 | no-cache');
    expect(seen.get('robots.txt')).toBe('text/plain; charset=utf-8 | no-cache');
    expect(keys.some((k) => k.startsWith('media/') && k.endsWith('.pdf') && seen.get(k) === 'application/pdf | public, max-age=3600')).toBe(
      true,
    );
  });

  it('writes the pending record first, uploads hashed assets and media next, then payloads, then pages, then the build records, and latest.json last, and removes the pending record', () => {
    expect(unversioned(pendingFirst)).toBe(`_assets/builds/pending/${first.buildId}.json`);
    expect(s3.requests.some((r) => r.method === 'DELETE' && r.key === `www/${pendingFirst}`)).toBe(true);
    const stages = putsOfFirst.map((key) => STAGES.indexOf(policyFor(key).stage));
    expect(stages).toEqual([...stages].sort((a, b) => a - b));
    expect(putsOfFirst.at(-1)).toBe('_assets/builds/latest.json');
    const lastPage = Math.max(...putsOfFirst.map((k, i) => (k.endsWith('index.html') || k.endsWith('_payload.json') ? i : -1)));
    const lastAsset = Math.max(...putsOfFirst.map((k, i) => (k.startsWith('media/') || /^_assets\/[^/]+$/.test(k) ? i : -1)));
    const firstPage = putsOfFirst.findIndex((k) => k.endsWith('index.html') || k.endsWith('_payload.json'));
    expect(lastAsset).toBeLessThan(firstPage);
    expect(putsOfFirst.indexOf(`_assets/builds/meta/${first.buildId}.json`)).toBeGreaterThan(lastPage);
    expect(putsOfFirst.map(unversioned).indexOf(`_assets/builds/files/${first.buildId}.json`)).toBeGreaterThan(lastPage);
    // The client-side record agrees with the server's.
    expect(first.actions.map((a) => a.key)).toEqual(putsOfFirst);
  });

  it('shows progress by stage and ends with a summary of uploaded, unchanged, deleted and bytes', () => {
    expect(firstLog.some((l) => /^\[publish\] assets: \d+ files to upload, [\d.]+ (KiB|MiB)$/.test(l))).toBe(true);
    expect(firstLog.some((l) => /^\[publish\] \d+\/\d+ uploaded, [\d.]+ (B|KiB|MiB) of [\d.]+ MiB \(pages\)$/.test(l))).toBe(true);
    expect(firstLog.at(-1)).toMatch(
      new RegExp(
        `^\\[publish\\] published build ${first.buildId} at s3://site/www/ in [\\d.]+ s: ${first.uploaded} uploaded, 0 unchanged, 0 deleted, [\\d.]+ MiB$`,
      ),
    );
    expect(first).toMatchObject({ previousBuildId: null, unchanged: 0, deleted: 0 });
    expect(first.bytes).toBeGreaterThan(1024 * 1024);
  });

  it('uploads nothing when the same build is published again, and says so', async () => {
    const putsBefore = s3.requests.filter((r) => r.method === 'PUT').length;
    const logger = createMemoryLogger();
    const again = await publish(resolvePublishConfig(options()), { logger });
    expect(s3.requests.filter((r) => r.method === 'PUT').length).toBe(putsBefore);
    expect(again).toMatchObject({
      uploaded: 0,
      deleted: 0,
      bytes: 0,
      unchanged: first.uploaded,
      previousBuildId: first.buildId,
      actions: [],
    });
    expect(logger.lines.at(-1)).toMatch(/: 0 uploaded, \d+ unchanged, 0 deleted, 0 B$/);
  });

  it('publishes through the CLI with credentials from the AWS environment, and prints one line per file only with --verbose', async () => {
    const args = ['publish', '--out', out, '--bucket', s3.bucket, '--endpoint-url', s3.endpoint, '--prefix', 'cli'];
    const result = await runCli(args, { env: S3_ENV });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/put _assets/);
    expect(result.stdout).toMatch(
      /\[publish\] published build \w+ at s3:\/\/site\/cli\/ in [\d.]+ s: \d+ uploaded, 0 unchanged, 0 deleted/,
    );
    const latest = await getObject(client, s3.bucket, 'cli/_assets/builds/latest.json');
    expect((JSON.parse(latest!.body.toString()) as LatestBuild).id).toBe(first.buildId);

    const verbose = await runCli([...args, '--prefix', 'cli-verbose', '--verbose'], { env: S3_ENV });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout).toMatch(
      /\[publish\] put _assets\/entry-\w+\.js \(new, [\d.]+ KiB, text\/javascript; charset=utf-8, public, max-age=31536000, immutable\)/,
    );
  }, 60_000);
});

describe('site publish failures', () => {
  let s3: S3TestServer;
  let out: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    out = join(await mkdtemp(join(tmpdir(), 'site-publish-')), 'site');
    await writeFakeBuild(out, 1);
  });
  afterAll(async () => s3?.stop());

  const publishArgs = (...extra: string[]): string[] => ['publish', '--out', out, '--endpoint-url', s3.endpoint, ...extra];

  it('exits 2 with the option and what it expects for a missing bucket name or a bad number', async () => {
    const noBucket = await runCli(publishArgs(), { env: S3_ENV });
    expect(noBucket.code).toBe(2);
    expect(noBucket.stderr).toMatch(/\[InvalidOption\] Expected --bucket to be a bucket name/);
    const badKeep = await runCli(publishArgs('--bucket', 'site', '--keep-builds', '0'), { env: S3_ENV });
    expect(badKeep.code).toBe(2);
    expect(badKeep.stderr).toContain("Expected --keep-builds to be an integer from 1 to 100, got '0'.");
    const badDeletes = await runCli(publishArgs('--bucket', 'site', '--max-deletes', 'many'), { env: S3_ENV });
    expect(badDeletes.code).toBe(2);
    const badRollback = await runCli(publishArgs('--bucket', 'site', '--rollback', '../x'), { env: S3_ENV });
    expect(badRollback.code).toBe(2);
  });

  it('exits 1 naming the bucket and the fix when the bucket does not exist', async () => {
    const result = await runCli(publishArgs('--bucket', 'no-such-bucket'), { env: S3_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`[StorageBucketMissing] The bucket 'no-such-bucket' does not exist at ${s3.endpoint}.`);
    expect(result.stderr).toMatch(/Hint: Create the bucket/);
  });

  it('exits 1 and names the credential variables when the storage refuses the key', async () => {
    const result = await runCli(publishArgs('--bucket', 'site'), { env: { ...S3_ENV, AWS_ACCESS_KEY_ID: 'NOT-A-KEY' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /\[StorageCredentialsRefused\] The object storage at http:\/\/127\.0\.0\.1:\d+ refused the credentials: InvalidAccessKeyId/,
    );
    expect(result.stderr).toMatch(/Hint: Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  });

  it('exits 1 within seconds when nothing listens at the endpoint', async () => {
    const result = await runCli(['publish', '--out', out, '--bucket', 'site', '--endpoint-url', 'http://127.0.0.1:9'], { env: S3_ENV });
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(20_000);
    expect(result.stderr).toMatch(
      /\[StorageUnreachable\] The object storage at http:\/\/127\.0\.0\.1:9 could not be reached: .*ECONNREFUSED/,
    );
  });

  it('exits 1 naming five of the objects it did not write, their count and --allow-foreign-objects, and with the flag publishes beside them', async () => {
    const client = s3Client(s3.endpoint);
    try {
      const foreign = [
        'backups/db-1.sql',
        'backups/db-2.sql',
        'backups/db-3.sql',
        'backups/db-4.sql',
        'backups/db-5.sql',
        'backups/db-6.sql',
        'notes.txt',
      ];
      for (const key of foreign) await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `cli-foreign/${key}`, Body: key }));
      const before = await bucketSnapshot(client, s3.bucket, 'cli-foreign');
      const refused = await runCli(publishArgs('--bucket', s3.bucket, '--prefix', 'cli-foreign'), { env: S3_ENV });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `[StorageHoldsForeignObjects] s3://${s3.bucket}/cli-foreign/ holds 7 objects that no build published there lists (backups/db-1.sql, backups/db-2.sql, backups/db-3.sql, backups/db-4.sql, backups/db-5.sql, …); nothing was uploaded or deleted.`,
      );
      expect(refused.stderr).toMatch(/Hint: .*--allow-foreign-objects/);
      expect(await bucketSnapshot(client, s3.bucket, 'cli-foreign')).toEqual(before);

      const beside = await runCli(publishArgs('--bucket', s3.bucket, '--prefix', 'cli-foreign', '--allow-foreign-objects'), {
        env: S3_ENV,
      });
      expect(beside.code, beside.stderr).toBe(0);
      expect(beside.stderr).toContain('7 objects under');
      const after = await bucketSnapshot(client, s3.bucket, 'cli-foreign');
      for (const key of foreign) expect(after[key], key).toBe(before[key]);
      expect(after['_assets/builds/latest.json']).toBeDefined();
    } finally {
      client.destroy();
    }
  });

  it('exits 1 without contacting the storage when the folder holds no build', async () => {
    const before = s3.requests.length;
    const result = await runCli(['publish', '--out', join(out, 'nothing-here'), '--bucket', 'site', '--endpoint-url', s3.endpoint], {
      env: S3_ENV,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\[OutputMissing\] There is no built site in /);
    expect(s3.requests.length).toBe(before);
  });
});
