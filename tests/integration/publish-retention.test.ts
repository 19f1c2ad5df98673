import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBuildError } from '../../cli/errors/errors.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { publish, resolvePublishConfig, rollback, type PublishOptions, type PublishResult } from '../../cli/publish/index.ts';
import {
  bucketSnapshot,
  fakeBuildOwnKeys,
  getObject,
  S3_ENV,
  s3Client,
  startS3Server,
  writeFakeBuild,
  type S3TestServer,
} from '../helpers/s3-server.ts';

/** A record's key without its version (manifest.ts recordKeyFor): the key a build's record has whatever its content. */
const unversioned = (key: string): string => key.replace(/\.[0-9a-f]{16}\.json$/, '.json');
const unversionedKeys = (snapshot: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(snapshot).map(([key, etag]) => [unversioned(key), etag]));

describe('site publish keeps the files of the last N builds', () => {
  let s3: S3TestServer;
  let client: S3Client;
  const dirs: string[] = [];

  const run = (n: number, prefix: string, extra: PublishOptions = {}): Promise<PublishResult> =>
    publish(resolvePublishConfig({ outDir: dirs[n], bucket: s3.bucket, prefix, endpointUrl: s3.endpoint, ...extra }), {
      logger: createMemoryLogger(),
    });
  const keys = async (prefix: string): Promise<string[]> =>
    Object.keys(await bucketSnapshot(client, s3.bucket, prefix))
      .map(unversioned)
      .sort();
  const latestId = async (prefix: string): Promise<string> =>
    (JSON.parse((await getObject(client, s3.bucket, `${prefix}/_assets/builds/latest.json`))!.body.toString()) as { id: string }).id;

  beforeAll(async () => {
    Object.assign(process.env, S3_ENV);
    s3 = await startS3Server();
    client = s3Client(s3.endpoint);
    const root = await mkdtemp(join(tmpdir(), 'site-retention-'));
    for (let n = 1; n <= 4; n++) {
      dirs[n] = join(root, `build-${n}`);
      await writeFakeBuild(dirs[n]!, n);
    }
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
  });

  it('keeps every file of builds 2, 3 and 4 after the fourth publish with N=3, and deletes only what build 1 alone referenced', async () => {
    for (const n of [1, 2, 3]) {
      const result = await run(n, 'four', { keepBuilds: 3 });
      expect(result.deleted, `publish ${n}`).toBe(0);
    }
    for (const n of [1, 2, 3]) for (const key of fakeBuildOwnKeys(n)) expect(await keys('four'), key).toContain(key);

    const requestsBefore = s3.requests.length;
    // The moment publish says the build is live (site live's "live in"): the requests the server had then.
    let requestsAtLive = -1;
    const fourth = await publish(
      resolvePublishConfig({ outDir: dirs[4], bucket: s3.bucket, prefix: 'four', endpointUrl: s3.endpoint, keepBuilds: 3 }),
      { logger: createMemoryLogger(), onLive: () => void (requestsAtLive = s3.requests.length) },
    );
    const stored = await keys('four');

    expect(fourth.keptBuilds).toEqual(['build-4', 'build-3', 'build-2']);
    expect(fourth.deleted).toBe(fakeBuildOwnKeys(1).length);
    for (const key of fakeBuildOwnKeys(1)) expect(stored, key).not.toContain(key);
    for (const n of [2, 3, 4]) for (const key of fakeBuildOwnKeys(n)) expect(stored, key).toContain(key);
    for (const shared of ['_assets/shared-0000.js', 'media/logo.svg', 'index.html', 'news/first/_payload.json', '404.html', 'robots.txt'])
      expect(stored).toContain(shared);
    expect(await latestId('four')).toBe('build-4');

    // Deletions come only after latest.json names the new build.
    const requests = s3.requests.slice(requestsBefore);
    const latestPut = requests.findIndex((r) => r.method === 'PUT' && r.key === 'four/_assets/builds/latest.json');
    const firstDelete = requests.findIndex((r) => r.method === 'DELETE');
    expect(latestPut).toBeGreaterThan(-1);
    expect(firstDelete).toBeGreaterThan(latestPut);
    // Live once latest.json is in, not before, and without waiting for the deletions.
    expect(requestsAtLive - requestsBefore).toBeGreaterThan(latestPut);
    expect(requestsAtLive - requestsBefore).toBeLessThanOrEqual(firstDelete);
  });

  it('keeps the live build when an older build is published again, with the newest others', async () => {
    const again = await run(2, 'four', { keepBuilds: 2 });
    expect(again.keptBuilds).toEqual(['build-2', 'build-4']);
    const stored = await keys('four');
    for (const key of fakeBuildOwnKeys(3)) expect(stored, key).not.toContain(key);
    for (const n of [2, 4]) for (const key of fakeBuildOwnKeys(n)) expect(stored, key).toContain(key);
    expect(await latestId('four')).toBe('build-2');
    expect((await getObject(client, s3.bucket, 'four/index.html'))!.body.toString()).toContain('of build-2');
  });

  it('deletes at most --max-deletes files per run and leaves the rest for the next run', async () => {
    await run(1, 'capped', { keepBuilds: 1 });
    const capped = await run(2, 'capped', { keepBuilds: 1, maxDeletes: 3 });
    expect(capped).toMatchObject({ deleted: 3, deferredDeletes: fakeBuildOwnKeys(1).length - 3 });
    // Its meta goes first, so the dropped build is no longer offered to rollback; its file manifest
    // goes last, so no key of the build is ever left without a record that lists it.
    expect(await keys('capped')).not.toContain('_assets/builds/meta/build-1.json');
    expect(await keys('capped')).toContain('_assets/builds/files/build-1.json');

    const next = await run(2, 'capped', { keepBuilds: 1, maxDeletes: 100 });
    expect(next).toMatchObject({ uploaded: 0, deleted: fakeBuildOwnKeys(1).length - 3, deferredDeletes: 0 });
    for (const key of fakeBuildOwnKeys(1)) expect(await keys('capped'), key).not.toContain(key);

    const none = await run(3, 'capped', { keepBuilds: 1, maxDeletes: 0 });
    expect(none).toMatchObject({ deleted: 0, deferredDeletes: fakeBuildOwnKeys(2).length });
  });

  it('lists every upload and deletion in a dry run and changes nothing in the bucket', async () => {
    await run(1, 'dry', { keepBuilds: 1 });
    const before = await bucketSnapshot(client, s3.bucket, 'dry');
    const putsBefore = s3.requests.filter((r) => r.method !== 'GET').length;
    const logger = createMemoryLogger();
    const dry = await publish(
      resolvePublishConfig({ outDir: dirs[2], bucket: s3.bucket, prefix: 'dry', endpointUrl: s3.endpoint, keepBuilds: 1, dryRun: true }),
      { logger },
    );

    expect(await bucketSnapshot(client, s3.bucket, 'dry')).toEqual(before);
    expect(s3.requests.filter((r) => r.method !== 'GET').length).toBe(putsBefore);
    const wouldUpload = logger.lines.filter((l) => l.startsWith('[publish] would upload '));
    const wouldDelete = logger.lines.filter((l) => l.startsWith('[publish] would delete '));
    expect(wouldUpload.length).toBe(dry.actions.filter((a) => a.kind === 'upload').length);
    expect(wouldDelete.map((l) => unversioned(l.slice('[publish] would delete '.length))).sort()).toEqual(fakeBuildOwnKeys(1));
    expect(wouldUpload).toContain(
      '[publish] would upload _assets/entry-v2.js (new, 41 B, text/javascript; charset=utf-8, public, max-age=31536000, immutable)',
    );
    expect(wouldUpload.at(-1)).toMatch(/^\[publish\] would upload _assets\/builds\/latest\.json \(changed, /);
    expect(logger.lines.at(-1)).toMatch(
      /^\[publish\] dry run: \d+ to upload, 4 unchanged, 8 to delete, [\d.]+ (B|KiB); nothing was changed$/,
    );
    expect(dry).toMatchObject({ dryRun: true, uploaded: 0, deleted: 0, buildId: 'build-2', previousBuildId: 'build-1' });
  });
});

describe('site publish never deletes an object it did not write', () => {
  let s3: S3TestServer;
  let client: S3Client;
  const dirs: string[] = [];
  const fakes: { files: Record<string, string> }[] = [];
  const put = (key: string, body: string): Promise<unknown> =>
    client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body }));
  const config = (n: number, extra: PublishOptions = {}): ReturnType<typeof resolvePublishConfig> =>
    resolvePublishConfig({ outDir: dirs[n], bucket: s3.bucket, endpointUrl: s3.endpoint, keepBuilds: 2, ...extra });

  beforeAll(async () => {
    Object.assign(process.env, S3_ENV);
    s3 = await startS3Server();
    client = s3Client(s3.endpoint);
    const root = await mkdtemp(join(tmpdir(), 'site-foreign-'));
    for (let n = 1; n <= 5; n++) {
      dirs[n] = join(root, `build-${n}`);
      fakes[n] = await writeFakeBuild(dirs[n]!, n);
    }
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
  });

  it('refuses a bucket that holds backups and another app, changes nothing, refuses to write over another app even with the flag, and with it publishes beside them and never deletes them', async () => {
    const foreign = { 'backups/db.sql': 'CREATE TABLE t;', 'index.html': '<p>another app</p>', 'app/main.js': 'run()' };
    for (const [key, body] of Object.entries(foreign)) await put(key, body);
    const before = await bucketSnapshot(client, s3.bucket);
    const writes = (): number => s3.requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD').length;
    const writesBefore = writes();

    const refusal = await publish(config(1), { logger: createMemoryLogger() }).catch((e: unknown) => e);
    expect(isBuildError(refusal) && refusal.code).toBe('StorageHoldsForeignObjects');
    const message = (refusal as Error).message;
    for (const key of Object.keys(foreign)) expect(message).toContain(key);
    expect(message).toContain('3 objects');
    expect(isBuildError(refusal) && refusal.hint).toContain('--allow-foreign-objects');
    expect(await bucketSnapshot(client, s3.bucket)).toEqual(before);
    expect(writes()).toBe(writesBefore);

    // The other app's index.html sits at a key every build writes: the flag never allows writing over it.
    const over = await publish(config(1, { allowForeignObjects: true }), { logger: createMemoryLogger() }).catch((e: unknown) => e);
    expect(isBuildError(over) && over.code).toBe('StorageForeignObjectInTheWay');
    expect((over as Error).message).toContain('1 object');
    expect((over as Error).message).toContain('(index.html)');
    expect(await bucketSnapshot(client, s3.bucket)).toEqual(before);
    expect(writes()).toBe(writesBefore);

    // Once the operator moves it away, five publishes with --keep-builds 2: build 1's own files go, the foreign ones stay as they were.
    await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: 'index.html' }));
    for (let n = 1; n <= 5; n++) await publish(config(n, { allowForeignObjects: true }), { logger: createMemoryLogger() });
    const after = unversionedKeys(await bucketSnapshot(client, s3.bucket));
    // The same ETags as before any publish: never deleted, never written over.
    expect(after['backups/db.sql']).toBe(before['backups/db.sql']);
    expect(after['app/main.js']).toBe(before['app/main.js']);
    for (const gone of [
      '_assets/entry-v1.js',
      'only-1/index.html',
      'only-2/index.html',
      'only-3/index.html',
      '_assets/builds/files/build-1.json',
    ])
      expect(after[gone], gone).toBeUndefined();
    for (const kept of ['only-4/index.html', 'only-5/index.html']) expect(after[kept], kept).toBeDefined();
    expect(Object.keys(after).filter((k) => k.startsWith('_assets/builds/pending/'))).toEqual([]);
  });

  it('rolls back in a bucket that holds foreign objects without touching them, and the next publish still leaves them', async () => {
    const own = await startS3Server();
    const c = s3Client(own.endpoint);
    const options = (n: number, extra: PublishOptions = {}): ReturnType<typeof resolvePublishConfig> =>
      resolvePublishConfig({
        outDir: dirs[n],
        bucket: own.bucket,
        endpointUrl: own.endpoint,
        keepBuilds: 2,
        allowForeignObjects: true,
        ...extra,
      });
    try {
      const foreign = { 'backups/db.sql': 'CREATE TABLE t;', 'app/index.html': '<p>another app</p>' };
      for (const [key, body] of Object.entries(foreign)) await c.send(new PutObjectCommand({ Bucket: own.bucket, Key: key, Body: body }));
      const seeded = await bucketSnapshot(c, own.bucket);
      const body = async (key: string): Promise<string | undefined> => (await getObject(c, own.bucket, key))?.body.toString();
      await publish(options(1), { logger: createMemoryLogger() });
      await publish(options(2), { logger: createMemoryLogger() });

      const rolled = await rollback(options(1, { rollback: 'build-1' }), { logger: createMemoryLogger() });
      expect(rolled).toMatchObject({ buildId: 'build-1', previousBuildId: 'build-2', deleted: 0 });
      const after = await bucketSnapshot(c, own.bucket);
      expect(JSON.parse((await body('_assets/builds/latest.json'))!)).toMatchObject({ id: 'build-1' });
      expect(await body('index.html')).toContain('of build-1');
      expect(after['backups/db.sql']).toBe(seeded['backups/db.sql']);
      expect(after['app/index.html']).toBe(seeded['app/index.html']);

      await publish(options(3), { logger: createMemoryLogger() });
      const later = await bucketSnapshot(c, own.bucket);
      expect(later['backups/db.sql']).toBe(seeded['backups/db.sql']);
      expect(later['app/index.html']).toBe(seeded['app/index.html']);
      expect(JSON.parse((await body('_assets/builds/latest.json'))!)).toMatchObject({ id: 'build-3' });
      expect(later['_assets/entry-v1.js']).toBeUndefined();
    } finally {
      c.destroy();
      await own.stop();
    }
  });

  it("cleans up a stopped publish's files in a later run, still without touching foreign objects", async () => {
    let own = await startS3Server();
    const run = (n: number): Promise<PublishResult> =>
      publish(
        resolvePublishConfig({ outDir: dirs[n], bucket: own.bucket, endpointUrl: own.endpoint, keepBuilds: 1, allowForeignObjects: true }),
        { logger: createMemoryLogger() },
      );
    const snapshot = async (): Promise<Record<string, string>> => {
      const c = s3Client(own.endpoint);
      try {
        return unversionedKeys(await bucketSnapshot(c, own.bucket));
      } finally {
        c.destroy();
      }
    };
    try {
      const c = s3Client(own.endpoint);
      await c.send(new PutObjectCommand({ Bucket: own.bucket, Key: 'backups/keep.sql', Body: 'keep me' }));
      c.destroy();
      await run(1);
      // Build 2 stops after its pending record and a few assets: its files belong to no published build.
      own.stopAfterPuts(4);
      await expect(run(2)).rejects.toBeTruthy();
      await own.stopped;
      own = await startS3Server({ directory: own.directory });
      const halfway = await snapshot();
      expect(halfway['_assets/builds/pending/build-2.json']).toBeDefined();
      // The pending record lists the keys build 2 writes, not the ones build 1 already put there with the same bytes.
      const reading = s3Client(own.endpoint);
      const pendingKey = Object.keys(await bucketSnapshot(reading, own.bucket)).find((k) =>
        k.startsWith('_assets/builds/pending/build-2.'),
      )!;
      const pendingRecord = JSON.parse((await getObject(reading, own.bucket, pendingKey))!.body.toString()) as {
        files: Record<string, unknown>;
      };
      reading.destroy();
      const unchanged = ['_assets/shared-0000.js', 'media/logo.svg', 'robots.txt', 'sitemap.xml', '_assets/builds/latest.json'];
      const written = Object.keys(fakes[2]!.files).filter((k) => !unchanged.includes(k));
      expect(Object.keys(pendingRecord.files).sort()).toEqual(written.sort());
      const orphans = Object.keys(halfway).filter((k) => k.includes('-v2'));
      expect(orphans.length).toBeGreaterThan(0);

      await run(3);
      const after = await snapshot();
      for (const orphan of orphans) expect(after[orphan], orphan).toBeUndefined();
      expect(after['_assets/builds/pending/build-2.json']).toBeUndefined();
      expect(after['backups/keep.sql']).toBeDefined();
      expect(after['only-3/index.html']).toBeDefined();
    } finally {
      await own.stop();
    }
  });
});
