import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { CHANGES_QUERY, changeFeed } from '../../site/queries/changes.ts';
import { gql, gqlData, loginToken } from './client.ts';
import { createContent, deleteContent, updateContent } from '../helpers/content-edits.ts';

/**
 * Issue 19.1: editors change the embedded backend's content live through GraphQL mutations (an editor's
 * token required), every query answers with the edit at once, and the `changes` query says what changed
 * since a cursor, as the build's change feed (site/queries/changes.ts) reads it.
 */

let server: ContentServer;
let token: string;
let clock = Date.parse('2026-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startContentServer({ now: () => new Date(clock) });
  token = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
});
afterAll(() => server.close());

const feed = async (since: string | null, withToken = false) =>
  changeFeed.read(await gqlData(server, CHANGES_QUERY, { since }, withToken ? token : undefined));
const firstNews = async () =>
  (
    await gqlData<{ newsItems: { nodes: { id: string; slug: string; title: string }[] } }>(
      server,
      '{ newsItems(first: 3) { nodes { id slug title } } }',
    )
  ).newsItems.nodes;

describe('the content mutations', () => {
  it('are refused without an editor token, naming the mutation and what to send, and change nothing', async () => {
    const [item] = await firstNews();
    for (const token of [undefined, 'not-a-token']) {
      const result = await gql(
        server,
        'mutation { updateContent(type: "NewsItem", id: "' + item!.id + '", fields: "{\\"title\\":\\"x\\"}") { id } }',
        {},
        token,
      );
      expect(result.errors?.[0]?.message).toMatch(/updateContent needs an editor's token/);
      expect(result.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect((await firstNews())[0]!.title).toBe(item!.title);
  });

  it('refuse to add or delete an item without an editor token or with a made-up one, and change nothing', async () => {
    const [item] = await firstNews();
    const count = async () =>
      (await gqlData<{ newsItems: { totalCount: number } }>(server, '{ newsItems { totalCount } }', {}, token)).newsItems.totalCount;
    const before = await count();
    const start = await feed(null, true);
    // No token, one that is not a token, and one shaped like a real token (48 hex digits) that no login gave.
    for (const made of [undefined, 'not-a-token', 'ab'.repeat(24)]) {
      const created = await gql(
        server,
        'mutation { createContent(type: "NewsItem", fields: "{\\"slug\\":\\"refused-add\\"}") { id } }',
        {},
        made,
      );
      expect(created.errors?.[0]?.message, String(made)).toMatch(/createContent needs an editor's token/);
      expect(created.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      const deleted = await gql(server, `mutation { deleteContent(type: "NewsItem", id: "${item!.id}") { id } }`, {}, made);
      expect(deleted.errors?.[0]?.message, String(made)).toMatch(/deleteContent needs an editor's token/);
      expect(deleted.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect(await count()).toBe(before);
    expect(
      await gqlData(server, `{ kept: newsItem(slug: "${item!.slug}") { id } added: newsItem(slug: "refused-add") { id } }`, {}, token),
    ).toEqual({ kept: { id: item!.id }, added: null });
    expect((await feed(start.cursor, true)).changes).toEqual([]);
  });

  it('change fields of an item, which every query shows at once: the item, its list, and what refers to it', async () => {
    const [item] = await firstNews();
    const change = await updateContent(server, token, 'NewsItem', item!.id, { title: 'A title edited live', tags: ['live'] });
    expect(change).toEqual({ type: 'NewsItem', id: item!.id, slug: item!.slug, previousSlug: null, kind: 'UPSERT' });
    const single = await gqlData<{ newsItem: { title: string; tags: string[] } }>(
      server,
      `{ newsItem(slug: "${item!.slug}") { title tags } }`,
    );
    expect(single.newsItem).toEqual({ title: 'A title edited live', tags: ['live'] });
    expect((await firstNews())[0]!.title).toBe('A title edited live');

    const { people } = await gqlData<{ people: { nodes: { id: string; name: string }[] } }>(
      server,
      '{ people(first: 100) { nodes { id name } } }',
    );
    const { publications } = await gqlData<{
      publications: { nodes: { slug: string; category: { slug: string }; authors: { id: string }[] }[] };
    }>(server, '{ publications(first: 200) { nodes { slug category { slug } authors { id } } } }');
    const authored = publications.nodes.find((p) => p.authors.length > 0)!;
    await updateContent(server, token, 'Person', authored.authors[0]!.id, { name: 'Renamed Person' });
    const after = await gqlData<{ publication: { authors: { id: string; name: string }[] } }>(
      server,
      `{ publication(category: "${authored.category.slug}", slug: "${authored.slug}") { authors { id name } } }`,
    );
    expect(after.publication.authors.find((a) => a.id === authored.authors[0]!.id)?.name).toBe('Renamed Person');
    expect(people.nodes.length).toBeGreaterThan(0);
  });

  it('add an item, which the lists and their counts show, and delete it again', async () => {
    const count = async () =>
      (await gqlData<{ newsItems: { totalCount: number } }>(server, '{ newsItems { totalCount } }')).newsItems.totalCount;
    const before = await count();
    const added = await createContent(server, token, 'NewsItem', { slug: 'added-live', title: 'Added live', date: '2099-01-01' });
    expect(added).toMatchObject({ type: 'NewsItem', slug: 'added-live', kind: 'UPSERT' });
    expect(await count()).toBe(before + 1);
    expect((await firstNews())[0]).toEqual({ id: added.id, slug: 'added-live', title: 'Added live' });
    expect(await deleteContent(server, token, 'NewsItem', added.id)).toMatchObject({ id: added.id, kind: 'DELETE' });
    expect(await count()).toBe(before);
    expect((await gqlData<{ newsItem: null }>(server, '{ newsItem(slug: "added-live") { id } }')).newsItem).toBeNull();
  });

  it('work for every content type', async () => {
    const ids = await gqlData<Record<string, { nodes: { id: string }[] }>>(
      server,
      '{ events { nodes { id } } publications { nodes { id } } courses { nodes { id } } researchProjects { nodes { id } } documents { nodes { id } } podcastEpisodes { nodes { id } } }',
    );
    const types: [string, string][] = [
      ['Event', ids.events!.nodes[0]!.id],
      ['Publication', ids.publications!.nodes[0]!.id],
      ['Course', ids.courses!.nodes[0]!.id],
      ['ResearchProject', ids.researchProjects!.nodes[0]!.id],
      ['Document', ids.documents!.nodes[0]!.id],
      ['PodcastEpisode', ids.podcastEpisodes!.nodes[0]!.id],
    ];
    for (const [type, id] of types)
      expect(await updateContent(server, token, type, id, { title: `${type} edited` }), type).toMatchObject({ type, id, kind: 'UPSERT' });
    const { page } = await gqlData<{ page: { id: string } }>(server, '{ page(slug: "about") { id } }');
    expect(await updateContent(server, token, 'Page', page.id, { summary: 'Edited' })).toMatchObject({ type: 'Page' });
    const { eventCategories } = await gqlData<{ eventCategories: { id: string }[] }>(server, '{ eventCategories { id } }');
    expect(await updateContent(server, token, 'Category', eventCategories[0]!.id, { title: 'Renamed' })).toMatchObject({
      type: 'Category',
    });
    for (const [type] of types) {
      const added = await createContent(server, token, type, { slug: `new-${type.toLowerCase()}` });
      expect(await deleteContent(server, token, type, added.id)).toMatchObject({ type, kind: 'DELETE' });
    }
  });

  it('add, change and delete a person and an about page, which the queries and the change feed show', async () => {
    const person = async (id: string) => {
      const { people } = await gqlData<{
        people: { totalCount: number; nodes: { id: string; slug: string; name: string; role: string }[] };
      }>(server, '{ people(first: 500) { totalCount nodes { id slug name role } } }');
      expect(people.nodes.length, 'one page holds every person').toBe(people.totalCount);
      return people.nodes.find((p) => p.id === id) ?? null;
    };
    const page = async (slug: string) =>
      (
        await gqlData<{ page: { id: string; slug: string; title: string; summary: string } | null }>(
          server,
          `{ page(slug: "${slug}") { id slug title summary } }`,
        )
      ).page;
    const start = await feed(null);

    const addedPerson = await createContent(server, token, 'Person', { slug: 'live-person', name: 'Ada Live', role: 'Lecturer' });
    expect(addedPerson).toMatchObject({ type: 'Person', slug: 'live-person', kind: 'UPSERT' });
    expect(await person(addedPerson.id)).toEqual({ id: addedPerson.id, slug: 'live-person', name: 'Ada Live', role: 'Lecturer' });
    const addedPage = await createContent(server, token, 'Page', { slug: 'live-page', title: 'A page added live', summary: 'Added live' });
    expect(addedPage).toMatchObject({ type: 'Page', slug: 'live-page', kind: 'UPSERT' });
    expect(await page('live-page')).toEqual({ id: addedPage.id, slug: 'live-page', title: 'A page added live', summary: 'Added live' });

    await updateContent(server, token, 'Person', addedPerson.id, { name: 'Ada Edited' });
    expect((await person(addedPerson.id))?.name).toBe('Ada Edited');
    await updateContent(server, token, 'Page', addedPage.id, { title: 'A page edited live' });
    expect((await page('live-page'))?.title).toBe('A page edited live');

    expect(await deleteContent(server, token, 'Person', addedPerson.id)).toMatchObject({
      type: 'Person',
      id: addedPerson.id,
      kind: 'DELETE',
    });
    expect(await person(addedPerson.id)).toBeNull();
    expect(await deleteContent(server, token, 'Page', addedPage.id)).toMatchObject({ type: 'Page', id: addedPage.id, kind: 'DELETE' });
    expect(await page('live-page')).toBeNull();

    expect((await feed(start.cursor)).changes).toEqual([
      { type: 'Person', id: addedPerson.id, kind: 'upsert' },
      { type: 'Page', id: addedPage.id, kind: 'upsert' },
      { type: 'Person', id: addedPerson.id, kind: 'upsert' },
      { type: 'Page', id: addedPage.id, kind: 'upsert' },
      { type: 'Person', id: addedPerson.id, kind: 'delete' },
      { type: 'Page', id: addedPage.id, kind: 'delete' },
    ]);
  });

  it('refuse a bad edit with an error naming the type, item or field, and change nothing', async () => {
    const [item] = await firstNews();
    const refused = async (mutation: string, pattern: RegExp) => {
      const result = await gql(server, mutation, {}, token);
      expect(result.errors?.[0]?.message, mutation).toMatch(pattern);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    };
    await refused('mutation { updateContent(type: "Nope", id: "x", fields: "{}") { id } }', /Unknown content type 'Nope'/);
    await refused('mutation { updateContent(type: "NewsItem", id: "missing", fields: "{}") { id } }', /No NewsItem has the id 'missing'/);
    await refused(
      `mutation { updateContent(type: "NewsItem", id: "${item!.id}", fields: "{\\"colour\\":1}") { id } }`,
      /A NewsItem has no field 'colour'/,
    );
    await refused(
      `mutation { updateContent(type: "NewsItem", id: "${item!.id}", fields: "{\\"title\\":1}") { id } }`,
      /'title' of a NewsItem holds text/,
    );
    await refused(`mutation { updateContent(type: "NewsItem", id: "${item!.id}", fields: "not json") { id } }`, /fields is not JSON/);
    await refused(
      `mutation { createContent(type: "NewsItem", fields: "{\\"slug\\":\\"${item!.slug}\\"}") { id } }`,
      /slug '.*' is taken by NewsItem/,
    );
    await refused(
      `mutation { updateContent(type: "NewsItem", id: "${item!.id}", fields: "{\\"slug\\":\\"../x\\"}") { id } }`,
      /is not one/,
    );
    expect((await firstNews())[0]!.slug).toBe(item!.slug);
  });
});

describe('the change feed', () => {
  it('gives a cursor, then the changes since it in order, then nothing new', async () => {
    const start = await feed(null);
    expect(start).toMatchObject({ expired: false, changes: [] });
    const [a, b] = await firstNews();
    await updateContent(server, token, 'NewsItem', a!.id, { summary: 'one' });
    const added = await createContent(server, token, 'NewsItem', { slug: 'feed-added' });
    await updateContent(server, token, 'NewsItem', b!.id, { summary: 'two' });
    await deleteContent(server, token, 'NewsItem', added.id);
    const next = await feed(start.cursor);
    expect(next.changes).toEqual([
      { type: 'NewsItem', id: a!.id, kind: 'upsert' },
      { type: 'NewsItem', id: added.id, kind: 'upsert' },
      { type: 'NewsItem', id: b!.id, kind: 'upsert' },
      { type: 'NewsItem', id: added.id, kind: 'delete' },
    ]);
    expect(await feed(next.cursor)).toMatchObject({ expired: false, changes: [] });
  });

  it('answers a cursor it did not give (another backend process) or cannot read as expired, with a cursor to start again from', async () => {
    const other = await startContentServer();
    try {
      const theirs = changeFeed.read(await gqlData(other, CHANGES_QUERY, { since: null }));
      for (const since of [theirs.cursor, 'garbage', '']) {
        const answer = await feed(since);
        expect(answer, since).toMatchObject({ expired: true, changes: [] });
        expect(await feed(answer.cursor)).toMatchObject({ expired: false });
      }
    } finally {
      await other.close();
    }
  });

  it('leaves out drafts that stay drafts for a reader without drafts, and shows an item made a draft as deleted', async () => {
    const start = await feed(null);
    const draft = await createContent(server, token, 'NewsItem', { slug: 'feed-draft', status: 'DRAFT' });
    const [item] = await firstNews();
    await updateContent(server, token, 'NewsItem', item!.id, { status: 'DRAFT' });
    expect((await feed(start.cursor)).changes).toEqual([{ type: 'NewsItem', id: item!.id, kind: 'delete' }]);
    expect((await feed(start.cursor, true)).changes).toEqual([
      { type: 'NewsItem', id: draft.id, kind: 'upsert' },
      { type: 'NewsItem', id: item!.id, kind: 'upsert' },
    ]);
    await updateContent(server, token, 'NewsItem', item!.id, { status: 'PUBLISHED' });
  });

  it("counts an event that started since the cursor as changed: the home page's upcoming events moved on", async () => {
    const { events } = await gqlData<{ events: { nodes: { id: string; startsAt: string }[] } }>(
      server,
      '{ events(first: 100) { nodes { id startsAt } } }',
    );
    const next = events.nodes.find((e) => Date.parse(e.startsAt) > clock)!;
    const start = await feed(null);
    clock = Date.parse(next.startsAt);
    const answer = await feed(start.cursor);
    expect(answer.changes).toContainEqual({ type: 'Event', id: next.id, kind: 'upsert' });
    expect((await feed(answer.cursor)).changes).toEqual([]);
  });
});

describe('live edits on a scaled site (records with computed fields)', () => {
  it('edit, add and delete items whose fields the scaled content computes', async () => {
    const scaled = await startContentServer({ scale: 300 });
    try {
      const editor = await loginToken(scaled, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
      const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string; slug: string }[] } }>(
        scaled,
        '{ newsItems(first: 2) { nodes { id slug } } }',
      );
      const [a, b] = newsItems.nodes;
      await updateContent(scaled, editor, 'NewsItem', a!.id, { title: 'Scaled and edited', summary: 'Edited summary', tags: ['edited'] });
      const edited = await gqlData<{ newsItem: { title: string; summary: string; tags: string[]; body: string } }>(
        scaled,
        `{ newsItem(slug: "${a!.slug}") { title summary tags body } }`,
      );
      expect(edited.newsItem).toMatchObject({ title: 'Scaled and edited', summary: 'Edited summary', tags: ['edited'] });
      expect(edited.newsItem.body.length).toBeGreaterThan(100);
      const added = await createContent(scaled, editor, 'NewsItem', { slug: 'scaled-added', date: '2099-01-01' });
      const copy = await gqlData<{ newsItem: { id: string; body: string; summary: string } }>(
        scaled,
        '{ newsItem(slug: "scaled-added") { id body summary } }',
      );
      expect(copy.newsItem.id).toBe(added.id);
      expect(copy.newsItem.body.length).toBeGreaterThan(100);
      await deleteContent(scaled, editor, 'NewsItem', b!.id);
      expect((await gqlData<{ newsItem: null }>(scaled, `{ newsItem(slug: "${b!.slug}") { id } }`)).newsItem).toBeNull();
      const { people } = await gqlData<{ people: { nodes: { id: string }[] } }>(scaled, '{ people(first: 1) { nodes { id } } }');
      await deleteContent(scaled, editor, 'Person', people.nodes[0]!.id);
    } finally {
      await scaled.close();
    }
  });
});

describe('edits stay in their own backend', () => {
  it('leave another backend in the same process, and the next content set made, as they were', async () => {
    const other = await startContentServer({ scale: 100 });
    try {
      const read = async (target: ContentServer) => gqlData(target, '{ eventCategories { id title } page(slug: "about") { id title } }');
      const before = await read(other);
      const { eventCategories, page } = (await read(server)) as { eventCategories: { id: string }[]; page: { id: string } };
      await updateContent(server, token, 'Category', eventCategories[0]!.id, { title: 'Renamed in one backend' });
      await updateContent(server, token, 'Page', page.id, { title: 'Retitled in one backend' });
      expect(await read(other)).toEqual(before);
      const fresh = await startContentServer();
      try {
        expect(JSON.stringify(await read(fresh))).not.toMatch(/in one backend/);
      } finally {
        await fresh.close();
      }
    } finally {
      await other.close();
    }
  });
});

describe('the media of drafts follow the edits', () => {
  it("serve a published draft's image to anyone, and hide the image of an item made a draft from all but an editor", async () => {
    const own = await startContentServer();
    try {
      const editor = await loginToken(own, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
      const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string; status: string; image: { url: string } | null }[] } }>(
        own,
        '{ newsItems(first: 500) { nodes { id status image { url } } } }',
        {},
        editor,
      );
      const images = newsItems.nodes.filter((n) => n.image);
      const draft = images.find((n) => n.status === 'DRAFT')!;
      // An image only this item shows, so making it a draft leaves no published item showing it.
      const published = images.find((n) => n.status === 'PUBLISHED' && images.filter((m) => m.image!.url === n.image!.url).length === 1)!;
      const status = async (url: string, withToken = false) =>
        (await fetch(own.origin + url.split('?')[0], withToken ? { headers: { authorization: `Bearer ${editor}` } } : {})).status;

      expect(await status(draft.image!.url)).toBe(404);
      await updateContent(own, editor, 'NewsItem', draft.id, { status: 'PUBLISHED' });
      expect(await status(draft.image!.url)).toBe(200);

      expect(await status(published.image!.url)).toBe(200);
      await updateContent(own, editor, 'NewsItem', published.id, { status: 'DRAFT' });
      expect(await status(published.image!.url)).toBe(404);
      expect(await status(published.image!.url, true)).toBe(200);
      // An editor's browser gets the keyed URL an <img> can load.
      const seen = await fetch(own.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000', authorization: `Bearer ${editor}` },
        body: JSON.stringify({ query: '{ newsItems(first: 500) { nodes { id image { url } } } }' }),
      });
      const keyed = (
        (await seen.json()) as { data: { newsItems: { nodes: { id: string; image: { url: string } | null }[] } } }
      ).data.newsItems.nodes.find((n) => n.id === published.id)!.image!.url;
      expect(keyed).toMatch(/\?key=/);
      expect((await fetch(own.origin + keyed)).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('edits are checked against the schema', () => {
  let own: ContentServer;
  let editor: string;
  beforeAll(async () => {
    own = await startContentServer();
    editor = await loginToken(own, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
  });
  afterAll(() => own.close());
  const refused = async (target: ContentServer, type: string, id: string, fields: Record<string, unknown>, pattern: RegExp) => {
    const result = await gql(
      target,
      'mutation($type: String!, $id: ID!, $fields: String!) { updateContent(type: $type, id: $id, fields: $fields) { id } }',
      { type, id, fields: JSON.stringify(fields) },
      editor,
    );
    expect(result.errors?.[0]?.message, JSON.stringify(fields)).toMatch(pattern);
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  };

  it('refuse a value the API could not answer: a date that is no day, a fraction for a whole number, an unknown status', async () => {
    const { newsItems, courses, events } = await gqlData<{
      newsItems: { nodes: { id: string; date: string }[] };
      courses: { nodes: { id: string }[] };
      events: { nodes: { id: string }[] };
    }>(own, '{ newsItems(first: 1) { nodes { id date } } courses(first: 1) { nodes { id } } events(first: 1) { nodes { id } } }');
    const news = newsItems.nodes[0]!;
    await refused(own, 'NewsItem', news.id, { date: 'yesterday' }, /'date' of a NewsItem: Date cannot represent "yesterday"/);
    await refused(own, 'NewsItem', news.id, { date: '2026-02-31' }, /"2026-02-31" is no such day/);
    await refused(own, 'NewsItem', news.id, { status: 'ARCHIVED' }, /'status' of a NewsItem is one of PUBLISHED, DRAFT/);
    await refused(own, 'NewsItem', news.id, { tags: ['ok', 3] }, /'tags' of a NewsItem \(item 2\) holds text/);
    await refused(own, 'NewsItem', news.id, { title: null }, /'title' of a NewsItem cannot be null/);
    await refused(own, 'Course', courses.nodes[0]!.id, { credits: 7.5 }, /'credits' of a Course holds a whole number; 7.5/);
    await refused(own, 'Event', events.nodes[0]!.id, { startsAt: '2026-03-01' }, /'startsAt' of an Event: DateTime cannot represent/);
    await refused(
      own,
      'Event',
      events.nodes[0]!.id,
      { category: 'no-such' },
      /No category of Event has the slug 'no-such'.*use one of lectures/,
    );
    const after = await gqlData<{ newsItem: { date: string } }>(
      own,
      `{ newsItem(slug: "${(await gqlData<{ newsItems: { nodes: { slug: string }[] } }>(own, '{ newsItems(first: 1) { nodes { slug } } }')).newsItems.nodes[0]!.slug}") { date } }`,
    );
    expect(after.newsItem.date).toBe(news.date);
  });

  it("refuse what a record holds but its GraphQL type does not declare (the scaled content's internals)", async () => {
    const scaled = await startContentServer({ scale: 100 });
    try {
      const token = await loginToken(scaled, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
      const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string }[] } }>(scaled, '{ newsItems(first: 1) { nodes { id } } }');
      for (const field of ['index', 'topic', 'context']) {
        const result = await gql(
          scaled,
          'mutation($id: ID!, $fields: String!) { updateContent(type: "NewsItem", id: $id, fields: $fields) { id } }',
          { id: newsItems.nodes[0]!.id, fields: JSON.stringify({ [field]: 1 }) },
          token,
        );
        expect(result.errors?.[0]?.message).toMatch(
          new RegExp(`A NewsItem has no field '${field}': its fields are slug, title, updatedAt`),
        );
      }
      expect(
        (await gqlData<{ newsItems: { nodes: { id: string }[] } }>(scaled, '{ newsItems(first: 1) { nodes { id } } }')).newsItems.nodes[0]!
          .id,
      ).toBe(newsItems.nodes[0]!.id);
    } finally {
      await scaled.close();
    }
  });

  it('set references by id (authors, a project’s publications), images and page sections as objects, and refuse an unknown id', async () => {
    const data = await gqlData<{
      people: { nodes: { id: string; name: string }[] };
      publications: { nodes: { id: string; slug: string; title: string; category: { slug: string } }[] };
      researchProjects: { nodes: { id: string; slug: string }[] };
      newsItems: { nodes: { id: string; slug: string }[] };
    }>(
      own,
      '{ people(first: 2) { nodes { id name } } publications(first: 2) { nodes { id slug title category { slug } } } researchProjects(first: 1) { nodes { id slug } } newsItems(first: 1) { nodes { id slug } } }',
    );
    const [p1, p2] = data.people.nodes;
    const [pub1, pub2] = data.publications.nodes;
    const project = data.researchProjects.nodes[0]!;
    await updateContent(own, editor, 'Publication', pub1!.id, { authors: [p2!.id, p1!.id] });
    const authored = await gqlData<{ publication: { authors: { name: string }[] } }>(
      own,
      `{ publication(category: "${pub1!.category.slug}", slug: "${pub1!.slug}") { authors { name } } }`,
    );
    expect(authored.publication.authors.map((a) => a.name)).toEqual([p2!.name, p1!.name]);
    await refused(
      own,
      'Publication',
      pub1!.id,
      { authors: ['nobody'] },
      /No Person has the id 'nobody' \('authors' of a Publication \(item 1\)\)/,
    );

    await updateContent(own, editor, 'ResearchProject', project.id, { publications: [pub1!.id, pub2!.id] });
    const projectPublications = async () =>
      (
        await gqlData<{ researchProject: { publications: { id: string; title: string }[] } }>(
          own,
          `{ researchProject(slug: "${project.slug}") { publications { id title } } }`,
        )
      ).researchProject.publications;
    expect((await projectPublications()).map((p) => p.id)).toEqual([pub1!.id, pub2!.id]);
    await updateContent(own, editor, 'Publication', pub2!.id, { title: 'Retitled, as the project shows' });
    expect((await projectPublications())[1]!.title).toBe('Retitled, as the project shows');
    await deleteContent(own, editor, 'Publication', pub1!.id);
    expect((await projectPublications()).map((p) => p.id)).toEqual([pub2!.id]);

    const news = data.newsItems.nodes[0]!;
    // A file the backend holds (an image field names one of its /media files).
    const held = (
      await gqlData<{ newsItems: { nodes: { image: { url: string } | null }[] } }>(
        own,
        '{ newsItems(first: 50) { nodes { image { url } } } }',
      )
    ).newsItems.nodes.find((n) => n.image)!.image!.url;
    const image = { url: held, alt: 'A new picture', width: 1200, height: 800 };
    await updateContent(own, editor, 'NewsItem', news.id, { image });
    expect(
      (await gqlData<{ newsItem: { image: unknown } }>(own, `{ newsItem(slug: "${news.slug}") { image { url alt width height } } }`))
        .newsItem.image,
    ).toEqual(image);
    await refused(
      own,
      'NewsItem',
      news.id,
      { image: { url: '/media/x.svg', width: 1, height: 1 } },
      /An Image in 'image' of a NewsItem needs its field 'alt'/,
    );
    await updateContent(own, editor, 'NewsItem', news.id, { image: null });
    expect(
      (await gqlData<{ newsItem: { image: unknown } }>(own, `{ newsItem(slug: "${news.slug}") { image { url } } }`)).newsItem.image,
    ).toBeNull();

    await updateContent(own, editor, 'Page', 'page-contact', { sections: [{ id: 'only', title: 'Only section', body: '<p>One</p>' }] });
    expect(
      (await gqlData<{ page: { sections: unknown[] } }>(own, '{ page(slug: "contact") { sections { id title body } } }')).page.sections,
    ).toEqual([{ id: 'only', title: 'Only section', body: '<p>One</p>' }]);
  });

  it("move an event to another category: both categories' lists and counts show it, and a slug taken there is refused", async () => {
    const count = async (category: string) =>
      (
        await gqlData<{ events: { totalCount: number; nodes: { id: string; slug: string }[] } }>(
          own,
          `{ events(category: "${category}", first: 500) { totalCount nodes { id slug } } }`,
        )
      ).events;
    const lectures = await count('lectures');
    const concerts = await count('concerts');
    const moved = lectures.nodes[0]!;
    await updateContent(own, editor, 'Event', moved.id, { category: 'concerts' });
    expect((await count('lectures')).totalCount).toBe(lectures.totalCount - 1);
    expect((await count('concerts')).nodes.map((e) => e.id)).toContain(moved.id);
    expect(
      await gqlData<{ a: null; b: { id: string } }>(
        own,
        `{ a: event(category: "lectures", slug: "${moved.slug}") { id } b: event(category: "concerts", slug: "${moved.slug}") { id } }`,
      ),
    ).toEqual({ a: null, b: { id: moved.id } });
    await refused(
      own,
      'Event',
      moved.id,
      { slug: concerts.nodes[0]!.slug },
      new RegExp(`slug '${concerts.nodes[0]!.slug}' is taken by Event ${concerts.nodes[0]!.id} in the category concerts`),
    );
  });

  it("edit and delete a publication's file (a Document no list holds), and delete a category from the right list", async () => {
    const { publications, documents } = await gqlData<{
      publications: { nodes: { slug: string; category: { slug: string }; file: { id: string } | null }[] };
      documents: { totalCount: number };
    }>(own, '{ publications(first: 100) { nodes { slug category { slug } file { id } } } documents { totalCount } }');
    const withFile = publications.nodes.find((p) => p.file)!;
    const file = async () =>
      (
        await gqlData<{ publication: { file: { title: string } | null } }>(
          own,
          `{ publication(category: "${withFile.category.slug}", slug: "${withFile.slug}") { file { title } } }`,
        )
      ).publication.file;
    await updateContent(own, editor, 'Document', withFile.file!.id, { title: 'The full text, retitled' });
    expect(await file()).toEqual({ title: 'The full text, retitled' });
    await deleteContent(own, editor, 'Document', withFile.file!.id);
    expect(await file()).toBeNull();
    expect((await gqlData<{ documents: { totalCount: number } }>(own, '{ documents { totalCount } }')).documents.totalCount).toBe(
      documents.totalCount,
    );

    // With no publications (scale 0), a publication category is unused and can go; the event categories stay.
    const empty = await startContentServer({ scale: 0 });
    try {
      const token = await loginToken(empty, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
      const before = await gqlData<{ eventCategories: { slug: string }[]; publicationCategories: { id: string; slug: string }[] }>(
        empty,
        '{ eventCategories { slug } publicationCategories { id slug } }',
      );
      await deleteContent(empty, token, 'Category', before.publicationCategories[0]!.id);
      const after = await gqlData<{ eventCategories: { slug: string }[]; publicationCategories: { id: string; slug: string }[] }>(
        empty,
        '{ eventCategories { slug } publicationCategories { id slug } }',
      );
      expect(after.eventCategories).toEqual(before.eventCategories);
      expect(after.publicationCategories).toEqual(before.publicationCategories.slice(1));
    } finally {
      await empty.close();
    }
  });
});

describe('home, site, slugs and ids', () => {
  let own: ContentServer;
  let editor: string;
  let time = Date.parse('2026-06-01T12:00:00Z');
  beforeAll(async () => {
    own = await startContentServer({ now: () => new Date(time) });
    editor = await loginToken(own, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
  });
  afterAll(() => own.close());
  const changesSince = async (since: string) =>
    (
      await gqlData<{ changes: { changes: unknown[] } }>(
        own,
        'query($since: String) { changes(since: $since) { changes { type id slug previousSlug kind } } }',
        { since },
      )
    ).changes.changes;
  const cursor = async () => (await gqlData<{ changes: { cursor: string } }>(own, '{ changes(since: null) { cursor } }')).changes.cursor;

  it('change the home page and the site settings (one of each, ids home and site), which the feed names', async () => {
    const start = await cursor();
    expect(await updateContent(own, editor, 'Home', 'home', { title: 'Welcome, edited' })).toEqual({
      type: 'Home',
      id: 'home',
      slug: null,
      previousSlug: null,
      kind: 'UPSERT',
    });
    const navigation = [
      { label: 'News', href: '/news' },
      { label: 'About', href: '/about' },
    ];
    await updateContent(own, editor, 'Site', 'site', { tagline: 'A new tagline', navigation });
    expect(await gqlData(own, '{ home { title updatedAt } site { tagline navigation { label href } } }')).toEqual({
      home: { title: 'Welcome, edited', updatedAt: '2026-06-01T12:00:00.000Z' },
      site: { tagline: 'A new tagline', navigation },
    });
    expect(await changesSince(start)).toEqual([
      { type: 'Home', id: 'home', slug: null, previousSlug: null, kind: 'UPSERT' },
      { type: 'Site', id: 'site', slug: null, previousSlug: null, kind: 'UPSERT' },
    ]);
    const refused = async (mutation: string, pattern: RegExp) =>
      expect((await gql(own, mutation, {}, editor)).errors?.[0]?.message, mutation).toMatch(pattern);
    await refused(
      'mutation { updateContent(type: "Home", id: "home", fields: "{\\"featuredNews\\":[]}") { id } }',
      /'featuredNews' of a Home is worked out from the lists/,
    );
    await refused('mutation { updateContent(type: "Home", id: "x", fields: "{}") { id } }', /No Home has the id 'x': there is one, 'home'/);
    await refused('mutation { deleteContent(type: "Site", id: "site") { id } }', /There is one Site: change it with updateContent/);
    await refused('mutation { createContent(type: "Home", fields: "{}") { id } }', /There is one Home/);
    await refused(
      'mutation { updateContent(type: "Site", id: "site", fields: "{\\"navigation\\":[{\\"label\\":\\"News\\"}]}") { id } }',
      /A NavItem in 'navigation' of a Site \(item 1\) needs its field 'href'/,
    );
  });

  it('give the previous slug when an edit gives an item a new one: the page at the old slug is gone', async () => {
    const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string; slug: string }[] } }>(
      own,
      '{ newsItems(first: 1) { nodes { id slug } } }',
    );
    const item = newsItems.nodes[0]!;
    const start = await cursor();
    expect(await updateContent(own, editor, 'NewsItem', item.id, { slug: 'a-new-slug' })).toMatchObject({
      slug: 'a-new-slug',
      previousSlug: item.slug,
    });
    await updateContent(own, editor, 'NewsItem', item.id, { title: 'Same slug' });
    expect(await changesSince(start)).toEqual([
      { type: 'NewsItem', id: item.id, slug: 'a-new-slug', previousSlug: item.slug, kind: 'UPSERT' },
      { type: 'NewsItem', id: item.id, slug: 'a-new-slug', previousSlug: null, kind: 'UPSERT' },
    ]);
    expect(await gqlData(own, `{ old: newsItem(slug: "${item.slug}") { id } renamed: newsItem(slug: "a-new-slug") { id } }`)).toEqual({
      old: null,
      renamed: { id: item.id },
    });
    // Renamed and made a draft at once: a reader without drafts saw it at its old slug, and sees that go.
    const next = await cursor();
    await updateContent(own, editor, 'NewsItem', item.id, { slug: 'renamed-and-hidden', status: 'DRAFT' });
    expect(await changesSince(next)).toEqual([{ type: 'NewsItem', id: item.id, slug: 'a-new-slug', previousSlug: null, kind: 'DELETE' }]);
  });

  it('never give an added item the id of one added and deleted before, and date what they change by the clock', async () => {
    const first = await createContent(own, editor, 'NewsItem', { slug: 'added-once' });
    await deleteContent(own, editor, 'NewsItem', first.id);
    // The clock is put back afterwards: the other tests of this backend date their edits by it.
    const before = time;
    onTestFinished(() => void (time = before));
    time = Date.parse('2026-06-02T08:30:00Z');
    const second = await createContent(own, editor, 'NewsItem', { slug: 'added-twice' });
    expect(second.id).not.toBe(first.id);
    expect(
      (await gqlData<{ newsItem: { updatedAt: string } }>(own, '{ newsItem(slug: "added-twice") { updatedAt } }')).newsItem.updatedAt,
    ).toBe('2026-06-02T08:30:00.000Z');
  });
});

describe('the change feed’s history', () => {
  it('answers a cursor older than the changes it keeps as expired, and one just inside them with what followed', async () => {
    const short = await startContentServer({ changeHistory: 3 });
    try {
      const editor = await loginToken(short, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
      const read = async (since: string | null) => changeFeed.read(await gqlData(short, CHANGES_QUERY, { since }));
      const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string }[] } }>(short, '{ newsItems(first: 4) { nodes { id } } }');
      const ids = newsItems.nodes.map((n) => n.id);
      const start = await read(null);
      await updateContent(short, editor, 'NewsItem', ids[0]!, { summary: 'one' });
      const afterOne = await read(null);
      await updateContent(short, editor, 'NewsItem', ids[1]!, { summary: 'two' });
      await updateContent(short, editor, 'NewsItem', ids[2]!, { summary: 'three' });
      expect((await read(start.cursor)).changes.map((c) => c.id)).toEqual(ids.slice(0, 3));
      await updateContent(short, editor, 'NewsItem', ids[3]!, { summary: 'four' });
      expect(await read(start.cursor)).toMatchObject({ expired: true, changes: [] });
      expect(await read(afterOne.cursor)).toMatchObject({ expired: false, changes: ids.slice(1).map((id) => ({ id, kind: 'upsert' })) });
    } finally {
      await short.close();
    }
  });

  it('answers the cursor of the backend before a restart at the same address as expired', async () => {
    let backend = await startContentServer();
    const port = Number(new URL(backend.url).port);
    const before = changeFeed.read(await gqlData(backend, CHANGES_QUERY, { since: null }));
    await backend.close();
    backend = await startContentServer({ port });
    try {
      const answer = changeFeed.read(await gqlData(backend, CHANGES_QUERY, { since: before.cursor }));
      expect(answer).toMatchObject({ expired: true, changes: [] });
      expect(answer.cursor).not.toBe(before.cursor);
    } finally {
      await backend.close();
    }
  });
});

describe('the queries show an edit at once', () => {
  it('an added item shifts the pages of its list and leads the home page, and its deletion shifts them back', async () => {
    const own = await startContentServer();
    try {
      const editor = await loginToken(own, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
      type Page = { newsItems: { totalCount: number; pageInfo: { endCursor: string; hasNextPage: boolean }; nodes: { slug: string }[] } };
      const pages = async () => {
        const first = await gqlData<Page>(own, '{ newsItems(first: 5) { totalCount pageInfo { endCursor hasNextPage } nodes { slug } } }');
        const second = await gqlData<Page>(
          own,
          'query($after: String) { newsItems(first: 5, after: $after) { totalCount pageInfo { endCursor hasNextPage } nodes { slug } } }',
          { after: first.newsItems.pageInfo.endCursor },
        );
        const home = await gqlData<{ home: { featuredNews: { slug: string }[] } }>(own, '{ home { featuredNews(first: 3) { slug } } }');
        return {
          total: first.newsItems.totalCount,
          one: first.newsItems.nodes.map((n) => n.slug),
          two: second.newsItems.nodes.map((n) => n.slug),
          home: home.home.featuredNews.map((n) => n.slug),
        };
      };
      const before = await pages();
      const added = await createContent(own, editor, 'NewsItem', { slug: 'newest-of-all', title: 'Newest of all', date: '2099-01-01' });
      const after = await pages();
      expect(after.total).toBe(before.total + 1);
      expect(after.one).toEqual(['newest-of-all', ...before.one.slice(0, 4)]);
      expect(after.two).toEqual([before.one[4], ...before.two.slice(0, 4)]);
      expect(after.home).toEqual(['newest-of-all', ...before.home.slice(0, 2)]);
      await deleteContent(own, editor, 'NewsItem', added.id);
      expect(await pages()).toEqual(before);
    } finally {
      await own.close();
    }
  });
});

describe('what an attacker tried (review of the live edits)', () => {
  let own: ContentServer;
  let editor: string;
  const time = Date.parse('2026-06-01T12:00:00Z');
  beforeAll(async () => {
    own = await startContentServer({ now: () => new Date(time) });
    editor = await loginToken(own, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
  });
  afterAll(() => own.close());
  const anonymousNews = async (slug: string) =>
    (
      await gqlData<{ newsItem: { summary: string; image: { url: string } | null } | null }>(
        own,
        `{ newsItem(slug: "${slug}") { summary image { url } } }`,
      )
    ).newsItem;

  it("a new item never takes a draft's text or media: its other fields come from a published item", async () => {
    const all = await gqlData<{ newsItems: { nodes: { slug: string; status: string; summary: string }[] } }>(
      own,
      '{ newsItems(first: 500) { nodes { slug status summary } } }',
      {},
      editor,
    );
    const drafts = all.newsItems.nodes.filter((n) => n.status === 'DRAFT');
    expect(drafts.length, 'the sample content has a draft news item').toBeGreaterThan(0);
    await createContent(own, editor, 'NewsItem', { slug: 'harmless-new-post', title: 'Harmless' });
    const created = await anonymousNews('harmless-new-post');
    for (const draft of drafts) expect(created!.summary).not.toBe(draft.summary);
  });

  it('answers a forged cursor older than the backend (time 0, which would name every past event) as expired', async () => {
    const { changes } = await gqlData<{ changes: { cursor: string } }>(own, '{ changes(since: null) { cursor } }');
    const [epoch, seq] = changes.cursor.split('.');
    const forged = await gqlData<{ changes: { expired: boolean; changes: unknown[] } }>(
      own,
      'query($since: String) { changes(since: $since) { expired changes { id } } }',
      { since: `${epoch}.${seq}.0` },
    );
    expect(forged.changes).toEqual({ expired: true, changes: [] });
  });

  it('never shows a reader without drafts the slug a draft had before it was published', async () => {
    const start = (await gqlData<{ changes: { cursor: string } }>(own, '{ changes(since: null) { cursor } }')).changes.cursor;
    const draft = await createContent(own, editor, 'NewsItem', { slug: 'secret-merger-with-acme', status: 'DRAFT' });
    await updateContent(own, editor, 'NewsItem', draft.id, { slug: 'annual-report', status: 'PUBLISHED' });
    const seen = await gqlData<{ changes: { changes: { slug: string | null; previousSlug: string | null }[] } }>(
      own,
      'query($since: String) { changes(since: $since) { changes { slug previousSlug } } }',
      { since: start },
    );
    expect(seen.changes.changes).toEqual([{ slug: 'annual-report', previousSlug: null }]);
    expect(JSON.stringify(seen)).not.toContain('secret-merger');
  });

  it("takes media only from the backend's own files and registration links only over https, and leaves the site's address, language and zone alone", async () => {
    const { newsItems } = await gqlData<{
      newsItems: { nodes: { id: string; image: { url: string; alt: string; width: number; height: number } | null }[] };
    }>(own, '{ newsItems(first: 20) { nodes { id image { url alt width height } } } }');
    const item = newsItems.nodes.find((n) => n.image)!;
    const refused = async (type: string, id: string, fields: Record<string, unknown>, pattern: RegExp) => {
      const result = await gql(
        own,
        'mutation($type: String!, $id: ID!, $fields: String!) { updateContent(type: $type, id: $id, fields: $fields) { id } }',
        { type, id, fields: JSON.stringify(fields) },
        editor,
      );
      expect(result.errors?.[0]?.message, JSON.stringify(fields)).toMatch(pattern);
    };
    for (const url of ['https://elsewhere.example/x.png', '/media/../../x.png', 'javascript:alert(1)'])
      await refused('NewsItem', item.id, { image: { ...item.image!, url } }, /must name a file the backend holds/);
    const { events } = await gqlData<{ events: { nodes: { id: string }[] } }>(own, '{ events(first: 1) { nodes { id } } }');
    await refused('Event', events.nodes[0]!.id, { registrationUrl: 'javascript:alert(1)' }, /must be an https address/);
    for (const field of ['url', 'language', 'timeZone'])
      await refused('Site', 'site', { [field]: 'x' }, new RegExp(`The site's ${field} cannot be changed here`));
    // Its own files still do.
    await updateContent(own, editor, 'NewsItem', item.id, { image: { ...item.image!, alt: 'Edited alt' } });
  });
});

describe('the change feed without drafts', () => {
  it('gives a reader without drafts a cursor that does not move while editors work on drafts, and still the next public change', async () => {
    const own = await startContentServer();
    try {
      const editor = await loginToken(own, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
      const anonymous = async (since: string | null) =>
        (
          await gqlData<{ changes: { cursor: string; changes: { id: string }[] } }>(
            own,
            'query($since: String) { changes(since: $since) { cursor changes { id } } }',
            { since },
          )
        ).changes;
      const before = await anonymous(null);
      const draft = await createContent(own, editor, 'NewsItem', { slug: 'quiet-draft', status: 'DRAFT' });
      await updateContent(own, editor, 'NewsItem', draft.id, { title: 'Still a draft' });
      const during = await anonymous(before.cursor);
      expect(during.changes).toEqual([]);
      expect(during.cursor.split('.').slice(0, 2)).toEqual(before.cursor.split('.').slice(0, 2));
      const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string }[] } }>(own, '{ newsItems(first: 1) { nodes { id } } }');
      await updateContent(own, editor, 'NewsItem', newsItems.nodes[0]!.id, { title: 'A public edit' });
      expect((await anonymous(during.cursor)).changes).toEqual([{ id: newsItems.nodes[0]!.id }]);
    } finally {
      await own.close();
    }
  });
});
