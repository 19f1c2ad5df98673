import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish, resolvePublishConfig, type ObjectStore, type PublishOptions } from '../../cli/publish/index.ts';
import { readBucketBuilds, recordReadingOf } from '../../cli/publish/remote-builds.ts';
import { foreignKeys, ownedKeys } from '../../cli/publish/retention.ts';
import { createS3Store } from '../../cli/publish/s3-store.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { bucketSnapshot, S3_ENV, s3Client, startS3Server, writeFakeBuild, type S3TestServer } from '../helpers/s3-server.ts';

/**
 * Publishes stopped at a chosen write, and publishes that overlap: whatever a run wrote stays listed by a
 * signed record of publish's own (else the next publish takes it for a foreign object and is refused),
 * and a retry leaves no pending record behind. The pending record lists only what its run writes
 * (docs/publish.md, Retention), so these are what it must still guarantee.
 */
describe('site publish, stopped and overlapping', () => {
  let s3: S3TestServer;
  let root: string;
  const dirs: Record<number, string> = {};

  beforeAll(async () => {
    Object.assign(process.env, S3_ENV);
    s3 = await startS3Server();
    root = await mkdtemp(join(tmpdir(), 'site-publish-races-'));
    for (const n of [1, 2, 3]) await writeFakeBuild((dirs[n] = join(root, `build-${n}`)), n);
    // Build 4 holds build 2's files (its hashed assets among them) under an id of its own.
    const four = (dirs[4] = join(root, 'build-4'));
    await writeFakeBuild(four, 2);
    const meta = JSON.parse(await readFile(join(four, '_assets/builds/meta/build-2.json'), 'utf8')) as Record<string, unknown>;
    await rm(join(four, '_assets/builds/meta/build-2.json'));
    await writeFile(join(four, '_assets/builds/meta/build-4.json'), JSON.stringify({ ...meta, id: 'build-4', timestamp: 4000 }));
    await writeFile(join(four, '_assets/builds/latest.json'), JSON.stringify({ id: 'build-4', timestamp: 4000 }));
    // Build 2 again after an edit: the same id and keys, one page's bytes changed (as site live publishes an edit).
    const edited = (dirs[5] = join(root, 'build-2-edited'));
    await writeFakeBuild(edited, 2);
    await writeFile(join(edited, 'news/index.html'), '<!doctype html><title>/news</title><h1>/news, edited</h1>');
  });
  afterAll(async () => {
    await s3?.stop();
    await rm(root, { recursive: true, force: true });
  });

  /** Publishes build `n`; `beforeWrite` is told of each put, copy and delete (1, 2, …) before it is sent, and may hold or fail it. */
  const run = async (
    n: number,
    prefix: string,
    hooks: { afterList?: () => void; beforeWrite?: (write: number, key: string) => Promise<void> | void } = {},
    options: PublishOptions = {},
  ): Promise<'published' | string> => {
    const config = resolvePublishConfig({
      outDir: dirs[n],
      bucket: s3.bucket,
      prefix,
      endpointUrl: s3.endpoint,
      concurrency: 1,
      ...options,
    });
    const inner = createS3Store(config);
    let writes = 0;
    const before = async (key: string): Promise<void> => hooks.beforeWrite?.(++writes, key);
    const store: ObjectStore = {
      ...inner,
      location: inner.location,
      list: async () => {
        const listing = await inner.list();
        hooks.afterList?.();
        return listing;
      },
      put: async (key, body, headers) => (await before(key), inner.put(key, body, headers)),
      copy: async (from, to, etag, headers) => (await before(to), inner.copy(from, to, etag, headers)),
      delete: async (key) => (await before(key), inner.delete(key)),
    };
    try {
      await publish(config, { logger: createMemoryLogger(), store });
      return 'published';
    } catch (error) {
      return (error as Error).message;
    } finally {
      inner.close();
    }
  };

  /** Fails the write from the `at`-th on. */
  const stopAt = (write: number, at: number, message: string): void => {
    if (write >= at) throw new Error(message);
  };

  it('three at once: a file one run uploads and another takes as unchanged stays listed when the third removes the first one’s pending record and the other two die', async () => {
    const prefix = 'three';
    expect(await run(1, prefix)).toBe('published');
    const gate = (): { opened: Promise<void>; open: () => void } => {
      const { promise, resolve } = Promise.withResolvers<void>();
      return { opened: promise, open: () => resolve() };
    };
    const pendingPut = gate();
    const mayUpload = gate();
    const uploaded = gate();
    const listed = gate();
    let uploadedByTwo = '';
    // Build 2 puts its pending record, uploads one file once build 3 has listed the bucket, and dies.
    const two = run(2, prefix, {
      beforeWrite: async (write, key) => {
        if (write === 1) return pendingPut.open();
        if (write === 2) {
          await mayUpload.opened;
          uploadedByTwo = key;
          return;
        }
        uploaded.open();
        throw new Error('build 2 stopped');
      },
    });
    await pendingPut.opened;
    // Build 3 (--keep-builds 1) lists the bucket with build 2's pending record in it, and deletes that record once live.
    const three = run(3, prefix, { afterList: () => listed.open() }, { keepBuilds: 1 });
    await listed.opened;
    mayUpload.open();
    await uploaded.opened;
    // Build 4, with build 2's files, finds the one build 2 uploaded unchanged, and dies after its pending record.
    expect(await run(4, prefix, { beforeWrite: (write) => stopAt(write, 2, 'build 4 stopped') })).toMatch(/build 4 stopped/);
    expect(await two).toMatch(/build 2 stopped/);
    expect(await three).toBe('published');
    expect(uploadedByTwo).not.toBe('');

    const config = resolvePublishConfig({ outDir: dirs[1], bucket: s3.bucket, prefix, endpointUrl: s3.endpoint });
    const store = createS3Store(config);
    const remote = await store.list();
    const bucket = await readBucketBuilds({ store, remote, logger: createMemoryLogger(), ...recordReadingOf(config) });
    store.close();
    expect(foreignKeys(remote.keys(), ownedKeys(bucket.manifests, bucket.pending, bucket.recordKeys.keys()))).toEqual([]);
    expect(await run(1, prefix)).toBe('published');
  });

  it('a retry, or the next edit of the same build, removes a stopped attempt’s pending record, even with --max-deletes 0', async () => {
    const prefix = 'retried';
    const options = { keepBuilds: 2, maxDeletes: 0 };
    expect(await run(1, prefix, {}, options)).toBe('published');
    expect(await run(2, prefix, { beforeWrite: (write) => stopAt(write, 3, 'stopped') }, options)).toMatch(/stopped/);
    const client = s3Client(s3.endpoint);
    const pending = async (): Promise<string[]> =>
      Object.keys(await bucketSnapshot(client, s3.bucket, prefix)).filter((key) => key.includes('/builds/pending/'));
    expect(await pending()).toHaveLength(1);
    expect(await run(2, prefix, {}, options)).toBe('published');
    expect(await pending()).toEqual([]);
    // Stopped again, and then the edited build published: its pending record differs from the stopped one's.
    expect(await run(5, prefix, { beforeWrite: (write) => stopAt(write, 3, 'stopped') }, options)).toMatch(/stopped/);
    const stopped = await pending();
    expect(stopped).toHaveLength(1);
    await writeFile(join(dirs[5]!, 'news/index.html'), '<!doctype html><title>/news</title><h1>/news, edited again</h1>');
    const dry = await publish(
      resolvePublishConfig({ outDir: dirs[5], bucket: s3.bucket, prefix, endpointUrl: s3.endpoint, ...options, dryRun: true }),
      { logger: createMemoryLogger() },
    );
    expect(dry.actions.filter((a) => a.kind === 'delete').map((a) => a.key)).toEqual(stopped);
    expect(await run(5, prefix, {}, options)).toBe('published');
    expect(await pending()).toEqual([]);
    client.destroy();
  });
});
