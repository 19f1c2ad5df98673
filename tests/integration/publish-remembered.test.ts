import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish, resolvePublishConfig } from '../../cli/publish/index.ts';
import type { FileHashes } from '../../cli/publish/local.ts';
import { createRememberingStore, type RememberingStore } from '../../cli/publish/remembering-store.ts';
import { recordDigest, type CheckedRecords } from '../../cli/publish/remote-builds.ts';
import { createS3Store, MAX_TEXT_BYTES } from '../../cli/publish/s3-store.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { getObject, S3_ENV, s3Client, startS3Server, writeFakeBuild, type S3TestServer } from '../helpers/s3-server.ts';

/**
 * `site live` publishes the same folder to the same bucket again and again, through a store that
 * lists the bucket once and then keeps the listing itself (publish/remembering-store.ts), and with the
 * folder's hashes kept between publishes (publish/local.ts FileHashes). Each publish must leave the
 * bucket exactly as a publish that lists and hashes everything would: after each, a dry run with a
 * fresh store finds nothing to upload.
 */

let s3: S3TestServer;
let client: S3Client;
let dir: string;
let store: RememberingStore;
const hashes: FileHashes = new Map();
const checkedRecords: CheckedRecords = new Map();

const config = (extra: { dryRun?: boolean; allowForeignObjects?: boolean } = {}) =>
  resolvePublishConfig(
    { outDir: dir, bucket: s3.bucket, prefix: 'www', endpointUrl: s3.endpoint, ...extra },
    { ...process.env, ...S3_ENV },
  );
const lists = (): number => s3.requests.filter((r) => r.method === 'GET' && r.key === '').length;
const remembered = () => publish(config(), { logger: createMemoryLogger(), store, hashes, checkedRecords });
/** What a publish that lists and hashes everything would still upload. */
const stillToUpload = async (): Promise<string[]> =>
  (await publish(config({ dryRun: true }), { logger: createMemoryLogger() })).actions.filter((a) => a.kind === 'upload').map((a) => a.key);

beforeAll(async () => {
  Object.assign(process.env, S3_ENV);
  s3 = await startS3Server();
  client = s3Client(s3.endpoint);
  dir = join(await mkdtemp(join(tmpdir(), 'site-remembered-')), 'site');
  store = createRememberingStore(createS3Store(config()));
});

afterAll(async () => {
  store?.close();
  client?.destroy();
  await s3?.stop();
});

describe('publishing again and again through a remembering store', () => {
  it('lists the bucket once, then publishes each new build without listing, leaving the bucket as a full publish would', async () => {
    await writeFakeBuild(dir, 1);
    await remembered();
    expect(lists()).toBe(1);
    for (const n of [2, 3, 4]) {
      await rm(dir, { recursive: true, force: true });
      await writeFakeBuild(dir, n);
      const before = lists();
      const result = await remembered();
      expect(lists() - before, `build ${n}`).toBe(0);
      expect(result.uploaded).toBeGreaterThan(0);
      expect(await stillToUpload(), `build ${n}`).toEqual([]);
    }
    // Retention ran on the remembered listing too: build 1's own page is gone, as with a listed publish.
    expect(await getObject(client, s3.bucket, 'www/only-1/index.html')).toBeNull();
    expect(await getObject(client, s3.bucket, 'www/only-4/index.html')).not.toBeNull();
    // Build 1 again: its files were deleted, and the store knows it, so they go up again.
    await rm(dir, { recursive: true, force: true });
    await writeFakeBuild(dir, 1);
    const again = await remembered();
    expect(again.actions.filter((a) => a.kind === 'upload').map((a) => a.key)).toContain('only-1/index.html');
    expect(await stillToUpload()).toEqual([]);
    await rm(dir, { recursive: true, force: true });
    await writeFakeBuild(dir, 4);
    await remembered();
  });

  it('uploads a file changed in place, same size, though its hash was kept', async () => {
    const page = join(dir, 'news/first/index.html');
    const before = await readFile(page, 'utf8');
    const changed = before.replace('of build-4', 'of build-X');
    expect(changed.length).toBe(before.length);
    await writeFile(page, changed);
    const result = await remembered();
    expect(result.actions.filter((a) => a.kind === 'upload').map((a) => a.key)).toContain('news/first/index.html');
    expect((await getObject(client, s3.bucket, 'www/news/first/index.html'))?.body.toString()).toBe(changed);
    expect(await stillToUpload()).toEqual([]);
  });

  it('lists again once something else wrote latest.json (a rollback by hand, another publisher)', async () => {
    await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: 'www/_assets/builds/latest.json', Body: '{"id":"build-3","timestamp":3000}' }),
    );
    const before = lists();
    await remembered();
    expect(lists() - before).toBe(1);
    expect(await stillToUpload()).toEqual([]);
  });

  it('lists again when latest.json holds other bytes, though stored with the hash publish wrote for its own', async () => {
    const key = 'www/_assets/builds/latest.json';
    const own = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: '{"id":"build-2","timestamp":2000}', Metadata: own.Metadata }),
    );
    const before = lists();
    await remembered();
    expect(lists() - before).toBe(1);
    expect(await stillToUpload()).toEqual([]);
  });

  it('checks a record again when its bytes changed under the same key, though an earlier publish found it good', async () => {
    // A plain store, which reads every record from the bucket, with the checks an earlier publish kept.
    const checked: CheckedRecords = new Map();
    // One configuration, as site live has: its signing key is the one the kept checks were made with.
    const once = config();
    const plain = (logger = createMemoryLogger()) => publish(once, { logger, hashes, checkedRecords: checked });
    await plain();
    const [key] = [...checked].find(([, record]) => 'manifest' in record.read && record.read.manifest.id === 'build-1')!;
    const genuine = (await getObject(client, s3.bucket, `www/${key}`))!.body.toString();
    // Someone with put rights adds a file to the record and keeps its MAC: other bytes, the same key.
    const forged = genuine.replace('"files":{', '"files":{"planted/by-someone.html":{"size":1,"md5":"00","sha256":"00"},');
    expect(forged).not.toBe(genuine);
    const put = (body: string) => client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `www/${key}`, Body: body }));
    await put(forged);
    // Not taken: the build it names has no record publish can prove it wrote, so its files are no build's, and publish stops.
    const logger = createMemoryLogger();
    await expect(plain(logger)).rejects.toThrow(/no build published there lists/);
    expect(logger.lines.some((line) => line.includes(`ignoring ${JSON.stringify(key)}`))).toBe(true);
    expect(checked.get(key)?.read).toEqual({ problem: 'forged' });
    await put(genuine);
    await plain();
    expect(checked.get(key)?.read).toHaveProperty('manifest');
  });

  it('knows the record it wrote by the digest of the bytes the bucket holds, so the next publish reads it without checking it again', async () => {
    await rm(dir, { recursive: true, force: true });
    await writeFakeBuild(dir, 7);
    const checked: CheckedRecords = new Map();
    const { actions } = await publish(config(), { logger: createMemoryLogger(), hashes, checkedRecords: checked });
    const written = actions.find((action) => action.kind === 'upload' && action.key.startsWith('_assets/builds/files/'))!.key;
    const text = (await getObject(client, s3.bucket, `www/${written}`))!.body.toString();
    expect(checked.get(written)?.digest).toBe(recordDigest(text));
  });

  it('ignores a record larger than any publish writes, naming its key, without reading it: publishing goes on', async () => {
    const key = '_assets/builds/files/planted.1.json';
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `www/${key}`, Body: Buffer.alloc(MAX_TEXT_BYTES + 1, 32) }));
    // As at the hourly listing, or any listing after something else wrote the bucket.
    store.forget();
    const used = process.memoryUsage().rss;
    const logger = createMemoryLogger();
    // Ignored as any record publish cannot prove its own: an object no build lists, which stops publish as
    // any planted record does (named in the refusal) and is left alone under --allow-foreign-objects.
    await expect(publish(config(), { logger, store, hashes })).rejects.toThrow(new RegExp(`no build published there lists \\(${key}\\)`));
    expect(logger.lines.some((line) => line.includes(`ignoring ${JSON.stringify(key)}: larger than any build record`))).toBe(true);
    await publish(config({ allowForeignObjects: true }), { logger: createMemoryLogger(), store, hashes });
    // Not read into memory: refused on its declared size.
    expect(process.memoryUsage().rss - used).toBeLessThan(MAX_TEXT_BYTES / 2);
    await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `www/${key}` }));
    await remembered();
    expect(await stillToUpload()).toEqual([]);
  }, 60_000);

  it('lists again after a request failed, which may or may not have landed', async () => {
    await rm(dir, { recursive: true, force: true });
    await writeFakeBuild(dir, 5);
    s3.stopAfterPuts(2);
    await expect(remembered()).rejects.toThrow();
    await s3.stopped;
    s3 = await startS3Server({ bucket: s3.bucket, directory: s3.directory, port: s3.port });
    const before = lists();
    await remembered();
    expect(lists() - before).toBe(1);
    expect(await stillToUpload()).toEqual([]);
  });
});
