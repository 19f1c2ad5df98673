import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBuildError } from '../../cli/errors/errors.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { createS3Store } from '../../cli/publish/s3-store.ts';
import { publish, resolvePublishConfig, rollback, type PublishOptions, type PublishResult } from '../../cli/publish/index.ts';
import {
  bucketSnapshot,
  fakeBuildOwnKeys,
  getObject,
  S3_ENV,
  s3Client,
  startBucketWebsite,
  startS3Server,
  TEST_PUBLISH_KEY,
  writeFakeBuild,
  type S3TestServer,
} from '../helpers/s3-server.ts';

/**
 * What publish deletes, keeps and makes live is decided only by what it can prove: records signed with
 * SITE_PUBLISH_KEY (a planted or replayed record deletes nothing and pushes no build out of retention),
 * and a shard's own upload is invisible to visitors until the merged build's publish.
 */

let s3: S3TestServer;
let client: S3Client;
let root: string;
const dirs: string[] = [];

beforeAll(async () => {
  Object.assign(process.env, S3_ENV);
  s3 = await startS3Server();
  client = s3Client(s3.endpoint);
  root = await mkdtemp(join(tmpdir(), 'site-trust-'));
  for (let n = 1; n <= 4; n++) {
    dirs[n] = join(root, `build-${n}`);
    await writeFakeBuild(dirs[n]!, n);
  }
});
afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await rm(root, { recursive: true, force: true });
});

const config = (
  n: number,
  prefix: string,
  extra: PublishOptions = {},
  env: Record<string, string | undefined> = process.env,
): ReturnType<typeof resolvePublishConfig> =>
  resolvePublishConfig({ outDir: dirs[n], bucket: s3.bucket, prefix, endpointUrl: s3.endpoint, ...extra }, env);
const run = (n: number, prefix: string, extra: PublishOptions = {}, logger = createMemoryLogger()): Promise<PublishResult> =>
  publish(config(n, prefix, extra), { logger });
const put = (key: string, body: string): Promise<unknown> => client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body }));
const text = async (key: string): Promise<string> => (await getObject(client, s3.bucket, key))!.body.toString();
const refusal = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
/** A record's key without its version (manifest.ts recordKeyFor), to compare with the key a build's record has whatever its content. */
const unversioned = (key: string): string => key.replace(/\.[0-9a-f]{16}\.json$/, '.json');
/** The bucket under a prefix (bucketSnapshot), build records under their unversioned keys. */
const snapshot = async (prefix: string): Promise<Record<string, string>> =>
  Object.fromEntries(Object.entries(await bucketSnapshot(client, s3.bucket, prefix)).map(([key, etag]) => [unversioned(key), etag]));
/** The full key (prefix included) of the record of build `id` in `dir` (files or pending). */
const recordKey = async (prefix: string, id: string, dir = 'files'): Promise<string> => {
  const keys = Object.keys(await bucketSnapshot(client, s3.bucket, prefix)).filter(
    (key) => unversioned(key) === `_assets/builds/${dir}/${id}.json`,
  );
  expect(keys).toHaveLength(1);
  return `${prefix}/${keys[0]}`;
};
/** A well-formed record in the format publish writes, with whatever MAC the forger likes (or none). */
const plantedRecord = (id: string, timestamp: number, keys: string[], mac?: string): string =>
  JSON.stringify({
    v: 1,
    id,
    timestamp,
    files: Object.fromEntries(keys.map((key) => [key, { size: 1, md5: '0'.repeat(32), sha256: '0'.repeat(64) }])),
    ...(mac === undefined ? {} : { mac }),
  });

describe('publish trusts only the records it signed', () => {
  it('a planted pending record listing another app’s objects neither silences the foreign-object refusal nor gets them deleted', async () => {
    await run(1, 'planted', { keepBuilds: 1 });
    const foreign = { 'planted/app/main.js': 'run()', 'planted/backups/db.sql': 'CREATE TABLE t;' };
    for (const [key, body] of Object.entries(foreign)) await put(key, body);
    // One unsigned, one with a MAC made with another key, both listing the other app's objects.
    await put('planted/_assets/builds/pending/evil.json', plantedRecord('evil', 5000, ['app/main.js', 'backups/db.sql']));
    await put(
      'planted/_assets/builds/pending/evil2.json',
      plantedRecord('evil2', 5000, ['app/main.js', 'backups/db.sql'], 'ab'.repeat(32)),
    );
    const before = await snapshot('planted');

    const logger = createMemoryLogger();
    const refused = await refusal(run(2, 'planted', { keepBuilds: 1 }, logger));
    expect(isBuildError(refused) && refused.code).toBe('StorageHoldsForeignObjects');
    for (const key of ['app/main.js', 'backups/db.sql', '_assets/builds/pending/evil.json'])
      expect((refused as Error).message).toContain(key);
    expect(await snapshot('planted')).toEqual(before);
    // Each planted record is named, once, with why it is not trusted.
    expect(logger.lines.filter((l) => l.includes('"_assets/builds/pending/evil.json"'))).toEqual([
      expect.stringMatching(/without a signature/),
    ]);
    expect(logger.lines.filter((l) => l.includes('"_assets/builds/pending/evil2.json"'))).toEqual([
      expect.stringMatching(/does not verify with SITE_PUBLISH_KEY/),
    ]);

    // Told to publish beside foreign objects, it does, and deletes only what its own records list.
    const beside = await run(2, 'planted', { keepBuilds: 1, allowForeignObjects: true });
    const after = await snapshot('planted');
    for (const key of ['app/main.js', 'backups/db.sql', '_assets/builds/pending/evil.json', '_assets/builds/pending/evil2.json'])
      expect(after[key], key).toBe(before[key]);
    expect(
      beside.actions
        .filter((a) => a.kind === 'delete')
        .map((a) => unversioned(a.key))
        .sort(),
    ).toEqual(fakeBuildOwnKeys(1));
  });

  it('a genuine record replayed at another key or build id, or edited, authorises nothing', async () => {
    await run(1, 'replay', { keepBuilds: 2 });
    await run(2, 'replay', { keepBuilds: 2 });
    await put('replay/app/main.js', 'run()');
    const genuine = await text(await recordKey('replay', 'build-1'));
    // The same bytes filed as a pending record, as another build's manifest, and with another app's key added.
    await put('replay/_assets/builds/pending/build-1.json', genuine);
    await put(
      'replay/_assets/builds/files/build-9.json',
      genuine.replaceAll('"build-1"', '"build-9"').replace('"timestamp":1000', '"timestamp":9000000'),
    );
    const withApp = JSON.parse(genuine) as { files: Record<string, unknown> };
    withApp.files['app/main.js'] = { size: 5, md5: '0'.repeat(32), sha256: '0'.repeat(64) };
    await put('replay/_assets/builds/pending/build-7.json', JSON.stringify({ ...withApp, id: 'build-7' }));
    // The same record signed for another prefix with the same key.
    await run(1, 'elsewhere', { keepBuilds: 2 });
    await put(
      'replay/_assets/builds/pending/build-1x.json',
      (await text(await recordKey('elsewhere', 'build-1'))).replace('"build-1"', '"build-1x"'),
    );
    const before = await snapshot('replay');

    const logger = createMemoryLogger();
    const third = await run(3, 'replay', { keepBuilds: 2, allowForeignObjects: true }, logger);
    for (const key of [
      '_assets/builds/pending/build-1.json',
      '_assets/builds/files/build-9.json',
      '_assets/builds/pending/build-7.json',
      '_assets/builds/pending/build-1x.json',
    ]) {
      expect(
        logger.lines.some((l) => l.includes(`ignoring "${key}"`) && l.includes('does not verify')),
        key,
      ).toBe(true);
    }
    const after = await snapshot('replay');
    expect(after['app/main.js']).toBe(before['app/main.js']);
    // Build 9's later timestamp pushed nothing out: the real builds 3 and 2 are kept, build 1 alone is dropped.
    expect(third.keptBuilds).toEqual(['build-3', 'build-2']);
    for (const key of fakeBuildOwnKeys(2)) expect(after[key], key).toBeDefined();
  });

  it('planted manifests with later timestamps push no real build out of --keep-builds, and rollback still finds it', async () => {
    await run(1, 'later', { keepBuilds: 2 });
    await run(2, 'later', { keepBuilds: 2 });
    for (const id of ['zz-1', 'zz-2']) await put(`later/_assets/builds/files/${id}.json`, plantedRecord(id, 9_000_000_000_000, []));

    const refused = await refusal(run(3, 'later', { keepBuilds: 2 }));
    expect(isBuildError(refused) && refused.code).toBe('StorageHoldsForeignObjects');
    const third = await run(3, 'later', { keepBuilds: 2, allowForeignObjects: true });
    expect(third.keptBuilds).toEqual(['build-3', 'build-2']);
    const stored = await snapshot('later');
    for (const key of fakeBuildOwnKeys(2)) expect(stored[key], key).toBeDefined();
    for (const key of fakeBuildOwnKeys(1)) expect(stored[key], key).toBeUndefined();
    expect(stored['_assets/builds/files/zz-1.json']).toBeDefined();

    const back = await rollback(config(2, 'later', { rollback: 'build-2', allowForeignObjects: true }), { logger: createMemoryLogger() });
    expect(back).toMatchObject({ buildId: 'build-2', previousBuildId: 'build-3' });
    expect(JSON.parse(await text('later/_assets/builds/latest.json'))).toEqual({ id: 'build-2', timestamp: 2000 });
    expect(await text('later/index.html')).toContain('of build-2');
    // A planted build is never offered to rollback.
    const planted = await refusal(rollback(config(2, 'later', { rollback: 'zz-2' }), { logger: createMemoryLogger() }));
    expect(isBuildError(planted) && planted.code).toBe('RollbackBuildMissing');
  });

  it('keeps retention and rollback working across publishes from separate runs with the same key, and trusts nothing signed with another', async () => {
    // Each run reads the key from an environment of its own, as separate CI jobs do.
    const job = (): Record<string, string> => ({ ...S3_ENV });
    for (const n of [1, 2, 3]) await publish(config(n, 'runs', { keepBuilds: 2 }, job()), { logger: createMemoryLogger() });
    const stored = await snapshot('runs');
    for (const key of fakeBuildOwnKeys(1)) expect(stored[key], key).toBeUndefined();
    for (const n of [2, 3]) for (const key of fakeBuildOwnKeys(n)) expect(stored[key], key).toBeDefined();
    const back = await rollback(config(2, 'runs', { rollback: 'build-2' }, job()), { logger: createMemoryLogger() });
    expect(back.buildId).toBe('build-2');
    expect(await text('runs/only-2/index.html')).toContain('of build-2');

    // Another key proves nothing here: every object is foreign to it, so nothing is written or deleted.
    const before = await snapshot('runs');
    const other = { ...S3_ENV, SITE_PUBLISH_KEY: `${TEST_PUBLISH_KEY}-rotated` };
    const refused = await refusal(publish(config(4, 'runs', { keepBuilds: 1 }, other), { logger: createMemoryLogger() }));
    expect(isBuildError(refused) && refused.code).toBe('StorageHoldsForeignObjects');
    const beside = await refusal(
      publish(config(4, 'runs', { keepBuilds: 1, allowForeignObjects: true }, other), { logger: createMemoryLogger() }),
    );
    expect(isBuildError(beside) && beside.code).toBe('StorageForeignObjectInTheWay');
    expect(await snapshot('runs')).toEqual(before);
  });
});

describe('a build id published again', () => {
  it('an older genuine record of it put back neither hides its newer files nor pushes it out of --keep-builds', async () => {
    // Build 1 again with a new page and a later time (an edit gives the same build id).
    const again = join(root, 'build-1-again');
    await writeFakeBuild(again, 1);
    await mkdir(join(again, 'new-page'), { recursive: true });
    await writeFile(join(again, 'new-page/index.html'), '<!doctype html><h1>new page of build-1</h1>');
    for (const key of ['_assets/builds/meta/build-1.json', '_assets/builds/latest.json']) {
      const value = JSON.parse(await readFile(join(again, key), 'utf8')) as { timestamp: number };
      await writeFile(join(again, key), JSON.stringify({ ...value, timestamp: 3000 }));
    }
    const records = async (): Promise<string[]> =>
      Object.keys(await bucketSnapshot(client, s3.bucket, 'again')).filter((key) => key.startsWith('_assets/builds/files/build-1'));

    await run(1, 'again', { keepBuilds: 2 });
    const [firstKey] = await records();
    const first = await text(`again/${firstKey}`);
    await run(2, 'again', { keepBuilds: 2 });
    await publish(config(1, 'again', { outDir: again, keepBuilds: 2 }), { logger: createMemoryLogger() });
    // The first version's genuine record, put back at the key it was stored at.
    await put(`again/${firstKey}`, first);

    // The next publish is not refused (the new page is still build 1's), and keeps build 1 (t=3000) over build 2.
    const next = await run(3, 'again', { keepBuilds: 2 });
    expect(next.keptBuilds).toEqual(['build-3', 'build-1']);
    const after = await bucketSnapshot(client, s3.bucket, 'again');
    for (const key of ['new-page/index.html', '_assets/builds/meta/build-1.json', '_assets/entry-v1.js'])
      expect(after[key], key).toBeDefined();
    expect(after['only-2/index.html']).toBeUndefined();

    // Rollback to build 1 takes the version the folder holds, and restores its pages.
    const back = await rollback(config(1, 'again', { outDir: again, rollback: 'build-1' }), { logger: createMemoryLogger() });
    expect(back.buildId).toBe('build-1');
    expect(JSON.parse(await text('again/_assets/builds/latest.json'))).toEqual({ id: 'build-1', timestamp: 3000 });
    expect(await text('again/index.html')).toContain('of build-1');
  });
});

describe('a deleted build record', () => {
  it('is recovered by publishing that build again: its objects hold the same bytes, and its new manifest owns them', async () => {
    await run(1, 'lost', { keepBuilds: 1 });
    await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: await recordKey('lost', 'build-1') }));
    // Build 1's own objects are in no record now: another build is refused, and writing over them is never allowed.
    expect(await refusal(run(2, 'lost', { keepBuilds: 1 }))).toMatchObject({ code: 'StorageHoldsForeignObjects' });
    expect(await refusal(run(2, 'lost', { keepBuilds: 1, allowForeignObjects: true }))).toMatchObject({
      code: 'StorageForeignObjectInTheWay',
    });

    // The same build again writes the very bytes they hold: nothing is lost, and its signed manifest is back.
    const again = await run(1, 'lost', { keepBuilds: 1 });
    expect(again.actions.filter((a) => a.kind === 'delete')).toEqual([]);
    expect(JSON.parse(await text(await recordKey('lost', 'build-1')))).toMatchObject({ id: 'build-1' });
    // From there on publish works as before: build 2 goes live and build 1's own keys are deleted.
    const next = await run(2, 'lost', { keepBuilds: 1 });
    expect(next.keptBuilds).toEqual(['build-2']);
    expect(
      next.actions
        .filter((a) => a.kind === 'delete')
        .map((a) => unversioned(a.key))
        .sort(),
    ).toEqual(fakeBuildOwnKeys(1));
  });
});

describe('--adopt-records', () => {
  it('takes the unsigned records of an earlier version once, signs them, and retention and rollback go on from there', async () => {
    await run(1, 'legacy', { keepBuilds: 2 });
    await run(2, 'legacy', { keepBuilds: 2 });
    // The records as an earlier version wrote them: the same manifests, without a signature, at `files/{id}.json`.
    for (const id of ['build-1', 'build-2']) {
      const key = await recordKey('legacy', id);
      const unsigned = JSON.stringify({ ...(JSON.parse(await text(key)) as object), mac: undefined });
      await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
      await put(`legacy/_assets/builds/files/${id}.json`, unsigned);
    }
    const refused = await refusal(run(3, 'legacy', { keepBuilds: 2 }));
    expect(isBuildError(refused) && refused.code).toBe('StorageHoldsForeignObjects');

    const logger = createMemoryLogger();
    const adopted = await run(3, 'legacy', { keepBuilds: 2, adoptRecords: true }, logger);
    expect(logger.lines.filter((l) => l.includes('adopting "_assets/builds/files/')).length).toBe(2);
    expect(adopted.keptBuilds).toEqual(['build-3', 'build-2']);
    for (const key of fakeBuildOwnKeys(1)) expect((await snapshot('legacy'))[key], key).toBeUndefined();
    // Signed now: the next run needs no flag, and rollback finds build 2.
    await run(4, 'legacy', { keepBuilds: 2 });
    expect((await rollback(config(3, 'legacy', { rollback: 'build-3' }), { logger: createMemoryLogger() })).buildId).toBe('build-3');
  });

  it('moves the records to a new key: signed with the old one, adopted once under the new', async () => {
    const old = { ...S3_ENV, SITE_PUBLISH_KEY: `${TEST_PUBLISH_KEY}-old` };
    for (const n of [1, 2]) await publish(config(n, 'rotated', { keepBuilds: 2 }, old), { logger: createMemoryLogger() });
    const refused = await refusal(run(3, 'rotated', { keepBuilds: 2 }));
    expect(isBuildError(refused) && refused.code).toBe('StorageHoldsForeignObjects');
    await publish(config(3, 'rotated', { keepBuilds: 2, adoptRecords: true }), { logger: createMemoryLogger() });
    const fourth = await run(4, 'rotated', { keepBuilds: 2 });
    expect(fourth.keptBuilds).toEqual(['build-4', 'build-3']);
    const stored = await snapshot('rotated');
    for (const key of fakeBuildOwnKeys(2)) expect(stored[key], key).toBeUndefined();
  });
});

describe('a shard published alone', () => {
  /** Build n with a large media file of its own bytes at a key every build has, which a shard stages. */
  const report = (n: number): Buffer => Buffer.alloc(300 * 1024, n);
  const fullBuild = async (n: number): Promise<string> => {
    const dir = join(root, `with-report-${n}`);
    await writeFakeBuild(dir, n);
    await writeFile(join(dir, 'media/report.pdf'), report(n));
    return dir;
  };
  /** A shard folder of build n as `site build --shard 1/2` lays it out: pages, payloads, media and assets, its manifest, no latest.json. */
  const shardOf = async (n: number): Promise<string> => {
    const dir = join(root, `shard-of-${n}`);
    await writeFakeBuild(dir, n);
    await writeFile(join(dir, 'media/report.pdf'), report(n));
    for (const key of ['_assets/builds/latest.json', `_assets/builds/meta/build-${n}.json`, '404.html', 'robots.txt', 'sitemap.xml'])
      await rm(join(dir, key));
    await mkdir(join(dir, '_assets/builds/shards'), { recursive: true });
    await writeFile(
      join(dir, '_assets/builds/shards/1-of-2.json'),
      JSON.stringify({ version: 1, buildId: `build-${n}`, shard: { index: 1, count: 2 }, timestamp: n * 1000 }),
    );
    return dir;
  };
  const publishDir = (outDir: string, prefix: string): Promise<PublishResult> =>
    publish(config(1, prefix, { outDir, keepBuilds: 2 }), { logger: createMemoryLogger() });

  it('changes nothing a visitor sees, and the merged publish makes it live in one latest.json switch', async () => {
    const [one, two] = [await fullBuild(1), await fullBuild(2)];
    await publishDir(one, 'sharded');
    const site = await startBucketWebsite({ endpoint: s3.endpoint, bucket: s3.bucket, prefix: 'sharded' });
    try {
      const visit = async (path: string): Promise<{ status: number; body: string }> => {
        const answer = await fetch(site.url + path);
        return { status: answer.status, body: Buffer.from(await answer.arrayBuffer()).toString('base64') };
      };
      const paths = [
        '/',
        '/news',
        '/news/first',
        '/news/first/_payload.json',
        '/only-2',
        '/only-2/_payload.json',
        '/media/logo.svg',
        '/media/report.pdf',
        '/_assets/builds/latest.json',
        '/_assets/builds/meta/build-2.json',
      ];
      const seen = await Promise.all(paths.map(visit));
      const before = await snapshot('sharded');

      const shard = await publishDir(await shardOf(2), 'sharded');
      expect(shard.uploaded).toBeGreaterThan(0);
      expect(await Promise.all(paths.map(visit))).toEqual(seen);
      const after = await snapshot('sharded');
      // Every object there before is as it was; new ones are the shard's record, the large file's staged copy and hashed assets no page names yet.
      for (const [key, etag] of Object.entries(before)) expect(after[key], key).toBe(etag);
      const added = Object.keys(after).filter((key) => !(key in before));
      expect(added.filter((key) => !/^_assets\/[a-z-]+-v2\.(js|css)$/.test(key)).sort()).toEqual([
        '_assets/builds/pending/build-2_shard-1-of-2.json',
        '_assets/builds/staged/build-2/media/report.pdf',
      ]);

      // The merged build's publish copies the staged file into place with the assets, uploads the rest, then switches latest.json.
      const requestsBefore = s3.requests.length;
      const merged = await publishDir(two, 'sharded');
      expect(merged.actions.filter((a) => a.kind === 'upload' && a.from !== undefined)).toEqual([
        expect.objectContaining({ key: 'media/report.pdf', stage: 'assets', from: '_assets/builds/staged/build-2/media/report.pdf' }),
      ]);
      const requests = s3.requests.slice(requestsBefore);
      const latestPut = requests.findIndex((r) => r.method === 'PUT' && r.key === 'sharded/_assets/builds/latest.json');
      expect(requests.findIndex((r) => r.method === 'DELETE')).toBeGreaterThan(latestPut);
      expect(await visit('/media/report.pdf')).toEqual({ status: 200, body: report(2).toString('base64') });
      expect(JSON.parse(Buffer.from((await visit('/_assets/builds/latest.json')).body, 'base64').toString())).toMatchObject({
        id: 'build-2',
      });

      // The bucket ends as a publish without shards leaves it: staged copy and the shard's record gone, headers the build's own.
      await publishDir(one, 'unsharded');
      await publishDir(two, 'unsharded');
      // (Build records are signed for their prefix, so only their keys compare.)
      const comparable = async (prefix: string): Promise<Record<string, string>> =>
        Object.fromEntries(
          Object.entries(await snapshot(prefix)).map(([key, etag]) => [key, key.startsWith('_assets/builds/files/') ? 'signed' : etag]),
        );
      expect(await comparable('sharded')).toEqual(await comparable('unsharded'));
      const headers = async (key: string): Promise<string> => {
        const answer = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
        await answer.Body?.transformToString();
        return `${answer.ContentType} | ${answer.CacheControl} | ${answer.ContentDisposition ?? ''} | ${answer.Metadata?.sha256}`;
      };
      for (const key of ['index.html', 'media/report.pdf'])
        expect(await headers(`sharded/${key}`), key).toBe(await headers(`unsharded/${key}`));
    } finally {
      await site.close();
    }
  });

  it('never copies a staged object its signed record does not vouch for', async () => {
    await publishDir(await fullBuild(1), 'swapped');
    await publishDir(await shardOf(3), 'swapped');
    // Someone replaces the staged file with bytes (and headers) of their own before the merge.
    await client.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: 'swapped/_assets/builds/staged/build-3/media/report.pdf',
        Body: Buffer.alloc(300 * 1024, 9),
        ContentType: 'text/html',
      }),
    );
    const merged = await publishDir(await fullBuild(3), 'swapped');
    expect(merged.actions.find((a) => a.kind === 'upload' && a.key === 'media/report.pdf')).not.toHaveProperty('from');
    const live = await getObject(client, s3.bucket, 'swapped/media/report.pdf');
    expect(live!.body.equals(report(3))).toBe(true);
    expect(live!.contentType).toBe('application/pdf');
  });

  it('uploads the file when the store answers a copy without an MD5 ETag', async () => {
    await publishDir(await fullBuild(1), 'no-etag');
    await publishDir(await shardOf(4), 'no-etag');
    // Someone swaps the staged file after the listing; the store copies those bytes and answers without an ETag.
    const real = createS3Store(config(4, 'no-etag'));
    const store = {
      ...real,
      async copy(...args: Parameters<typeof real.copy>): Promise<string> {
        await client.send(
          new PutObjectCommand({
            Bucket: s3.bucket,
            Key: 'no-etag/_assets/builds/staged/build-4/media/report.pdf',
            Body: Buffer.alloc(300 * 1024, 9),
          }),
        );
        await real.copy(args[0], args[1], (await real.list()).get(args[0])!.etag, args[3]);
        return '';
      },
    };
    try {
      const merged = await publish(config(1, 'no-etag', { outDir: await fullBuild(4), keepBuilds: 2 }), {
        logger: createMemoryLogger(),
        store,
      });
      expect(merged.actions.find((a) => a.kind === 'upload' && a.key === 'media/report.pdf')).not.toHaveProperty('from');
      expect((await getObject(client, s3.bucket, 'no-etag/media/report.pdf'))!.body.equals(report(4))).toBe(true);
    } finally {
      real.close();
    }
  });
});
