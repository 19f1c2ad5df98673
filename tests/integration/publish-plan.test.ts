import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BuildErrors, createBuildError, isBuildError } from '../../cli/errors/errors.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { publish, resolvePublishConfig, type ObjectStore } from '../../cli/publish/index.ts';
import { memoryFile } from '../../cli/publish/local.ts';
import {
  createManifest,
  mergeById,
  readSignedRecord,
  serializeManifest,
  signedRecord,
  type FileManifest,
} from '../../cli/publish/manifest.ts';
import { createRecordAuth } from '../../cli/publish/record-auth.ts';
import { compareWithRemote, planUploads } from '../../cli/publish/plan.ts';
import { CACHE_IMMUTABLE, CACHE_MEDIA, CACHE_REVALIDATE, policyFor } from '../../cli/publish/policy.ts';
import { foreignInTheWay, foreignKeys, ownedKeys, planRetention } from '../../cli/publish/retention.ts';
import { createS3Store } from '../../cli/publish/s3-store.ts';
import { toStorageError } from '../../cli/publish/storage-errors.ts';
import {
  bucketSnapshot,
  S3_ENV,
  s3Client,
  startS3Server,
  TEST_PUBLISH_KEY,
  writeFakeBuild,
  type S3TestServer,
} from '../helpers/s3-server.ts';

const entry = (text: string): { size: number; md5: string; sha256: string } => ({
  size: Buffer.byteLength(text),
  md5: createHash('md5').update(text).digest('hex'),
  sha256: createHash('sha256').update(text).digest('hex'),
});
const manifest = (id: string, timestamp: number, keys: string[]): FileManifest =>
  createManifest(
    id,
    timestamp,
    keys.map((k) => [k, entry(k)]),
  );

describe('publish planning', () => {
  it('files an object by its key: stage, Content-Type and Cache-Control', () => {
    expect(policyFor('_assets/entry-abc123.js')).toEqual({
      stage: 'assets',
      contentType: 'text/javascript; charset=utf-8',
      cacheControl: CACHE_IMMUTABLE,
    });
    expect(policyFor('media/news/photo.jpg')).toEqual({ stage: 'assets', contentType: 'image/jpeg', cacheControl: CACHE_MEDIA });
    expect(policyFor('media/_img/0123456789abcdef0123/640.webp')).toEqual({
      stage: 'assets',
      contentType: 'image/webp',
      cacheControl: CACHE_IMMUTABLE,
    });
    expect(policyFor('news/_payload.json')).toMatchObject({ stage: 'payloads', cacheControl: CACHE_REVALIDATE });
    expect(policyFor('_payload.json')).toMatchObject({ stage: 'payloads' });
    expect(policyFor('news/index.html')).toMatchObject({ stage: 'pages', cacheControl: CACHE_REVALIDATE });
    expect(policyFor('events.ics')).toEqual({
      stage: 'pages',
      contentType: 'text/calendar; charset=utf-8',
      cacheControl: CACHE_REVALIDATE,
    });
    expect(policyFor('_assets/builds/meta/abc.json')).toMatchObject({ stage: 'meta', cacheControl: CACHE_IMMUTABLE });
    expect(policyFor('_assets/builds/files/abc.json')).toMatchObject({ stage: 'meta', cacheControl: CACHE_IMMUTABLE });
    expect(policyFor('_assets/builds/latest.json')).toEqual({
      stage: 'latest',
      contentType: 'application/json; charset=utf-8',
      cacheControl: CACHE_REVALIDATE,
    });
    // The search index: chunks named by their content with the assets, the entry that names them with the pages.
    expect(policyFor('_search/fragment/en_5c764b9.pf_fragment')).toEqual({
      stage: 'assets',
      contentType: 'application/octet-stream',
      cacheControl: CACHE_IMMUTABLE,
    });
    expect(policyFor('_search/index/en_e5beff9.pf_index')).toMatchObject({ stage: 'assets', cacheControl: CACHE_IMMUTABLE });
    expect(policyFor('_search/pagefind.en_1b2c7c69c5.pf_meta')).toMatchObject({ stage: 'assets', cacheControl: CACHE_IMMUTABLE });
    expect(policyFor('_search/pagefind.js')).toEqual({
      stage: 'assets',
      contentType: 'text/javascript; charset=utf-8',
      cacheControl: CACHE_REVALIDATE,
    });
    expect(policyFor('_search/wasm.en.pagefind')).toMatchObject({ stage: 'assets', cacheControl: CACHE_REVALIDATE });
    expect(policyFor('_search/pagefind-entry.json')).toEqual({
      stage: 'pages',
      contentType: 'application/json; charset=utf-8',
      cacheControl: CACHE_REVALIDATE,
    });
    // A partition's files as partition 0's; the list of partitions after every entry it names.
    expect(policyFor('_search/part-3/fragment/en_5c764b9.pf_fragment')).toMatchObject({ stage: 'assets', cacheControl: CACHE_IMMUTABLE });
    expect(policyFor('_search/part-3/pagefind.en_1b2c7c69c5.pf_meta')).toMatchObject({ stage: 'assets', cacheControl: CACHE_IMMUTABLE });
    expect(policyFor('_search/part-3/pagefind-entry.json')).toMatchObject({ stage: 'pages', cacheControl: CACHE_REVALIDATE });
    expect(policyFor('_search/parts.json')).toMatchObject({ stage: 'meta', cacheControl: CACHE_REVALIDATE });
  });

  it('skips a file only on proof that the bucket holds its bytes', () => {
    const local = entry('<h1>hello</h1>');
    expect(compareWithRemote(local, undefined)).toBe('new');
    expect(compareWithRemote(local, { key: 'k', size: local.size, etag: local.md5 })).toBe('unchanged');
    expect(compareWithRemote(local, { key: 'k', size: local.size, etag: local.md5.toUpperCase() })).toBe('unchanged');
    expect(compareWithRemote(local, { key: 'k', size: local.size + 1, etag: local.md5 })).toBe('changed');
    expect(compareWithRemote(local, { key: 'k', size: local.size, etag: 'f'.repeat(32) })).toBe('changed');
    // A multipart ETag is not an MD5 of the bytes: the stored SHA-256 decides.
    expect(compareWithRemote(local, { key: 'k', size: local.size, etag: `${'a'.repeat(32)}-2` })).toBe('check');
  });

  it('orders uploads by stage, then key, and asks for a stored hash only when the listing cannot tell', async () => {
    const files = [
      '_assets/builds/latest.json',
      'news/index.html',
      '_assets/builds/meta/b.json',
      'news/_payload.json',
      'media/a.png',
      '_assets/z.js',
    ].map((k) => memoryFile(k, Buffer.from(k)));
    const asked: string[] = [];
    const remote = new Map([['media/a.png', { key: 'media/a.png', size: files[4]!.size, etag: 'x-1' }]]);
    const plan = await planUploads(files, remote, async (key) => (asked.push(key), files[4]!.sha256), 4);
    expect(plan.uploads.map((u) => u.file.key)).toEqual([
      '_assets/z.js',
      'news/_payload.json',
      'news/index.html',
      '_assets/builds/meta/b.json',
      '_assets/builds/latest.json',
    ]);
    expect(plan.unchanged.map((f) => f.key)).toEqual(['media/a.png']);
    expect(asked).toEqual(['media/a.png']);
  });

  it('keeps the live build and the newest others by timestamp, never deletes latest.json, a kept record or a key no record lists, and deletes records last', () => {
    const stored = [
      manifest('old', 1, ['a.js', 'shared.js']),
      manifest('mid', 2, ['b.js', 'shared.js']),
      manifest('new', 3, ['c.js']),
      manifest('tie', 2, ['t.js']),
    ];
    const live = manifest('live', 0, ['l.js', 'shared.js']);
    const stopped = manifest('stopped', 4, ['s.js', 'shared.js']);
    const remote = [
      'a.js',
      'b.js',
      'c.js',
      't.js',
      'l.js',
      's.js',
      'shared.js',
      'stray.txt',
      '_assets/builds/latest.json',
      '_assets/builds/pending/stopped.json',
      ...stored.map((m) => `_assets/builds/files/${m.id}.json`),
    ];
    // The records as the bucket holds them (live's own is written by this run), by the build id they name.
    const recordKeys = new Map<string, string>([
      ['_assets/builds/pending/stopped.json', 'stopped'],
      ...stored.map((m) => [`_assets/builds/files/${m.id}.json`, m.id] as [string, string]),
    ]);
    const liveRecord = '_assets/builds/files/live.0123456789abcdef.json';
    const plan = planRetention({
      live,
      stored,
      pending: [stopped],
      recordKeys,
      liveRecord,
      keepBuilds: 3,
      remoteKeys: remote,
      maxDeletes: 100,
    });
    expect(plan.kept).toEqual(['live', 'new', 'tie']);
    expect(plan.dropped).toEqual(['mid', 'old']);
    expect(plan.deletes).toEqual(['a.js', 'b.js', 's.js']);
    expect(plan.records).toEqual(['_assets/builds/files/mid.json', '_assets/builds/files/old.json', '_assets/builds/pending/stopped.json']);
    // stray.txt is listed by no record: it is not publish's to delete.
    expect(foreignKeys(remote, ownedKeys([live, ...stored], [stopped], recordKeys.keys()))).toEqual(['stray.txt']);
    // …nor to write over: a build that writes stray.txt is refused, whatever the flag says.
    expect(foreignInTheWay(['backups/db.sql', 'stray.txt'], ['index.html', 'stray.txt'])).toEqual(['stray.txt']);
    const capped = planRetention({
      live,
      stored,
      pending: [stopped],
      recordKeys,
      liveRecord,
      keepBuilds: 1,
      remoteKeys: remote,
      maxDeletes: 2,
    });
    expect(capped.deletes).toHaveLength(2);
    // A record never goes while a file it lists waits for a later run.
    expect(capped.records).toEqual([]);
    expect(capped.deferred).toBe(plan.deletes.length + 2 + plan.records.length + 2 - 2);
  });

  it('round-trips a signed file manifest and trusts no other JSON, no unsigned, forged or moved record as one', () => {
    const auth = createRecordAuth(Buffer.from('k'.repeat(32)), { bucket: 'site', prefix: 'www' });
    const m = manifest('abc', 5, ['b', 'a']);
    expect(Object.keys(m.files)).toEqual(['a', 'b']);
    const key = '_assets/builds/files/abc.json';
    const text = signedRecord(m, key, auth);
    expect(readSignedRecord(text, key, auth)).toEqual({ manifest: m });
    for (const bad of [
      'nope',
      '[]',
      '{"v":1,"id":"../x","timestamp":1,"files":{}}',
      '{"v":1,"id":"a","timestamp":1,"files":{"k":{"size":1}}}',
    ])
      expect(readSignedRecord(bad, key, auth)).toEqual({ problem: 'malformed' });
    expect(readSignedRecord(serializeManifest(m), key, auth)).toEqual({ problem: 'unsigned' });
    // Another timestamp, another file, the same MAC: forged.
    expect(readSignedRecord(text.replace('"timestamp":5', '"timestamp":9'), key, auth)).toEqual({ problem: 'forged' });
    expect(readSignedRecord(text.replace('"b":', '"c":'), key, auth)).toEqual({ problem: 'forged' });
    // The same record at another key (a pending record's place), in another prefix or bucket, or checked with another key: forged.
    expect(readSignedRecord(text, '_assets/builds/pending/abc.json', auth)).toEqual({ problem: 'forged' });
    expect(readSignedRecord(text, key, createRecordAuth(Buffer.from('k'.repeat(32)), { bucket: 'site', prefix: 'staging' }))).toEqual({
      problem: 'forged',
    });
    expect(readSignedRecord(text, key, createRecordAuth(Buffer.from('k'.repeat(32)), { bucket: 'other', prefix: 'www' }))).toEqual({
      problem: 'forged',
    });
    expect(readSignedRecord(text, key, createRecordAuth(Buffer.from('j'.repeat(32)), { bucket: 'site', prefix: 'www' }))).toEqual({
      problem: 'forged',
    });
  });

  it('makes records read-only: made, read back or merged by build id, none can be changed after its text and version are cached', () => {
    const auth = createRecordAuth(Buffer.from('k'.repeat(32)), { bucket: 'site', prefix: 'www' });
    const made = manifest('abc', 5, ['a', 'b']);
    const key = '_assets/builds/files/abc.json';
    const read = readSignedRecord(signedRecord(made, key, auth), key, auth);
    const later = manifest('abc', 6, ['c']);
    const merged = mergeById([made, later, manifest('def', 1, ['d'])]);
    for (const record of [made, 'manifest' in read ? read.manifest : null, ...merged]) {
      expect(Object.isFrozen(record) && Object.isFrozen(record!.files), JSON.stringify(record)).toBe(true);
      for (const entry of Object.values(record!.files)) expect(Object.isFrozen(entry)).toBe(true);
      expect(() => ((record!.files as Record<string, unknown>).x = {})).toThrow(TypeError);
    }
    expect(Object.keys(merged[0]!.files)).toEqual(['a', 'b', 'c']);
  });

  it('parses a large record only once its MAC verifies: a planted one costs no parse, a genuine one is read as before', () => {
    const auth = createRecordAuth(Buffer.from('k'.repeat(32)), { bucket: 'site', prefix: 'www' });
    const key = '_assets/builds/files/big.json';
    // About 25,000 files: as large as a 10,000-page site's record, past the size small records are parsed at.
    const big = manifest(
      'big',
      7,
      Array.from({ length: 25_000 }, (_, i) => `page/${i}/index.html`),
    );
    const text = signedRecord(big, key, auth);
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      // JSON of small objects takes some twenty times its size once parsed: none of these is parsed.
      const planted = `[${'{},'.repeat(800_000)}{}]`;
      expect(readSignedRecord(planted, key, auth)).toEqual({ problem: 'unsigned' });
      expect(readSignedRecord(serializeManifest(big), key, auth)).toEqual({ problem: 'unsigned' });
      expect(readSignedRecord(`${planted.slice(0, -1)},"mac":"${'0'.repeat(64)}"}`, key, auth)).toEqual({ problem: 'forged' });
      expect(readSignedRecord(text.replace('"timestamp":7', '"timestamp":9'), key, auth)).toEqual({ problem: 'forged' });
      expect(readSignedRecord(text, '_assets/builds/pending/big.json', auth)).toEqual({ problem: 'forged' });
      expect(parse).not.toHaveBeenCalled();
      expect(readSignedRecord(text, key, auth)).toEqual({ manifest: big });
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('resolves options once: prefix without slashes, endpoint and region from the AWS environment, usage errors with exit 2', () => {
    const config = resolvePublishConfig(
      { bucket: 'site', prefix: '/www/en/' },
      { AWS_ENDPOINT_URL: 'http://127.0.0.1:9000/', AWS_DEFAULT_REGION: 'eu-north-1', SITE_PUBLISH_KEY: TEST_PUBLISH_KEY },
      '/tmp',
    );
    expect(config).toMatchObject({
      bucket: 'site',
      prefix: 'www/en',
      endpointUrl: 'http://127.0.0.1:9000',
      region: 'eu-north-1',
      outDir: '/tmp/dist',
      keepBuilds: 3,
      maxDeletes: 256,
      concurrency: 8,
      dryRun: false,
      rollback: null,
    });
    expect(Object.isFrozen(config)).toBe(true);
    for (const bad of [
      { bucket: 'A_B' },
      { bucket: 'site', prefix: 'a/../b' },
      { bucket: 'site', endpointUrl: 'ftp://x' },
      { bucket: 'site', concurrency: '0' },
    ]) {
      const error = (() => {
        try {
          resolvePublishConfig(bad, { SITE_PUBLISH_KEY: TEST_PUBLISH_KEY });
        } catch (e) {
          return e;
        }
      })();
      expect(isBuildError(error) && error.code, JSON.stringify(bad)).toBe('InvalidOption');
      expect(isBuildError(error) && error.exitCode, JSON.stringify(bad)).toBe(2);
    }
  });

  it('refuses to run without SITE_PUBLISH_KEY, or with a short one, naming the variable and never its value', () => {
    const errorFor = (env: Record<string, string>): unknown => {
      try {
        resolvePublishConfig({ bucket: 'site' }, env);
      } catch (e) {
        return e;
      }
      return null;
    };
    for (const env of [{}, { SITE_PUBLISH_KEY: '  ' }, { SITE_PUBLISH_KEY: 'short-secret-value' }] as Record<string, string>[]) {
      const error = errorFor(env);
      expect(isBuildError(error) && error.code, JSON.stringify(env)).toBe('PublishKeyMissing');
      expect(isBuildError(error) && error.exitCode).toBe(2);
      expect((error as Error).message).toContain('SITE_PUBLISH_KEY');
      expect((error as Error).message).not.toContain('short-secret-value');
      expect(isBuildError(error) && error.hint).toContain('openssl rand');
    }
    expect(errorFor({ SITE_PUBLISH_KEY: TEST_PUBLISH_KEY })).toBeNull();
    // The config holds the key out of sight: printing it shows no secret.
    expect(JSON.stringify(resolvePublishConfig({ bucket: 'site' }, { SITE_PUBLISH_KEY: TEST_PUBLISH_KEY }))).not.toContain(
      TEST_PUBLISH_KEY,
    );
  });

  it('takes the endpoint from AWS_ENDPOINT_URL_S3 before AWS_ENDPOINT_URL, and names the variable a bad value came from', () => {
    const both = {
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9001',
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9000',
      SITE_PUBLISH_KEY: TEST_PUBLISH_KEY,
    };
    expect(resolvePublishConfig({ bucket: 'site' }, both).endpointUrl).toBe('http://127.0.0.1:9001');
    expect(resolvePublishConfig({ bucket: 'site', endpointUrl: 'http://127.0.0.1:9002' }, both).endpointUrl).toBe('http://127.0.0.1:9002');
    const messageFor = (env: Record<string, string>): string => {
      try {
        resolvePublishConfig({ bucket: 'site' }, { SITE_PUBLISH_KEY: TEST_PUBLISH_KEY, ...env });
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    };
    expect(messageFor({ AWS_ENDPOINT_URL_S3: 'ftp://x', AWS_ENDPOINT_URL: 'http://127.0.0.1:9000' })).toContain('AWS_ENDPOINT_URL_S3');
    expect(messageFor({ AWS_ENDPOINT_URL: 'ftp://x' })).toMatch(/AWS_ENDPOINT_URL(?!_S3)/);
    expect(messageFor({ AWS_ENDPOINT_URL: 'ftp://x' })).not.toContain('AWS_ENDPOINT_URL_S3');
  });

  it('names a missing bucket, refused credentials, an unreachable endpoint and other failures apart', () => {
    const op = { operation: 'PutObject', key: 'www/a.js', bucket: 'site', endpoint: 'http://127.0.0.1:1' };
    const sdk = (name: string, status?: number): unknown =>
      Object.assign(new Error(`${name} happened`), { name, $metadata: { httpStatusCode: status } });
    expect(toStorageError(sdk('NoSuchBucket', 404), op).code).toBe('StorageBucketMissing');
    expect(toStorageError(sdk('InvalidAccessKeyId', 403), op).code).toBe('StorageCredentialsRefused');
    expect(toStorageError(sdk('Forbidden', 403), op).code).toBe('StorageCredentialsRefused');
    expect(toStorageError(sdk('CredentialsProviderError'), op).code).toBe('StorageCredentialsMissing');
    expect(toStorageError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), op).message).toContain(
      'ECONNREFUSED',
    );
    expect(toStorageError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), op).code).toBe('StorageUnreachable');
    const failed = toStorageError(sdk('InternalError', 500), op);
    expect(failed.code).toBe('StorageRequestFailed');
    expect(failed.message).toBe('PutObject www/a.js failed: InternalError: InternalError happened (HTTP 500).');
    const already = createBuildError(BuildErrors.OutputMissing, ['/x']);
    expect(toStorageError(already, op)).toBe(already);
  });
});

describe('publish against objects it did not write', () => {
  let s3: S3TestServer;
  let client: S3Client;
  let dirs: string[];

  beforeAll(async () => {
    Object.assign(process.env, S3_ENV);
    s3 = await startS3Server();
    client = s3Client(s3.endpoint);
    const root = await mkdtemp(join(tmpdir(), 'site-plan-'));
    dirs = [join(root, 'one'), join(root, 'two')];
    await writeFakeBuild(dirs[0]!, 1);
    await writeFakeBuild(dirs[1]!, 2);
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
  });

  const put = (key: string, body: string): Promise<unknown> =>
    client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body }));

  it('compares objects whose ETag is not an MD5 by the SHA-256 stored with them, and re-uploads those without one', async () => {
    const config = resolvePublishConfig({ outDir: dirs[0], bucket: s3.bucket, prefix: 'kms', endpointUrl: s3.endpoint });
    await publish(config, { logger: createMemoryLogger() });
    // Stores with SSE-KMS or multipart uploads report ETags that are not the MD5 of the bytes.
    const real = createS3Store(config);
    const opaque: ObjectStore = {
      ...real,
      list: async () => new Map([...(await real.list())].map(([key, o]) => [key, { ...o, etag: `${o.etag}-1` }])),
    };
    const headsBefore = s3.requests.filter((r) => r.method === 'HEAD').length;
    const same = await publish(config, { logger: createMemoryLogger(), store: opaque });
    expect(same).toMatchObject({ uploaded: 0, unchanged: 20 });
    expect(s3.requests.filter((r) => r.method === 'HEAD').length - headsBefore).toBe(20);

    await put('kms/sitemap.xml', '<?xml version="1.0"?><urlset/>');
    const again = await publish(config, { logger: createMemoryLogger(), store: opaque });
    expect(again.actions.filter((a) => a.kind === 'upload').map((a) => a.key)).toEqual(['sitemap.xml']);
    real.close();
  });

  it('never lists, writes or deletes anything outside its prefix', async () => {
    await put('site-old/index.html', 'older site');
    await put('siteextra.txt', 'beside the prefix');
    await put('other/robots.txt', 'another site');
    const run = (dir: string, allowForeignObjects = false): ReturnType<typeof publish> =>
      publish(
        resolvePublishConfig({
          outDir: dir,
          bucket: s3.bucket,
          prefix: 'site',
          endpointUrl: s3.endpoint,
          keepBuilds: 1,
          allowForeignObjects,
        }),
        { logger: createMemoryLogger() },
      );
    const from = s3.requests.length;
    await run(dirs[0]!);
    await put('site/stray.txt', 'inside the prefix, in no build');
    // An object no build lists, inside the prefix: refused, then published beside and never deleted.
    await expect(run(dirs[1]!)).rejects.toMatchObject({ code: 'StorageHoldsForeignObjects' });
    const second = await run(dirs[1]!, true);
    expect(second.actions.filter((a) => a.kind === 'delete').length).toBeGreaterThan(0);
    expect(second.actions.map((a) => a.key)).not.toContain('stray.txt');
    const writes = s3.requests.slice(from).filter((r) => r.method !== 'GET' && r.key !== 'site/stray.txt');
    expect(writes.length).toBeGreaterThan(0);
    for (const r of writes) expect(r.key, `${r.method} ${r.key}`).toMatch(/^site\//);
    const everything = Object.keys(await bucketSnapshot(client, s3.bucket));
    expect(everything).toEqual(expect.arrayContaining(['site-old/index.html', 'siteextra.txt', 'other/robots.txt', 'site/stray.txt']));
  });
});
