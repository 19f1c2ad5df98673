import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { build } from '../../cli/build/build.ts';
import { hasBuildState, loadBuildState, type BuildState } from '../../cli/build/incremental/build-state.ts';
import { savedBuild } from '../../cli/build/incremental/incremental.ts';
import { createStateMemory, type StateMemory } from '../../cli/build/incremental/state-memory.ts';
import { resolveConfig } from '../../cli/config/config.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { htmlFileFor } from '../../runtime/shared/paths.ts';
import { loginToken } from '../backend/client.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';
import { ROOT } from '../helpers/cli.ts';
import { createContent, deleteContent, updateContent } from '../helpers/content-edits.ts';

/**
 * An update in place changes the folder under the same build id and timestamp: the state of the build
 * before cannot be told from the folder by the trust checks (a page whose size did not change). Until
 * the new state is saved (site live saves it after its publish), the cache must hold none.
 *
 * Once saved, site live keeps that state and goes on from it, rather than read the file it just wrote
 * back: the kept state must be the state the file reads back as, to the last field, and be checked as
 * a state read back is.
 */

let root: string;
let backend: ContentServer;
let token: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-state-saved-'));
  await seedBundle(join(root, 'cache'));
  backend = await startContentServer({ now: () => new Date('2026-06-01T12:00:00Z') });
  token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
}, 120_000);

afterAll(async () => {
  await backend?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the state of an update in place not yet saved', () => {
  it('is no state: the build after renders every page rather than go on from the state before', async () => {
    const config = configFor('out');
    await build(config, { logger: createMemoryLogger() });
    expect(hasBuildState(config.cacheDir, config.outDir)).toBe(true);
    // One character of a title: the page keeps its size, and the build its id and timestamp.
    await updateContent(backend, token, 'NewsItem', 'news-3', { title: 'Edited titlX' });
    const update = await build(config, { logger: createMemoryLogger(), saveCachesLater: true });
    expect(update.report.changes?.mode).toBe('incremental');
    expect(update.saveCaches).toBeTypeOf('function');
    // Killed before its save: the cache holds no state the folder could be mistaken for.
    expect(hasBuildState(config.cacheDir, config.outDir)).toBe(false);
    const after = await build(config, { logger: createMemoryLogger() });
    expect(after.report.changes?.mode).toBe('full');
    // Saved, the state is back, and the build after goes on from it.
    await updateContent(backend, token, 'NewsItem', 'news-3', { title: 'Edited titlY' });
    const saved = await build(config, { logger: createMemoryLogger(), saveCachesLater: true });
    await saved.saveCaches!();
    expect(hasBuildState(config.cacheDir, config.outDir)).toBe(true);
    await updateContent(backend, token, 'NewsItem', 'news-3', { title: 'Edited titlZ' });
    expect((await build(config, { logger: createMemoryLogger() })).report.changes?.mode).toBe('incremental');
  }, 180_000);
});

describe('the state an update in place saved, kept in memory', () => {
  it('is the state the build cache reads back, and the next update goes on from it without reading', async () => {
    const config = configFor('kept');
    const reads: string[] = [];
    const memory = createStateMemory(config, {
      load: (options, generator) => (reads.push(generator), savedBuild(options, generator)),
    });
    // The states kept, as the build handed them over.
    const kept: { generator: string; state: BuildState }[] = [];
    const states: StateMemory = {
      ...memory,
      keep: (generator, saved) => (kept.push({ generator, state: saved.state }), memory.keep(generator, saved)),
    };
    const update = liveUpdates(config, states);
    await update();
    expect(reads).toHaveLength(1);
    // Edits of several kinds: a title, an item added (a new page, its media), one deleted (pages and files removed).
    const edits = [
      () => updateContent(backend, token, 'NewsItem', 'news-3', { title: 'Kept state, edited' }),
      () => createContent(backend, token, 'NewsItem', { slug: 'kept-state-added', title: 'Kept state, added' }),
      () => deleteContent(backend, token, 'NewsItem', 'news-4'),
    ];
    for (const edit of edits) {
      await edit();
      const before = kept.length;
      await update();
      expect(kept.length, 'the update kept the state it saved').toBe(before + 1);
      const { generator, state } = kept.at(-1)!;
      const readBack = await loadBuildState(config.cacheDir, config.outDir, generator);
      expect(readBack.state, 'reason' in readBack ? readBack.reason : '').not.toBeNull();
      expect(state).toStrictEqual(readBack.state);
    }
    // Every update after the first went on from the state kept: none read the cache's.
    expect(reads).toHaveLength(1);
    expect(await readFile(join(config.outDir, htmlFileFor('/news/kept-state-added')), 'utf8')).toContain('Kept state, added');
  }, 240_000);

  it('is checked as a state read back is: a kept file removed right after an update is found by the next, however soon', async () => {
    const config = configFor('removed');
    const update = liveUpdates(config, createStateMemory(config));
    await update();
    // A page no edit below reaches, removed at once (a cleaner of temporary folders, an operator).
    const removed = join(config.outDir, htmlFileFor('/about'));
    await rm(removed);
    await updateContent(backend, token, 'NewsItem', 'news-5', { title: 'Kept state, right after' });
    expect(await update()).toBe('full');
    expect(existsSync(removed)).toBe(true);
    await updateContent(backend, token, 'NewsItem', 'news-5', { title: 'Kept state, and after that' });
    expect(await update()).toBe('incremental');
  }, 240_000);

  it('is not gone on from with --full: every update renders every page', async () => {
    const config = configFor('full', { full: true });
    const update = liveUpdates(config, createStateMemory(config));
    expect(await update()).toBe('full');
    await updateContent(backend, token, 'NewsItem', 'news-5', { title: 'Kept state, with --full' });
    expect(await update()).toBe('full');
  }, 240_000);
});

/** Updates of config's folder as site live runs them: the build, the caches saved after the publish, the state read ahead; each gives its mode. */
function liveUpdates(config: ReturnType<typeof resolveConfig>, states: StateMemory): () => Promise<string | undefined> {
  return async () => {
    const result = await build(config, { logger: createMemoryLogger(), states, saveCachesLater: true });
    await result.saveCaches?.();
    states.readAhead();
    return result.report.changes?.mode;
  };
}

/** A build's config for its own output folder (and the shared cache). */
function configFor(name: string, user: { full?: boolean } = {}): ReturnType<typeof resolveConfig> {
  return resolveConfig(
    {
      endpoint: backend.url,
      outDir: join(root, name),
      cacheDir: join(root, 'cache'),
      search: false,
      report: false,
      logLevel: 'silent',
      ...user,
    },
    { SOURCE_DATE_EPOCH: '1780000000' },
    ROOT,
  );
}
