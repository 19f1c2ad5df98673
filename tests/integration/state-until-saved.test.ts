import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { build } from '../../cli/build/build.ts';
import { hasBuildState } from '../../cli/build/incremental/build-state.ts';
import { resolveConfig } from '../../cli/config/config.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { loginToken } from '../backend/client.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';
import { ROOT } from '../helpers/cli.ts';
import { updateContent } from '../helpers/content-edits.ts';

/**
 * An update in place changes the folder under the same build id and timestamp: the state of the build
 * before cannot be told from the folder by the trust checks (a page whose size did not change). Until
 * the new state is saved (site live saves it after its publish), the cache must hold none.
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
    const config = resolveConfig(
      { endpoint: backend.url, outDir: join(root, 'out'), cacheDir: join(root, 'cache'), search: false, report: false, logLevel: 'silent' },
      { SOURCE_DATE_EPOCH: '1780000000' },
      ROOT,
    );
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
