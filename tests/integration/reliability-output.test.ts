import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR, startContentServer, type ContentServer } from '../../backend/server.ts';
import type { LatestBuild } from '../../runtime/shared/contract.ts';
import { loginToken } from '../backend/client.ts';
import { runCli } from '../helpers/cli.ts';
import { snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/** What the build writes: no secrets in it, and the same bytes for the same content. */

let backend: ContentServer;

beforeAll(async () => {
  // A fixed clock: "upcoming events" are the same for every build of this file.
  backend = await startContentServer({ now: () => new Date('2026-03-02T09:00:00Z') });
});

afterAll(async () => {
  await backend?.close();
});

/** Every file under `dir`, at any depth, with its bytes. */
async function everyFile(dir: string): Promise<[string, Buffer][]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => [join(e.parentPath, e.name), await readFile(join(e.parentPath, e.name))] as [string, Buffer]),
  );
}

describe('the build token', () => {
  it('appears in no file the build writes, in no encoding, nor in its output, though the build used it', async () => {
    const token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    const root = await mkdtemp(join(tmpdir(), 'site-secret-'));
    await seedBundle(join(root, 'cache'));
    const out = join(root, 'site');
    const result = await runCli(
      ['build', '--endpoint', backend.url, '--out', out, '--cache-dir', join(root, 'cache'), '--verbose', '--drafts'],
      { env: { GRAPHQL_TOKEN: token } },
    );
    expect(result.code).toBe(0);

    const forms = [
      token,
      Buffer.from(token).toString('base64'),
      Buffer.from(token).toString('base64url'),
      encodeURIComponent(token),
      JSON.stringify(token).slice(1, -1),
      Buffer.from(token).toString('hex'),
      `Bearer ${token}`,
    ];
    const files = await everyFile(root);
    expect(files.length).toBeGreaterThan(300);
    for (const [file, bytes] of files) {
      for (const form of forms) expect(bytes.includes(form), `${form} in ${file}`).toBe(false);
    }
    for (const form of forms) {
      expect(result.stdout.includes(form)).toBe(false);
      expect(result.stderr.includes(form)).toBe(false);
    }
    // The token reached the backend: the editor's draft, which only a token shows (and --drafts publishes), was built.
    const text = files.map(([, bytes]) => bytes.toString('utf8')).join('\n');
    expect(text).toContain('Winter programme 2027 announced');
  }, 180_000);
});

describe('reproducible builds', () => {
  it('two builds of the same content with the same SOURCE_DATE_EPOCH are byte-identical', async () => {
    const dirs = await Promise.all([1, 2].map(() => mkdtemp(join(tmpdir(), 'site-repro-'))));
    const trees: Record<string, string>[] = [];
    for (const dir of dirs) {
      // Separate output and cache folders: nothing is shared between the two builds but the content.
      const result = await runCli(
        ['build', '--endpoint', backend.url, '--out', join(dir, 'site'), '--cache-dir', join(dir, 'cache'), '--quiet', '--no-report'],
        { env: { SOURCE_DATE_EPOCH: '1700000000' } },
      );
      expect(result.code, result.stderr).toBe(0);
      trees.push(await snapshotTree(join(dir, 'site')));
    }
    expect(Object.keys(trees[0]!).length).toBeGreaterThan(300);
    expect(trees[1]).toEqual(trees[0]);
    const latest = JSON.parse(await readFile(join(dirs[0]!, 'site/_assets/builds/latest.json'), 'utf8')) as LatestBuild;
    expect(latest.timestamp).toBe(1_700_000_000_000);
    expect(await readFile(join(dirs[0]!, 'site/_payload.json'), 'utf8')).toContain('"prerenderedAt":"2023-11-14T22:13:20.000Z"');
  }, 240_000);
});
