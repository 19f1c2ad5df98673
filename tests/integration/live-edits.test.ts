import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { gqlData, loginToken } from '../backend/client.ts';
import { buildInProcess } from '../helpers/build-in-process.ts';
import { runCli } from '../helpers/cli.ts';
import { createContent, deleteContent, updateContent } from '../helpers/content-edits.ts';
import { snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';
import { PAGE_SLUGS } from '../../site/queries/pages.ts';

/**
 * Issue 19.2–19.3: with the backend's change feed, an update in place asks only for the routes a change
 * reaches and keeps the others' pages from the previous output; whatever the edits, it writes the same
 * bytes as a full build of the same content. Random sequences of edits, additions and deletions go
 * through the backend's mutations; after each step the incremental output is compared with a full
 * build into a fresh folder, file by file. SEED picks another sequence (it is printed on failure).
 */

const SEED = Number(process.env.LIVE_EDITS_SEED ?? 20261125);
const STEPS = 6;

let root: string;
let backend: ContentServer;
let token: string;
const env = { SOURCE_DATE_EPOCH: '1780000000' };
const build = async (out: string, ...args: string[]): Promise<string> => buildWith(env, out, ...args);
const buildWith = async (environment: Record<string, string>, out: string, ...args: string[]): Promise<string> => {
  const result = await runCli(
    ['build', '--endpoint', backend.url, '--out', out, '--cache-dir', join(root, 'cache'), '--no-report', ...args],
    { env: environment },
  );
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return result.stdout;
};

/**
 * The full build each update in place is compared with, of the backend's content now, into `out`: in this
 * process (the same build as `site build --full`, without starting a command and its threads for each of
 * the thirty comparisons), so that the updates in place, each a `site build`, are what the file times.
 * Each test's first build, which the updates in place go on from, is one too.
 */
const fullBuild = async (
  out: string,
  options: { search?: boolean; baseUrl?: string; csp?: boolean; environment?: Record<string, string> } = {},
): Promise<void> => {
  const { environment = env, ...user } = options;
  await buildInProcess({ endpoint: backend.url, outDir: out, cacheDir: join(root, 'cache'), full: true, ...user }, environment);
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-live-edits-'));
  for (const cache of ['cache', 'cursor-cache', 'warnings-cache']) await seedBundle(join(root, cache));
  backend = await startContentServer({ now: () => new Date('2026-06-01T12:00:00Z') });
  token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
});

afterAll(async () => {
  await backend?.close();
  await rm(root, { recursive: true, force: true });
});

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Items = Record<string, { id: string; slug: string }[]>;

async function items(): Promise<Items> {
  const data = await gqlData<Record<string, { nodes: { id: string; slug: string }[] }>>(
    backend,
    '{ NewsItem: newsItems(first: 500) { nodes { id slug } } Event: events(first: 500) { nodes { id slug } } Publication: publications(first: 500) { nodes { id slug } } ResearchProject: researchProjects(first: 500) { nodes { id slug } } Course: courses(first: 500) { nodes { id slug } } Document: documents(first: 500) { nodes { id slug } } Person: people(first: 500) { nodes { id slug } } PodcastEpisode: podcastEpisodes(first: 500) { nodes { id slug } } }',
  );
  return Object.fromEntries(Object.entries(data).map(([type, c]) => [type, c.nodes]));
}

/** One random edit through the mutations; returns what it did, for the failure message. */
async function randomEdit(pick: () => number, step: number, n: number): Promise<string> {
  const all = await items();
  const choose = <T>(list: readonly T[]): T => list[Math.floor(pick() * list.length)]!;
  const type = choose(Object.keys(all).filter((t) => all[t]!.length > 1));
  const item = choose(all[type]!);
  const kind = choose(['title', 'title', 'add', 'delete', 'draft', 'date', 'tags', 'name', 'slug', 'page', 'home']);
  const words = `Edit ${step}.${n} ${Math.floor(pick() * 1e6)}`;
  if (kind === 'add') {
    await createContent(
      backend,
      token,
      type,
      type === 'Person' ? { slug: `added-${step}-${n}`, name: words } : { slug: `added-${step}-${n}`, title: words },
    );
    return `add ${type} added-${step}-${n}`;
  }
  if (kind === 'slug') {
    // Its page moves: the old one goes, every list and link follows.
    await updateContent(backend, token, type, item.id, { slug: `${item.slug}-moved-${step}-${n}` });
    return `re-slug ${type} ${item.id}`;
  }
  if (kind === 'page') {
    const slug = choose(Object.values(PAGE_SLUGS));
    const { page } = await gqlData<{ page: { id: string } | null }>(backend, 'query($slug: String!) { page(slug: $slug) { id } }', {
      slug,
    });
    if (page) {
      await updateContent(backend, token, 'Page', page.id, { summary: words });
      return `edit Page ${page.id}`;
    }
  }
  if (kind === 'home') {
    await updateContent(backend, token, 'Home', 'home', { title: words });
    return 'retitle Home';
  }
  if (kind === 'delete' && type !== 'Person') {
    await deleteContent(backend, token, type, item.id);
    return `delete ${type} ${item.id}`;
  }
  if (kind === 'draft' && type !== 'Person') {
    await updateContent(backend, token, type, item.id, { status: 'DRAFT' });
    return `draft ${type} ${item.id}`;
  }
  if (kind === 'date' && type === 'NewsItem') {
    await updateContent(backend, token, type, item.id, {
      date: `20${10 + Math.floor(pick() * 20)}-0${1 + Math.floor(pick() * 9)}-1${Math.floor(pick() * 9)}`,
    });
    return `re-date ${type} ${item.id}`;
  }
  if (kind === 'tags' && type === 'NewsItem') {
    await updateContent(backend, token, type, item.id, { tags: [choose(['research', 'events', 'music', 'art', 'live'])] });
    return `re-tag ${type} ${item.id}`;
  }
  if (type === 'Person') {
    await updateContent(backend, token, type, item.id, { name: words });
    return `rename Person ${item.id}`;
  }
  await updateContent(backend, token, type, item.id, { title: words });
  return `retitle ${type} ${item.id}`;
}

describe('an update in place with the change feed', () => {
  it('writes the same bytes as a full build after every random step of edits, additions and deletions', async () => {
    const out = join(root, 'live');
    await fullBuild(out);
    const pick = random(SEED);
    const done: string[] = [];
    for (let step = 1; step <= STEPS; step++) {
      const edits = 1 + Math.floor(pick() * 3);
      for (let n = 0; n < edits; n++) done.push(await randomEdit(pick, step, n));
      const log = await build(out);
      expect(log, `seed ${SEED}, step ${step}: ${done.join('; ')}`).toMatch(
        /\[changes\] \d+ changes? since the previous build .*: \d+ of \d+ routes asked for/,
      );
      const full = join(root, `full-${step}`);
      await fullBuild(full);
      expect(await snapshotTree(out), `seed ${SEED}, after step ${step}: ${done.join('; ')}`).toEqual(await snapshotTree(full));
      await rm(full, { recursive: true, force: true });
    }
  }, 600_000);

  it('keeps unasked, item by item, the pages of an asked route that no change reaches, with the bytes of a full build after every kind of edit', async () => {
    const out = join(root, 'items');
    await fullBuild(out);
    const steps: string[] = [];
    const sameAsFull = async (): Promise<void> => {
      const full = join(root, 'items-full');
      await fullBuild(full);
      expect(await snapshotTree(out), steps.join('; ')).toEqual(await snapshotTree(full));
      await rm(full, { recursive: true, force: true });
    };
    const asked = (log: string): number => Number(/\[crawl\] (\d+) pages? from \d+ routes?/.exec(log)?.[1] ?? NaN);
    const before = await items();
    const news = before.NewsItem!;
    const people = before.Person!;
    expect(news.length).toBeGreaterThan(20);

    // One title: the article, those that show it as related, the news lists and the home page are asked
    // for; by route and type alone every article was.
    steps.push(`retitle ${news[5]!.id}`);
    await updateContent(backend, token, 'NewsItem', news[5]!.id, { title: 'Retitled, item by item' });
    const log = await build(out);
    expect(log).toMatch(/\[changes\] 1 change since the previous build \(NewsItem\)/);
    expect(asked(log), log).toBeLessThan(news.length / 2);
    expect(log).toMatch(/updated in place: [1-9]\d* pages rendered/);
    await sameAsFull();

    // A title on the news archive's newest page (/news shows the newest 18 of 42, the archive pages 12 each):
    // that page is asked for, page 1 kept by its key (the ids it shows).
    steps.push(`retitle ${news[20]!.id}`);
    await updateContent(backend, token, 'NewsItem', news[20]!.id, { title: 'Retitled on a later list page' });
    const listed = await build(out);
    expect(listed).toMatch(/updated in place: [1-9]\d* pages rendered/);
    expect(await readFile(join(out, 'news/page/2/index.html'), 'utf8')).toContain('Retitled on a later list page');
    await sameAsFull();

    // What moves an article in other articles' related lists: its date, its tags; an article added, one deleted.
    for (const [what, edit] of [
      [`re-date ${news[2]!.id}`, () => updateContent(backend, token, 'NewsItem', news[2]!.id, { date: '2011-01-15' })],
      [`re-tag ${news[7]!.id}`, () => updateContent(backend, token, 'NewsItem', news[7]!.id, { tags: ['music', 'live'] })],
      [
        'add item-level-added',
        () => createContent(backend, token, 'NewsItem', { slug: 'item-level-added', title: 'Added item by item', tags: ['music'] }),
      ],
      [`delete ${news[3]!.id}`, () => deleteContent(backend, token, 'NewsItem', news[3]!.id)],
      // A new slug moves the page: the old one goes, every list and link follows.
      [`re-slug ${news[9]!.id}`, () => updateContent(backend, token, 'NewsItem', news[9]!.id, { slug: `${news[9]!.slug}-moved` })],
      [
        `re-slug Person ${people[0]!.id}`,
        () => updateContent(backend, token, 'Person', people[0]!.id, { slug: `${people[0]!.slug}-moved` }),
      ],
      ['add Person item-level-person', () => createContent(backend, token, 'Person', { slug: 'item-level-person', name: 'Added Person' })],
      ['add Course item-level-course', () => createContent(backend, token, 'Course', { slug: 'item-level-course', title: 'Added Course' })],
      [
        'edit Page about',
        async () =>
          updateContent(
            backend,
            token,
            'Page',
            (await gqlData<{ page: { id: string } }>(backend, '{ page(slug: "about") { id } }')).page.id,
            { summary: 'Edited about page' },
          ),
      ],
      ['retitle Home', () => updateContent(backend, token, 'Home', 'home', { title: 'Home, edited item by item' })],
    ] as const) {
      steps.push(what);
      await edit();
      await build(out);
      await sameAsFull();
    }

    // A draft published: the backend leaves drafts out of a project's publications and a publication's
    // file, so the pages that now show it held no id of it; they are inside another item, so every page
    // of those routes is asked for.
    const related = await gqlData<{
      researchProjects: { nodes: { publications: { id: string }[] }[] };
      publications: { nodes: { file: { id: string } | null }[] };
    }>(backend, '{ researchProjects(first: 500) { nodes { publications { id } } } publications(first: 500) { nodes { file { id } } } }');
    const inProject = related.researchProjects.nodes.find((p) => p.publications.length > 0)!.publications[0]!.id;
    const asFile = related.publications.nodes.find((p) => p.file)!.file!.id;
    for (const [type, id] of [
      ['Publication', inProject],
      ['Document', asFile],
    ] as const) {
      steps.push(`draft ${type} ${id}`);
      await updateContent(backend, token, type, id, { status: 'DRAFT' });
      await build(out);
      await sameAsFull();
      steps.push(`publish ${type} ${id}`);
      await updateContent(backend, token, type, id, { status: 'PUBLISHED' });
      await build(out);
      await sameAsFull();
    }

    // A category's title: the event pages show their category without its id, so every event page is asked for.
    const { eventCategories } = await gqlData<{ eventCategories: { id: string; title: string }[] }>(
      backend,
      '{ eventCategories { id title } }',
    );
    // Put back afterwards: categories are site-wide data, which a later test's restarted backend must find as it was.
    onTestFinished(
      async () => void (await updateContent(backend, token, 'Category', eventCategories[0]!.id, { title: eventCategories[0]!.title })),
    );
    steps.push(`retitle category ${eventCategories[0]!.id}`);
    await updateContent(backend, token, 'Category', eventCategories[0]!.id, { title: 'A category retitled' });
    const events = (await items()).Event!;
    expect(asked(await build(out))).toBeGreaterThan(events.length);
    await sameAsFull();
  }, 600_000);

  it('asks for nothing and writes nothing when nothing changed, and keeps the pages of routes no change reaches', async () => {
    const out = join(root, 'quiet');
    await fullBuild(out);
    const before = await snapshotTree(out);
    expect(await build(out)).toMatch(/nothing any page reads changed since build \S+: the \d+ pages in .* stand as they are/);
    expect(await snapshotTree(out)).toEqual(before);
    const { people } = await gqlData<{ people: { nodes: { id: string }[] } }>(backend, '{ people(first: 1) { nodes { id } } }');
    await updateContent(backend, token, 'Person', people.nodes[0]!.id, { role: 'Edited role' });
    const log = await build(out);
    expect(log).toMatch(/1 change since the previous build \(Person\): (\d+) of (\d+) routes asked for/);
    const [, asked, routes] = /(\d+) of (\d+) routes asked for/.exec(log)!;
    expect(Number(asked)).toBeLessThan(Number(routes));
    expect(log).toMatch(/kept from the previous output \(\d+ read back\), no change reaches them/);
  }, 300_000);

  it('builds the search index when nothing changed but search was turned on, and removes it when turned off: the bytes of a full build', async () => {
    const out = join(root, 'search-toggle');
    const full = join(root, 'search-toggle-full');
    await fullBuild(out, { search: false });
    // Turned on with nothing changed: the index of every searched page, as a full build with search writes it
    // (from the build cache, where the builds before put it).
    expect(await build(out)).toMatch(/\[search\] (?:\d+ entries from \d+ pages|from the build cache)/);
    await fullBuild(full);
    expect(Object.keys(await snapshotTree(out)).some((file) => file.startsWith('_search/'))).toBe(true);
    expect(await snapshotTree(out)).toEqual(await snapshotTree(full));
    // Off again, still nothing changed: the index goes.
    await build(out, '--no-search');
    await rm(full, { recursive: true, force: true });
    await fullBuild(full, { search: false });
    expect(await snapshotTree(out)).toEqual(await snapshotTree(full));
    // And the next build with nothing changed and search as before keeps the folder as it is.
    expect(await build(out, '--no-search')).toMatch(/nothing any page reads changed since build \S+/);
  }, 300_000);

  it('renders every page again when an option changes though the feed reports no change, with the bytes of a full build', async () => {
    const out = join(root, 'option');
    await fullBuild(out);
    expect(await build(out)).toMatch(/nothing any page reads changed since build/);
    // One option every page carries (the site's address), one that decides what is written (the policy header's meta).
    for (const [options, user] of [
      [['--base-url', 'https://elsewhere.example'], { baseUrl: 'https://elsewhere.example' }],
      [['--base-url', 'https://elsewhere.example', '--no-csp'], { baseUrl: 'https://elsewhere.example', csp: false }],
    ] as const) {
      const log = await build(out, ...options);
      expect(log, options.join(' ')).not.toMatch(/nothing any page reads changed|unchanged, kept/);
      const full = join(root, 'option-full');
      await fullBuild(full, user);
      expect(await snapshotTree(out), options.join(' ')).toEqual(await snapshotTree(full));
      await rm(full, { recursive: true, force: true });
    }
  }, 300_000);

  it('dates every page with a new SOURCE_DATE_EPOCH though the feed reports no change, with the bytes of a full build', async () => {
    const out = join(root, 'epoch');
    const full = join(root, 'epoch-full');
    await fullBuild(out);
    const later = { SOURCE_DATE_EPOCH: String(Number(env.SOURCE_DATE_EPOCH) + 3600) };
    expect(await buildWith(later, out)).not.toMatch(/nothing any page reads changed/);
    await fullBuild(full, { environment: later });
    expect(await snapshotTree(out)).toEqual(await snapshotTree(full));
  }, 300_000);

  it("fails, keeping the output, when a kept page's payload is not what the previous build wrote (its data would go into pages uncleaned)", async () => {
    const out = join(root, 'tampered');
    await fullBuild(out);
    // An event page (a route a news edit does not reach) that is not among the pages the state samples
    // (those bytes are checked before the state is trusted at all, so a change there means a full compare).
    const states = await readdir(join(root, 'cache/builds'));
    const saved = (
      await Promise.all(
        states
          .filter((f) => /^[0-9a-f]{16}\.json$/.test(f))
          .map(
            async (f) =>
              JSON.parse(await readFile(join(root, 'cache/builds', f), 'utf8')) as {
                outDir: string;
                sample: [string, string][];
                pages: [string, string][];
              },
          ),
      )
    ).find((state) => state.outDir === out)!;
    const sampled = new Set(saved.sample.map(([path]) => path));
    const path = saved.pages.find(([page, route]) => route === 'event' && !sampled.has(page))![0];
    const file = join(out, path.slice(1), '_payload.json');
    const payload = await readFile(file, 'utf8');
    // Same size, so the state's cheap checks pass: only the hash of what is read back can tell.
    const tampered = payload.replace(/"title":"(.)/, (_m, c: string) => `"title":"${c === 'X' ? 'Y' : 'X'}`);
    expect(tampered).not.toBe(payload);
    await writeFile(file, tampered);
    const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string }[] } }>(backend, '{ newsItems(first: 1) { nodes { id } } }');
    await updateContent(backend, token, 'NewsItem', newsItems.nodes[0]!.id, { summary: 'Edited after the tampering' });
    const result = await runCli(['build', '--endpoint', backend.url, '--out', out, '--cache-dir', join(root, 'cache'), '--no-report'], {
      env,
    });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      `[KeptPageChanged] The previous output's ${path.slice(1)}/_payload.json (page ${path}) is not what the previous build wrote`,
    );
    expect(await readFile(file, 'utf8')).toBe(tampered);
    expect(await build(out, '--full')).toMatch(/wrote \d+ pages/);
    expect(await readFile(file, 'utf8')).not.toBe(tampered);
  }, 300_000);

  it('reads back, without the search index, only the kept pages an output needs, and fails on one changed on disk since', async () => {
    const out = join(root, 'unread');
    await fullBuild(out, { search: false });
    const newest = await gqlData<{ newsItems: { nodes: { id: string; slug: string }[] } }>(
      backend,
      '{ newsItems(first: 20) { nodes { id slug } } }',
    );
    const [first, ...others] = newest.newsItems.nodes;
    await updateContent(backend, token, 'NewsItem', first!.id, { summary: 'Edited, the rest kept unread' });
    const log = await build(out, '--no-search');
    const [, kept, readBack] = /(\d+) kept from the previous output \((\d+) read back\)/.exec(log) ?? [];
    // The news feed reads back the kept articles among its 20; no other kept page is read.
    expect(Number(kept), log).toBeGreaterThan(100);
    expect(Number(readBack), log).toBeLessThanOrEqual(20);
    const full = join(root, 'unread-full');
    await fullBuild(full, { search: false });
    expect(await snapshotTree(out)).toEqual(await snapshotTree(full));
    await rm(full, { recursive: true, force: true });

    // An article in the feed that does not show the edited one (so it is kept, not asked for): its
    // payload, changed on disk (same size), is read back for the feed and refused.
    const payloads = await Promise.all(
      others.map(async (item) => ({ item, payload: await readFile(join(out, 'news', item.slug, '_payload.json'), 'utf8') })),
    );
    // Not one of the pages whose bytes are checked before the state is trusted at all (a change there means a full build).
    const states = await readdir(join(root, 'cache/builds'));
    const saved = (
      await Promise.all(
        states
          .filter((f) => /^[0-9a-f]{16}\.json$/.test(f))
          .map(
            async (f) =>
              JSON.parse(await readFile(join(root, 'cache/builds', f), 'utf8')) as { outDir: string; sample: [string, string][] },
          ),
      )
    ).find((state) => state.outDir === out)!;
    const sampled = new Set(saved.sample.map(([path]) => path));
    const { item: second, payload } = payloads.find(
      ({ item, payload }) => !payload.includes(`"id":"${first!.id}"`) && !sampled.has(`/news/${item.slug}`),
    )!;
    const file = join(out, 'news', second.slug, '_payload.json');
    const tampered = payload.replace(/"summary":"(.)/, (_m, c: string) => `"summary":"${c === 'X' ? 'Y' : 'X'}`);
    expect(tampered).not.toBe(payload);
    await writeFile(file, tampered);
    await updateContent(backend, token, 'NewsItem', first!.id, { summary: 'Edited again' });
    const result = await runCli(
      ['build', '--endpoint', backend.url, '--out', out, '--cache-dir', join(root, 'cache'), '--no-report', '--no-search'],
      { env },
    );
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      `[KeptPageChanged] The previous output's news/${second.slug}/_payload.json (page /news/${second.slug}) is not what the previous build wrote`,
    );
    expect(await readFile(file, 'utf8')).toBe(tampered);
  }, 300_000);

  it('renders every page again, from the pages it kept, when only the site-wide data changed (no route asks for it), with the bytes of a full build', async () => {
    const out = join(root, 'site-data');
    await fullBuild(out);
    // Put back afterwards: the backend's restart below starts from the original content, and must find the same site data.
    const { site } = await gqlData<{ site: { tagline: string } }>(backend, '{ site { tagline } }');
    onTestFinished(async () => void (await updateContent(backend, token, 'Site', 'site', { tagline: site.tagline })));
    await updateContent(backend, token, 'Site', 'site', { tagline: 'A tagline edited live' });
    const log = await build(out);
    // Site is no route's content type: no route is asked for, but the build id moved, so every page renders again.
    expect(log).toMatch(/1 change since the previous build \(Site\): 0 of \d+ routes asked for/);
    expect(log).not.toMatch(/stand as they are/);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('A tagline edited live');
    const full = join(root, 'site-data-full');
    await fullBuild(full);
    const [incremental, whole] = await Promise.all([snapshotTree(out), snapshotTree(full)]);
    expect(incremental).toEqual(whole);
  }, 300_000);

  it('moves the cursor of a build that changed nothing without writing the build state again; the next build finds what changed since', async () => {
    // A backend of its own on the real clock: its cursor holds the time it was given, so it moves at every build.
    const live = await startContentServer();
    try {
      const out = join(root, 'cursor');
      const cache = join(root, 'cursor-cache');
      const run = async (): Promise<string> => {
        const result = await runCli(['build', '--endpoint', live.url, '--out', out, '--cache-dir', cache, '--no-report'], { env });
        expect(result.code, result.stdout + result.stderr).toBe(0);
        return result.stdout;
      };
      await run();
      const files = await readdir(join(cache, 'builds'));
      const stateFile = join(cache, 'builds', files.find((f) => /^[0-9a-f]{16}\.json$/.test(f))!);
      const state = await readFile(stateFile, 'utf8');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await run()).toMatch(/0 changes since the previous build[\s\S]*stand as they are/);
      expect(await readFile(stateFile, 'utf8')).toBe(state);
      const moved = JSON.parse(await readFile(stateFile.replace(/\.json$/, '.cursor.json'), 'utf8')) as { cursor: string };
      expect(moved.cursor).not.toBe((JSON.parse(state) as { feed: { cursor: string } }).feed.cursor);
      // An edit after it is found, and only it.
      const { people } = await gqlData<{ people: { nodes: { id: string }[] } }>(live, '{ people(first: 1) { nodes { id } } }');
      await updateContent(live, await loginToken(live, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password), 'Person', people.nodes[0]!.id, {
        role: 'Edited after a quiet build',
      });
      expect(await run()).toMatch(/1 change since the previous build \(Person\)[\s\S]*updated in place/);
      // That build saved the state afresh: the cursor moved for the state before it no longer counts.
      expect(await run()).toMatch(/0 changes since the previous build/);
    } finally {
      await live.close();
    }
  }, 300_000);

  it("reports, when nothing changed, the content checks' warnings of the build it keeps: what a full build would, whatever was put into the folder since", async () => {
    const live = await startContentServer({ now: () => new Date('2026-06-01T12:00:00Z') });
    try {
      const out = join(root, 'warnings');
      const run = async (dir: string): Promise<string> => {
        const result = await runCli(
          ['build', '--endpoint', live.url, '--out', dir, '--cache-dir', join(root, 'warnings-cache'), '--no-report'],
          { env },
        );
        expect(result.code, result.stdout + result.stderr).toBe(0);
        // Warnings go to stderr.
        return result.stdout + result.stderr;
      };
      const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string }[] } }>(live, '{ newsItems(first: 1) { nodes { id } } }');
      await updateContent(live, await loginToken(live, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password), 'NewsItem', newsItems.nodes[0]!.id, {
        body: '<p>See <a href="/files/programme-2026.pdf">the programme</a>.</p>',
      });
      const warned = /\[check\] .*links to \/files\/programme-2026\.pdf, which is not a page, a redirect or a file of this build/;
      expect(await run(out)).toMatch(warned);
      // The file turns up in the output folder, put there by hand: a full build would not have it.
      await mkdir(join(out, 'files'), { recursive: true });
      await writeFile(join(out, 'files/programme-2026.pdf'), '%PDF-1.4');
      const quiet = await run(out);
      expect(quiet).toMatch(/stand as they are/);
      expect(quiet).toMatch(warned);
      expect(await run(join(root, 'warnings-full'))).toMatch(warned);
    } finally {
      await live.close();
    }
  }, 300_000);

  it('asks for every page and compares when the cursor is from another backend process (a restart at the same address)', async () => {
    const out = join(root, 'restart');
    await fullBuild(out);
    const port = Number(new URL(backend.url).port);
    await backend.close();
    backend = await startContentServer({ port, now: () => new Date('2026-06-01T12:00:00Z') });
    const log = await build(out);
    expect(log).toMatch(/change feed no longer reaches back to the previous build: every page is asked for and compared/);
    expect(log).not.toMatch(/kept from the previous output/);
    expect(log).toMatch(/updated in place: \d+ pages rendered/);
  }, 300_000);
});
