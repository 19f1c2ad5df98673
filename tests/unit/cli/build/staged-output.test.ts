import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeShards } from '../../../../cli/build/merge.ts';
import { SHARD_MANIFEST_VERSION, shardManifestFile, type ShardManifest } from '../../../../cli/build/shard.ts';
import { inStagingFolder, type StagedWork } from '../../../../cli/build/staged-output.ts';
import { resolveConfig } from '../../../../cli/config/config.ts';
import { createMemoryLogger } from '../../../../cli/terminal/logger.ts';
import { buildInProcess } from '../../../helpers/build-in-process.ts';
import { ROOT } from '../../../helpers/cli.ts';
import { tempDirPerTest } from '../../../helpers/temp-dir.ts';
import { listFiles, snapshotTree } from '../../../helpers/tree.ts';

async function put(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), content);
  }
}

/** A previous build in `out`: what every failure below must leave exactly as it was. */
const PREVIOUS = { '_assets/builds/latest.json': '{"id":"b0"}', 'index.html': 'home of b0', 'news/index.html': 'news of b0' };

/** The staging folders beside `out`: none once a build is over, whichever way it ended. */
async function stagingFolders(out: string): Promise<string[]> {
  return (await readdir(dirname(out))).filter((name) => name.startsWith(`.${basename(out)}.staging-`));
}

/**
 * Every build that writes an output folder (`site build` in each of its plans, `site build --merge`)
 * runs in one outline (cli/build/staged-output.ts): staging folder, work, commit or discard, trash.
 */
describe('the staged output', () => {
  const dir = tempDirPerTest('staged-output-');

  it('replaces the output with what the work wrote when it commits, and leaves no staging folder', async () => {
    const out = join(dir(), 'site');
    await put(out, PREVIOUS);
    const result = await inStagingFolder({ outDir: out, backgroundCleanup: false }, createMemoryLogger(), {
      write: async (staging) => {
        await put(staging.dir, { '_assets/builds/latest.json': '{"id":"b1"}', 'index.html': 'home of b1' });
        await staging.commit(null);
        return 'built';
      },
      failed: () => Promise.reject(new Error('not failed')),
    });
    expect(result).toBe('built');
    expect(await listFiles(out)).toEqual(['_assets/builds/latest.json', 'index.html']);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('home of b1');
    expect(await stagingFolders(out)).toEqual([]);
  });

  it('leaves the output as it stands when the work discards the staging folder', async () => {
    const out = join(dir(), 'site');
    await put(out, PREVIOUS);
    const before = await snapshotTree(out);
    await inStagingFolder({ outDir: out, backgroundCleanup: false }, createMemoryLogger(), {
      write: async (staging) => {
        await put(staging.dir, { 'index.html': 'never seen' });
        await staging.discard();
      },
      failed: () => Promise.reject(new Error('not failed')),
    });
    expect(await snapshotTree(out)).toEqual(before);
    expect(await stagingFolders(out)).toEqual([]);
  });

  it('when a stage throws: settles what still writes, removes the staging folder, records the failure, closes, and rethrows', async () => {
    const out = join(dir(), 'site');
    await put(out, PREVIOUS);
    const before = await snapshotTree(out);
    const steps: string[] = [];
    let stagingDir = '';
    const work: StagedWork<never> = {
      write: async (staging) => {
        stagingDir = staging.dir;
        await put(staging.dir, { '_assets/builds/latest.json': '{"id":"b1"}', 'index.html': 'half a build' });
        throw new Error('a stage failed');
      },
      settle: async () => void steps.push(`settle (staging ${existsSync(stagingDir) ? 'there' : 'gone'})`),
      failed: async (error) =>
        void steps.push(`failed: ${(error as Error).message} (staging ${existsSync(stagingDir) ? 'there' : 'gone'})`),
      close: async () => void steps.push('close'),
    };
    await expect(inStagingFolder({ outDir: out, backgroundCleanup: false }, createMemoryLogger(), work)).rejects.toThrow('a stage failed');
    expect(steps).toEqual(['settle (staging there)', 'failed: a stage failed (staging gone)', 'close']);
    expect(await snapshotTree(out)).toEqual(before);
    expect(await stagingFolders(out)).toEqual([]);
    // The folder's lock went with the staging folder: the next build starts.
    await inStagingFolder({ outDir: out, backgroundCleanup: false }, createMemoryLogger(), {
      write: (staging) => staging.discard(),
      failed: () => Promise.resolve(),
    });
  });

  it('site build: a stage that throws leaves no staging folder and the previous output as it was', async () => {
    const out = join(dir(), 'site');
    await put(out, PREVIOUS);
    const before = await snapshotTree(out);
    // The backend is unreachable: the build fails in its first stage, once its staging folder exists.
    await expect(
      buildInProcess({ endpoint: 'http://127.0.0.1:9/graphql', outDir: out, cacheDir: join(dir(), 'cache'), retries: 0, renderThreads: 0 }),
    ).rejects.toThrow(/127\.0\.0\.1:9/);
    expect(await snapshotTree(out)).toEqual(before);
    expect(await stagingFolders(out)).toEqual([]);
  });

  it('site build --merge: a stage that throws leaves no staging folder and the previous output as it was', async () => {
    const out = join(dir(), 'site');
    await put(out, PREVIOUS);
    const before = await snapshotTree(out);
    // One shard of one, of a build this machine's code does not make: the merge fails in its first stage.
    const shard = join(dir(), 'shard-1');
    const manifest: ShardManifest = {
      version: SHARD_MANIFEST_VERSION,
      buildId: 'another-build',
      shard: { index: 1, count: 1 },
      timestamp: 1_790_000_000_000,
      baseUrl: 'https://example.org',
      siteJson: '{"site":{"name":"Example"}}',
      assets: { entry: '_assets/app.js', entryImports: [], css: '_assets/app.css', pageChunks: {}, hash: 'h' },
      client: { buildCheckInterval: 60_000, graphqlEndpoint: null, sentryDsn: null },
      csp: null,
      pages: [],
      media: [],
    };
    await put(shard, { [shardManifestFile(manifest.shard)]: JSON.stringify(manifest), 'index.html': 'the shard' });
    const config = resolveConfig({ logLevel: 'silent', report: false, outDir: out, cacheDir: join(dir(), 'cache') }, {}, ROOT);
    await expect(mergeShards(config, [shard], { logger: createMemoryLogger() })).rejects.toThrow(/the shards built another-build/);
    expect(await snapshotTree(out)).toEqual(before);
    expect(await stagingFolders(out)).toEqual([]);
  });
});
