import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_FILE } from '../../../../../runtime/shared/paths.ts';
import { stateFilesFor, type BuildState, type KeptState } from '../../../../../cli/build/incremental/build-state.ts';
import type { SavedBuild } from '../../../../../cli/build/incremental/incremental.ts';
import { createStateMemory } from '../../../../../cli/build/incremental/state-memory.ts';
import { samplePages } from '../../../../../cli/build/incremental/state-trust.ts';
import type { InspectedPages } from '../../../../../cli/checks/collect.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** An output folder with its latest.json and a state record in the cache; `load` counts the reads and hands out a new state each time. */
async function folder() {
  const cacheDir = await mkdtemp(join(tmpdir(), 'site-memory-cache-'));
  const outDir = await mkdtemp(join(tmpdir(), 'site-memory-out-'));
  dirs.push(cacheDir, outDir);
  const [stateFile, cursorFile] = stateFilesFor(cacheDir, outDir);
  await mkdir(dirname(stateFile!), { recursive: true });
  await writeFile(stateFile!, '{"state":1}');
  await writeFile(cursorFile!, '{"cursor":1}');
  await mkdir(dirname(join(outDir, LATEST_FILE)), { recursive: true });
  await writeFile(join(outDir, LATEST_FILE), '{"id":"a"}');
  // A page the state samples, as its build wrote it.
  const page = join(outDir, 'news/a/index.html');
  await mkdir(dirname(page), { recursive: true });
  await writeFile(page, '<p>as built</p>');
  const sample = await samplePages(outDir, { length: 1, path: () => '/news/a' } as unknown as InspectedPages);
  const reads: string[] = [];
  const load = async (_options: unknown, generator: string): Promise<SavedBuild> => {
    reads.push(generator);
    return { state: { buildId: `read ${reads.length}`, sample } as unknown as BuildState };
  };
  const memory = createStateMemory({ incremental: true, cacheDir, outDir }, { load });
  // The state a build just saved, as it would read back, and its checks (whyNot) as given.
  const kept = (whyNot: () => Promise<string | null> = async () => null): KeptState => ({
    state: { buildId: 'kept', sample } as unknown as BuildState,
    whyNot,
  });
  return { memory, reads, stateFile: stateFile!, cursorFile: cursorFile!, outDir, page, kept, cacheDir, load };
}

describe('the state a build saved, kept (site live)', () => {
  it('is what the next build gets once its checks passed, without reading the state, once', async () => {
    const { memory, reads, kept } = await folder();
    await memory.saved('g1');
    await memory.keep('g1', kept());
    // Nothing is read ahead after a build that kept its state.
    memory.readAhead();
    expect((await memory.saved('g1')).state?.buildId).toBe('kept');
    expect(reads).toEqual(['g1']);
    expect((await memory.saved('g1')).state?.buildId).toBe('read 2');
  });

  it('is checked from the moment it is kept, and the next build, however soon, waits for the checks and reads the state when they fail', async () => {
    const { memory, reads, kept } = await folder();
    const checks: string[] = [];
    await memory.keep(
      'g1',
      kept(async () => {
        checks.push('started');
        await new Promise((resolve) => setTimeout(resolve, 50));
        return "the output folder's /news/a is missing or not the size the previous build wrote";
      }),
    );
    expect(checks).toEqual(['started']);
    expect((await memory.saved('g1')).state?.buildId).toBe('read 1');
    expect(reads).toEqual(['g1']);
  });

  it('is not used when its checks throw', async () => {
    const { memory, kept } = await folder();
    await memory.keep(
      'g1',
      kept(() => Promise.reject(new Error('EIO'))),
    );
    expect((await memory.saved('g1')).state?.buildId).toBe('read 1');
  });

  it.each([
    ['the state', 'stateFile'],
    ['its moved cursor', 'cursorFile'],
  ] as const)('is read again when %s was written since', async (_what, file) => {
    const made = await folder();
    await made.memory.keep('g1', made.kept());
    await writeFile(made[file], '{"written":"again"}');
    expect((await made.memory.saved('g1')).state?.buildId).toBe('read 1');
  });

  it('is read again when a sampled page changed since, or for another generator', async () => {
    const made = await folder();
    await made.memory.keep('g1', made.kept());
    expect((await made.memory.saved('g2')).state?.buildId).toBe('read 1');
    await made.memory.keep('g1', made.kept());
    await writeFile(made.page, '<p>as edited</p>'.slice(0, '<p>as built</p>'.length));
    expect((await made.memory.saved('g1')).state?.buildId).toBe('read 2');
  });

  it('is not what a build with --full gets (the state is read, and says so)', async () => {
    const made = await folder();
    const memory = createStateMemory({ incremental: false, cacheDir: made.cacheDir, outDir: made.outDir }, { load: made.load });
    await memory.keep('g1', made.kept());
    expect((await memory.saved('g1')).state?.buildId).toBe('read 1');
  });

  it('gives way to a read-ahead after a build that kept none (one that ran elsewhere)', async () => {
    const { memory, reads, kept } = await folder();
    await memory.keep('g1', kept());
    memory.readAhead();
    // The next build ran in a process of its own: it kept nothing, and the state on disk is its.
    memory.readAhead();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads).toEqual(['g1']);
    expect((await memory.saved('g1')).state?.buildId).toBe('read 1');
  });
});

describe('the state read ahead (site live)', () => {
  it('is what the next build gets, read once, when nothing was written since', async () => {
    const { memory, reads } = await folder();
    expect((await memory.saved('g1')).state?.buildId).toBe('read 1');
    memory.readAhead();
    expect((await memory.saved('g1')).state?.buildId).toBe('read 2');
    expect(reads).toEqual(['g1', 'g1']);
    // Used once: the build after reads again.
    expect((await memory.saved('g1')).state?.buildId).toBe('read 3');
  });

  it('is not read before a build asked for the state (nothing says as which generator)', async () => {
    const { memory, reads } = await folder();
    memory.readAhead();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads).toEqual([]);
  });

  it.each([
    ['the state', 'stateFile'],
    ['its moved cursor', 'cursorFile'],
  ] as const)('is read again when %s was written since', async (_what, file) => {
    const made = await folder();
    await made.memory.saved('g1');
    made.memory.readAhead();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(made[file], '{"written":"again"}');
    expect((await made.memory.saved('g1')).state?.buildId).toBe('read 3');
  });

  it("is read again when the folder's latest.json was written since, or the folder replaced", async () => {
    const made = await folder();
    await made.memory.saved('g1');
    made.memory.readAhead();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(join(made.outDir, LATEST_FILE), '{"id":"b"}');
    expect((await made.memory.saved('g1')).state?.buildId).toBe('read 3');
    made.memory.readAhead();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await rm(made.outDir, { recursive: true });
    await mkdir(dirname(join(made.outDir, LATEST_FILE)), { recursive: true });
    await writeFile(join(made.outDir, LATEST_FILE), '{"id":"b"}');
    expect((await made.memory.saved('g1')).state?.buildId).toBe('read 5');
  });

  it('is read again when a sampled page changed since, though no stamp did', async () => {
    const made = await folder();
    await made.memory.saved('g1');
    made.memory.readAhead();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Same size, in place: the state, its cursor, latest.json and the folder keep their stamps.
    await writeFile(made.page, '<p>as edited</p>'.slice(0, '<p>as built</p>'.length));
    expect((await made.memory.saved('g1')).state?.buildId).toBe('read 3');
  });

  it('is read again for another generator (the code or options changed)', async () => {
    const { memory, reads } = await folder();
    await memory.saved('g1');
    memory.readAhead();
    const saved = await memory.saved('g2');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads.toSorted()).toEqual(['g1', 'g1', 'g2']);
    expect(saved.state?.buildId).toBe(`read ${reads.indexOf('g2') + 1}`);
  });
});
