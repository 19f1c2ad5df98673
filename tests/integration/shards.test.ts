import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { SHARDS_DIR, type ShardManifest } from '../../cli/build/shard.ts';
import { runCli } from '../helpers/cli.ts';
import { bucketSnapshot, S3_ENV, s3Client, startS3Server } from '../helpers/s3-server.ts';
import { snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * A build split over machines (issue 22): `site build --shard i/n` on each, `site build --merge` after,
 * gives byte for byte the site one machine builds; a missing, foreign or mismatched shard writes nothing.
 */

const EPOCH = '1790000000';
let backend: ContentServer;
let root: string;
let single: Record<string, string>;
/** The GraphQL operations the backend answered, by name, since the test last emptied the list. */
const asked: string[] = [];
/** The walks of whole collections in full (bodies included) that feed one machine's item pages. */
const FULL_WALKS = ['NewsArticles', 'EventEntries', 'PublicationEntries', 'ResearchProjectEntries'];

const build = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(['build', '--endpoint', backend.url, '--no-report', '--quiet', '--cache-dir', join(root, 'cache'), ...args], {
    env: { SOURCE_DATE_EPOCH: EPOCH, ...env },
  });

const shards = async (count: number, prefix: string, env: Record<string, string | undefined> = {}): Promise<string[]> => {
  const dirs = Array.from({ length: count }, (_, i) => join(root, `${prefix}-${i + 1}`));
  const results = await Promise.all(dirs.map((dir, i) => build(['--out', dir, '--shard', `${i + 1}/${count}`], env)));
  for (const result of results) expect(result.code, result.stderr).toBe(0);
  return dirs;
};

/**
 * The shards of one build of the content, in `count` parts, each made once for the file: tests that only
 * read them share them (a merge links their files and changes none), and a test that changes one works
 * on a copy (`copyShards`). `asked` is what the backend was asked while they were made.
 */
const shared = new Map<number, Promise<{ dirs: string[]; asked: string[] }>>();
const sharedShards = (count: number): Promise<{ dirs: string[]; asked: string[] }> => {
  if (!shared.has(count)) {
    shared.set(
      count,
      (async () => {
        const from = asked.length;
        const dirs = await shards(count, `shared-${count}`);
        return { dirs, asked: asked.slice(from) };
      })(),
    );
  }
  return shared.get(count)!;
};
const copyShards = async (count: number, prefix: string): Promise<string[]> => {
  const { dirs } = await sharedShards(count);
  return Promise.all(
    dirs.map(async (dir, i) => {
      const copy = join(root, `${prefix}-${i + 1}`);
      await cp(dir, copy, { recursive: true });
      return copy;
    }),
  );
};

beforeAll(async () => {
  // A fixed clock: "upcoming events" are the same for every build of this file.
  backend = await startContentServer({
    now: () => new Date('2026-03-02T09:00:00Z'),
    onRequest: ({ operationName }) => asked.push(operationName ?? ''),
  });
  root = await mkdtemp(join(tmpdir(), 'site-shards-'));
  await seedBundle(join(root, 'cache'));
  const alone = await build(['--out', join(root, 'single')]);
  expect(alone.code, alone.stderr).toBe(0);
  // One machine walks each collection in full and asks for no item on its own.
  expect(asked).toEqual(expect.arrayContaining(FULL_WALKS));
  expect(asked.filter((name) => name.endsWith('BySlug'))).toEqual([]);
  single = await snapshotTree(join(root, 'single'));
}, 300_000);

afterAll(async () => {
  await backend?.close();
  await rm(root, { recursive: true, force: true });
});

describe('a sharded build', () => {
  it('of 3 shards run at once, merged, is byte for byte the build of one machine, and each shard renders and fetches only its share', async () => {
    const { dirs, asked } = await sharedShards(3);
    // No shard walked a collection in full: each listed what names the pages, and asked for its own items.
    expect(asked.filter((name) => FULL_WALKS.includes(name))).toEqual([]);
    expect(asked).toEqual(
      expect.arrayContaining(['NewsArticleRefs', 'NewsArticlesBySlug', 'EventsBySlug', 'PublicationsBySlug', 'ResearchProjectsBySlug']),
    );
    const shares = await Promise.all(
      dirs.map(
        async (dir, i) =>
          JSON.parse(await readFile(join(dir, `_assets/builds/shards/${i + 1}-of-3.json`), 'utf8')) as {
            pages: { inspected: { path: string } }[];
            buildId: string;
          },
      ),
    );
    const paths = shares.flatMap((s) => s.pages.map((p) => p.inspected.path));
    const total = Object.keys(single).filter((f) => f.endsWith('_payload.json')).length;
    expect(paths).toHaveLength(total);
    expect(new Set(paths).size).toBe(total);
    for (const share of shares) expect(share.pages.length).toBeGreaterThan(total / 6);
    expect(new Set(shares.map((s) => s.buildId)).size).toBe(1);
    // A shard is no site: no latest.json for a visitor to be sent to.
    for (const dir of dirs) await expect(readFile(join(dir, '_assets/builds/latest.json'))).rejects.toThrow();

    const merged = await build(['--merge', ...dirs, '--out', join(root, 'merged')]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(await snapshotTree(join(root, 'merged'))).toEqual(single);
  }, 300_000);

  it('of 1 shard fetches as one machine does (it wants every page), and merges into the same site', async () => {
    asked.length = 0;
    const dirs = await shards(1, 'one');
    expect(asked).toEqual(expect.arrayContaining(FULL_WALKS));
    expect(asked.filter((name) => name.endsWith('BySlug'))).toEqual([]);
    const merged = await build(['--merge', ...dirs, '--out', join(root, 'one-merged')]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(await snapshotTree(join(root, 'one-merged'))).toEqual(single);
  }, 300_000);

  it('is not merged with a shard missing, twice, or from another build, and the previous output keeps serving', async () => {
    const { dirs } = await sharedShards(2);
    const out = join(root, 'kept');
    expect((await build(['--merge', ...dirs, '--out', out])).code).toBe(0);
    const before = await snapshotTree(out);

    const missing = await build(['--merge', dirs[0]!, '--out', out]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('[ShardsIncomplete] The shards cannot be merged: shard 2/2 is missing');

    const twice = await build(['--merge', dirs[0]!, dirs[0]!, '--out', out]);
    expect(twice.stderr).toContain('are both shard 1/2');

    // Shard 2 of a build with other options (another base URL) is shard 2 of another build.
    const [, foreign] = await shards(2, 'foreign', { SITE_URL: 'https://elsewhere.example' });
    const mixed = await build(['--merge', dirs[0]!, foreign!, '--out', out]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(
      /\[ShardsIncomplete\] The shards cannot be merged: .* is shard 2\/2 of build \w+, .* of build \w+ \(code, options, content or SOURCE_DATE_EPOCH differ\)/,
    );
    expect(await snapshotTree(out)).toEqual(before);
  }, 300_000);

  it('refuses, before reading any file for it, a page whose path the manifest of a shard forged, and the previous output keeps serving', async () => {
    // This test forges a shard's manifest: on a copy of the shared shards.
    const dirs = await copyShards(2, 'forged');
    const out = join(root, 'forged-merged');
    expect((await build(['--out', out])).code).toBe(0);
    const before = await snapshotTree(out);
    // A manifest is input: this one lists an article whose path climbs out of its folder.
    const file = join(dirs[0]!, SHARDS_DIR, '1-of-2.json');
    const manifest = JSON.parse(await readFile(file, 'utf8')) as ShardManifest;
    const article = manifest.pages.find((page) => page.inspected.route === 'news-article')!;
    manifest.pages.push({ ...article, inspected: { ...article.inspected, path: '/news/..' } });
    await writeFile(file, JSON.stringify(manifest));
    const merged = await build(['--merge', ...dirs, '--out', out]);
    expect(merged.code).toBe(1);
    expect(merged.stderr).toContain(
      `[ShardsIncomplete] The shards cannot be merged: the shards list "/news/.." under route news-article, which this machine's site/routes.ts does not match`,
    );
    expect(await snapshotTree(out)).toEqual(before);
  }, 300_000);

  it('completes when the failed shard is run again, with its index from a Kubernetes Indexed Job', async () => {
    const dirs = await copyShards(2, 'rerun');
    // The second shard "failed": its folder is gone. Run again as the Job would (0-based index).
    await rm(dirs[1]!, { recursive: true, force: true });
    const again = await build(['--out', dirs[1]!], { JOB_COMPLETION_INDEX: '1', SITE_SHARD_COUNT: '2' });
    expect(again.code, again.stderr).toBe(0);
    const merged = await build(['--merge', ...dirs, '--out', join(root, 'rerun-merged')]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(await snapshotTree(join(root, 'rerun-merged'))).toEqual(single);
  }, 300_000);

  it('needs SOURCE_DATE_EPOCH, so that every shard stamps the same time', async () => {
    const result = await build(['--out', join(root, 'no-epoch'), '--shard', '1/2'], { SOURCE_DATE_EPOCH: undefined });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('[ShardTimestampMissing] Shard 1/2 needs SOURCE_DATE_EPOCH');
  });

  it('published by each shard at once to S3-compatible storage, then merged and published, leaves the bucket one machine leaves', async () => {
    const s3 = await startS3Server();
    const client = s3Client(s3.endpoint);
    const publish = (out: string, prefix: string) =>
      runCli(['publish', '--out', out, '--bucket', s3.bucket, '--prefix', prefix, '--endpoint-url', s3.endpoint], { env: S3_ENV });
    try {
      expect((await publish(join(root, 'single'), 'one')).code).toBe(0);

      const { dirs } = await sharedShards(3);
      const uploads = await Promise.all(dirs.map((dir) => publish(dir, 'many')));
      for (const upload of uploads) expect(upload.code, upload.stderr).toBe(0);
      // The shards' files are up, but no visitor can reach them: no latest.json, no page, payload or media
      // file at its own key; only hashed assets, records and large files' staged copies.
      const partial = await bucketSnapshot(client, s3.bucket, 'many');
      expect(partial['_assets/builds/latest.json']).toBeUndefined();
      expect(Object.keys(partial).filter((key) => !key.startsWith('_assets/'))).toEqual([]);
      expect(Object.keys(partial).filter((key) => key.startsWith('_assets/builds/pending/')).length).toBe(3);
      const stagedCopies = Object.keys(partial).filter((key) => key.startsWith('_assets/builds/staged/'));

      const merged = join(root, 'bucket-merged');
      expect((await build(['--merge', ...dirs, '--out', merged])).code).toBe(0);
      const last = await publish(merged, 'many');
      expect(last.code, last.stderr).toBe(0);
      // The staged copies were copied into place inside the bucket, not uploaded again.
      const copied = Number(/\((\d+) copied from the shards' staged files\)/.exec(last.stdout)?.[1] ?? 0);
      expect(copied).toBe(stagedCopies.length);
      // Every object, by content: the same keys and bytes as the one-machine publish, the shards' staged copies and
      // records gone (build records are signed for their prefix, so only their keys compare).
      const comparable = async (prefix: string): Promise<Record<string, string>> =>
        Object.fromEntries(
          Object.entries(await bucketSnapshot(client, s3.bucket, prefix)).map(([key, etag]) => [
            key,
            key.startsWith('_assets/builds/files/') ? 'signed' : etag,
          ]),
        );
      expect(await comparable('many')).toEqual(await comparable('one'));
    } finally {
      client.destroy();
      await s3.stop();
    }
  }, 300_000);
});
