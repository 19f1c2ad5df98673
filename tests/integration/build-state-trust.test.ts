import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadBuildState, signedStateText } from '../../cli/build/incremental/build-state.ts';
import { htmlFileFor, payloadFileFor } from '../../runtime/shared/paths.ts';
import { runCli } from '../helpers/cli.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * The build state in the build cache decides which files of the output folder an update in place reads,
 * keeps and removes. A state that names a file outside the output folder, or a page whose files are not
 * plain files, is not trusted: the build starts over (a full build), rather than reading, keeping or
 * waiting on whatever the state points at.
 */

let dir: string;
let out: string;
let stateFile: string;
let original: string;

type Saved = {
  generator: string;
  sample: [string, string][];
  pages: [string, string, string, number, string | null, number, ...unknown[]][];
  outputs: Record<string, string>;
  media: string[];
};
const saved = (): Saved => JSON.parse(original) as Saved;
/**
 * Loads `state`, signed with the cache key as a build signs it: these are the checks behind the
 * signature, against a cache writer who holds the key (one who does not is refused before them).
 */
const load = async (state: Saved): Promise<Awaited<ReturnType<typeof loadBuildState>>> => {
  const { mac: _mac, ...unsigned } = state as Saved & { mac?: string };
  await writeFile(stateFile, signedStateText(join(dir, 'cache'), JSON.stringify(unsigned)));
  return loadBuildState(join(dir, 'cache'), out, state.generator);
};
/** Loads `state`, which must be refused; the reason it gives. */
const refusal = async (state: Saved): Promise<string> => {
  const loaded = await load(state);
  expect(loaded.state).toBeNull();
  return 'reason' in loaded ? loaded.reason : '';
};
/** A page the folder check does not sample, so only the per-file check stands between it and the build. */
const unsampled = (state: Saved): Saved['pages'][number] =>
  state.pages.find(([path]) => path !== '/' && !state.sample.some(([s]) => s === path))!;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'build-state-trust-'));
  await seedBundle(join(dir, 'cache'));
  out = resolve(dir, 'site');
  const first = await runCli(['build', '--out', out, '--cache-dir', join(dir, 'cache'), '--quiet', '--no-search']);
  expect(first.code, first.stderr).toBe(0);
  const states = (await readdir(join(dir, 'cache', 'builds'))).filter((f) => /^[0-9a-f]{16}\.json$/.test(f));
  expect(states).toEqual([`${createHash('sha256').update(out).digest('hex').slice(0, 16)}.json`]);
  stateFile = join(dir, 'cache', 'builds', states[0]!);
  original = await readFile(stateFile, 'utf8');
}, 240_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await writeFile(stateFile, original);
});

describe('the build state of an output folder', () => {
  it('is trusted as written', async () => {
    const loaded = await load(saved());
    expect(loaded.state, 'reason' in loaded ? loaded.reason : '').not.toBeNull();
  });

  it('is not trusted unless a build holding the cache key signed it', async () => {
    const original = await loadBuildState(join(dir, 'cache'), out, saved().generator);
    expect(original.state, 'reason' in original ? original.reason : '').not.toBeNull();
    // As it was, without its signature; and with a page's record changed under the old signature.
    const { mac, ...unsigned } = saved() as Saved & { mac: string };
    for (const text of [
      JSON.stringify(unsigned),
      JSON.stringify({
        ...unsigned,
        pages: unsigned.pages.map((p, i) => (i === 0 ? [p[0], p[1], 'x'.repeat(43), ...p.slice(3)] : p)),
        mac,
      }),
    ]) {
      await writeFile(stateFile, text);
      const loaded = await loadBuildState(join(dir, 'cache'), out, unsigned.generator);
      expect(loaded.state).toBeNull();
      expect('reason' in loaded && loaded.reason).toMatch(/not signed with this build's cache key/);
    }
  });

  it('is not trusted when a page path leads outside the output folder, even to files that look right', async () => {
    const state = saved();
    const page = unsampled(state);
    // A copy of the page's own files just outside the output folder: sizes and bytes all match.
    const outside = join(dir, 'outside');
    await mkdir(outside, { recursive: true });
    await copyFile(join(out, htmlFileFor(page[0])), join(outside, 'index.html'));
    await copyFile(join(out, payloadFileFor(page[0])), join(outside, '_payload.json'));
    page[0] = '/../outside';
    expect(await refusal(state)).toMatch(/outside the output folder/);
  });

  it("is not trusted when a page's facts are not what a build writes: a link id past the links, a title that is no string, a size that is no count", async () => {
    const damages: [number, unknown][] = [
      [12, [0, 1e9]],
      [12, [-1]],
      [12, ['0']],
      [6, 42],
      [7, null],
      [8, [3]],
      [9, 'many'],
      [3, true],
      [2, null],
    ];
    for (const [field, value] of damages) {
      const state = saved();
      const page = unsampled(state);
      page[field] = value;
      expect(await refusal(state), `field ${field} = ${JSON.stringify(value)}`).toBe(
        `the build cache's state has a damaged record of the page ${JSON.stringify(page[0])} (a damaged or altered cache)`,
      );
    }
  });

  it('is not trusted when it names one page twice, spelled two ways (the build would remove what it keeps)', async () => {
    const state = saved();
    const page = unsampled(state);
    state.pages.push([`${page[0]}/`, ...page.slice(1)] as Saved['pages'][number]);
    expect(await refusal(state)).toContain(`${page[0]}/`);
  });

  it('is not trusted when two of its names name one file: a dot segment, another case, an output named like a page file', async () => {
    const spellings = (path: string): string[] => [`${path}/.`, path.toUpperCase()];
    const page = unsampled(saved());
    for (const spelling of spellings(page[0])) {
      const state = saved();
      state.pages.push([spelling, ...page.slice(1)] as Saved['pages'][number]);
      const loaded = await load(state);
      expect(loaded.state, spelling).toBeNull();
    }
    // A medium whose name a file system that folds case and Unicode takes for another's (`ſ` for `s`).
    const withMedia = saved();
    const medium = withMedia.media.find((url) => /^\/media\/[\w/-]*\/[\w.-]*s[\w.-]*$/.test(url))!;
    // The last `s`, which is in the file's own name.
    const folded = medium.replace(/s(?=[^/s]*$)/, 'ſ');
    // On this disk it is a file of its own, so only the name check can refuse it.
    await copyFile(join(out, medium.slice(1)), join(out, folded.slice(1)));
    withMedia.media.push(folded);
    try {
      expect(await refusal(withMedia)).toContain(
        `${JSON.stringify(folded)}, which is outside the output folder or not a name a build writes`,
      );
    } finally {
      await rm(join(out, folded.slice(1)));
    }
    const withOutput = saved();
    withOutput.outputs[htmlFileFor(page[0])] = 'x';
    expect(await refusal(withOutput)).toContain(htmlFileFor(page[0]));
  });

  it('is not trusted when an extra output or a media file leads outside the output folder', async () => {
    const withOutput = saved();
    const [name, hash] = Object.entries(withOutput.outputs)[0]!;
    delete withOutput.outputs[name];
    await writeFile(join(dir, 'elsewhere.xml'), 'x');
    withOutput.outputs['../elsewhere.xml'] = hash;
    expect(await refusal(withOutput)).toMatch(/outside the output folder/);

    const withMedia = saved();
    withMedia.media.push('/media/../../elsewhere.xml');
    expect(await refusal(withMedia)).toMatch(/outside the output folder/);
  });

  it("is not trusted when a page's payload is not a plain file (a FIFO would hang the build that reads it)", async () => {
    const state = saved();
    const page = unsampled(state);
    const payload = join(out, payloadFileFor(page[0]));
    const html = await stat(join(out, htmlFileFor(page[0])));
    const kept = `${payload}.kept`;
    await copyFile(payload, kept);
    await rm(payload);
    execFileSync('mkfifo', [payload]);
    try {
      // The recorded size counts the HTML alone, as if the page had no payload file.
      page[5] = html.size;
      expect(await refusal(state)).toContain(page[0]);
    } finally {
      await rm(payload);
      await copyFile(kept, payload);
      await rm(kept);
    }
  });
});

describe('an update in place that commits its changes', () => {
  it('removes no file through a link to a folder outside the output, and none it has just moved in, however the records spell it', async () => {
    const { commitStagingChanges } = await import('../../cli/output/output.ts');
    const { symlink } = await import('node:fs/promises');
    const root = await mkdtemp(join(tmpdir(), 'commit-trust-'));
    try {
      const site = join(root, 'site');
      const staging = join(root, 'staging');
      const elsewhere = join(root, 'elsewhere');
      for (const dir of [join(site, '_assets/builds'), join(staging, '_assets/builds'), join(staging, 'news'), elsewhere])
        await mkdir(dir, { recursive: true });
      await writeFile(join(site, '_assets/builds/latest.json'), '{"id":"old"}');
      await writeFile(join(staging, '_assets/builds/latest.json'), '{"id":"new"}');
      await writeFile(join(staging, 'news/index.html'), 'the new list');
      await writeFile(join(elsewhere, 'keys'), 'not the site');
      await symlink(elsewhere, join(site, 'linked'));
      const { written, removed } = await commitStagingChanges(staging, site, ['linked/keys', 'news//index.html', './news/index.html']);
      expect(written).toContain('news/index.html');
      expect(removed).toEqual([]);
      expect(await readFile(join(elsewhere, 'keys'), 'utf8')).toBe('not the site');
      expect(await readFile(join(site, 'news/index.html'), 'utf8')).toBe('the new list');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
