/**
 * The executable schema: the SDL from site/schema.graphql (read at runtime, never copied, so the backend
 * cannot drift from the contract) joined with resolvers over a ContentStore. Resolvers that do not appear
 * here use GraphQL's default (read the record's property of the same name).
 */
import { readFileSync } from 'node:fs';
import type { GraphQLSchema } from 'graphql';
import { createGraphQLError, createSchema } from 'graphql-yoga';
import type { AuthService, Viewer } from './auth.ts';
import type { HomeInfo, ProjectEntry, PublicationEntry, DocumentEntry } from './content/types.ts';
import type { ContentStore } from './store.ts';
import { checkFirst, paginate, type PageArgs } from './pagination.ts';
import { DateScalar, DateTimeScalar } from './scalars.ts';
import type { createLoginLimiter } from './guards.ts';
import type { MediaAccess } from './media-access.ts';
import type { FeedAnswer } from './change-feed.ts';
import { EditError } from './edit-fields.ts';
import type { EditableContent, LoggedChange } from './editing.ts';

/** Where the content schema lives, relative to this module. */
export const SCHEMA_URL = new URL('../site/schema.graphql', import.meta.url);

/** Per-request context: who is asking. */
export interface RequestContext {
  /** The Bearer token sent with the request, if any (valid or not). */
  readonly token: string | null;
  /** The editor when the token is valid. */
  readonly viewer: Viewer | null;
  /** The request asked for published content only (PUBLISHED_ONLY_HEADER), as `site build` does without --drafts. */
  readonly publishedOnly?: boolean;
  /** The client's address, for the login rate limit. */
  readonly client?: string;
  /** The request came from a browser page (it carries an Origin): draft media URLs get their key. */
  readonly browser?: boolean;
}

/**
 * The request header by which a client with an editor's token asks for published content only, as a
 * CMS's delivery API (as opposed to its preview API) would answer. `site build` sends it unless
 * `--drafts`; the browser's preview never does.
 */
export const PUBLISHED_ONLY_HEADER = 'x-content-perspective';

/** What the schema needs to resolve fields. */
export interface ContentSchemaOptions {
  readonly store: ContentStore;
  readonly auth: AuthService;
  /** Clock for upcoming events. */
  readonly now: () => Date;
  /** Failed logins per client, per account and in all (guards.ts createLoginLimiter). @default no limit */
  readonly logins?: ReturnType<typeof createLoginLimiter>;
  /** Keys for the media of drafts in the URLs handed to an editor's browser (media-access.ts). @default URLs as stored */
  readonly mediaAccess?: MediaAccess;
  /** Live edits and the change feed (editing.ts, change-feed.ts). @default none: the mutations and `changes` fail */
  readonly editing?: {
    readonly content: Pick<EditableContent, 'create' | 'update' | 'remove'>;
    readonly feed: (since: string | null, withDrafts: boolean) => FeedAnswer;
  };
}

/** Reads the content schema's SDL. */
export function loadSchemaSource(): string {
  return readFileSync(SCHEMA_URL, 'utf8');
}

/**
 * Builds the executable schema. Fails at start-up (not per request) if a resolver names a field the
 * SDL does not have.
 */
export function createContentSchema({ store, auth, now, logins, mediaAccess, editing }: ContentSchemaOptions): GraphQLSchema {
  // A draft's media URLs carry their key for an editor's browser, whose <img> cannot send the token
  // (media-access.ts); the build (no Origin) sends its token with each download instead.
  const keyed = (ctx: RequestContext): boolean => drafts(ctx) && ctx.browser === true;
  const url = (value: string, ctx: RequestContext): string => mediaAccess?.urlFor(value, keyed(ctx)) ?? value;
  const html = (value: string, ctx: RequestContext): string => mediaAccess?.keyedIn(value, keyed(ctx)) ?? value;
  const body = { body: (item: { body: string }, _: unknown, ctx: RequestContext) => html(item.body, ctx) };
  return createSchema<RequestContext>({
    typeDefs: loadSchemaSource(),
    resolvers: {
      DateTime: DateTimeScalar,
      Date: DateScalar,
      Query: {
        site: () => store.site,
        home: () => store.home,
        viewer: (_: unknown, __: unknown, ctx: RequestContext) => ctx.viewer,
        newsItems: (_: unknown, args: PageArgs, ctx: RequestContext) => paginate(store.news.list(drafts(ctx)), args),
        newsItem: (_: unknown, { slug }: { slug: string }, ctx: RequestContext) => store.news.find(slug, drafts(ctx)),
        eventCategories: () => store.eventCategories,
        events: (_: unknown, args: CategoryPageArgs, ctx: RequestContext) =>
          paginate(inCategory(store.events, store.eventsByCategory, args.category)?.list(drafts(ctx)) ?? [], args),
        event: (_: unknown, args: { category: string; slug: string }, ctx: RequestContext) =>
          store.eventsByCategory.get(args.category)?.find(args.slug, drafts(ctx)) ?? null,
        publicationCategories: () => store.publicationCategories,
        publications: (_: unknown, args: CategoryPageArgs, ctx: RequestContext) =>
          paginate(inCategory(store.publications, store.publicationsByCategory, args.category)?.list(drafts(ctx)) ?? [], args),
        publication: (_: unknown, args: { category: string; slug: string }, ctx: RequestContext) =>
          store.publicationsByCategory.get(args.category)?.find(args.slug, drafts(ctx)) ?? null,
        courses: (_: unknown, args: PageArgs, ctx: RequestContext) => paginate(store.courses.list(drafts(ctx)), args),
        researchProjects: (_: unknown, args: PageArgs, ctx: RequestContext) => paginate(store.projects.list(drafts(ctx)), args),
        researchProject: (_: unknown, { slug }: { slug: string }, ctx: RequestContext) => store.projects.find(slug, drafts(ctx)),
        documents: (_: unknown, args: PageArgs, ctx: RequestContext) => paginate(store.documents.list(drafts(ctx)), args),
        people: (_: unknown, args: PageArgs) => paginate(store.people.list(false), args),
        podcastEpisodes: (_: unknown, args: PageArgs, ctx: RequestContext) => paginate(store.episodes.list(drafts(ctx)), args),
        page: (_: unknown, { slug }: { slug: string }, ctx: RequestContext) => store.pages.find(slug, drafts(ctx)),
        changes: (_: unknown, { since }: { since?: string | null }, ctx: RequestContext) =>
          editingOf(editing, 'changes').feed(since ?? null, drafts(ctx)),
      },
      Mutation: {
        login: (_: unknown, args: { email: string; password: string }, ctx: RequestContext) => {
          const client = ctx.client ?? 'unknown';
          logins?.check(client, args.email);
          const result = auth.login(args.email, args.password);
          if (!result) {
            logins?.failed(client, args.email);
            throw createGraphQLError('Invalid email or password.', { extensions: { code: 'UNAUTHENTICATED' } });
          }
          logins?.succeeded(client, args.email);
          return result;
        },
        logout: (_: unknown, __: unknown, ctx: RequestContext) => {
          if (ctx.token) auth.logout(ctx.token);
          return true;
        },
        createContent: (_: unknown, args: { type: string; fields: string }, ctx: RequestContext) =>
          edit(ctx, 'createContent', () => editingOf(editing, 'createContent').content.create(args.type, fieldsOf(args.fields))),
        updateContent: (_: unknown, args: { type: string; id: string; fields: string }, ctx: RequestContext) =>
          edit(ctx, 'updateContent', () => editingOf(editing, 'updateContent').content.update(args.type, args.id, fieldsOf(args.fields))),
        deleteContent: (_: unknown, args: { type: string; id: string }, ctx: RequestContext) =>
          edit(ctx, 'deleteContent', () => editingOf(editing, 'deleteContent').content.remove(args.type, args.id)),
      },
      Image: { url: (image: { url: string }, _: unknown, ctx: RequestContext) => url(image.url, ctx) },
      Document: { url: (document: DocumentEntry, _: unknown, ctx: RequestContext) => url(document.url, ctx) },
      PodcastEpisode: { audioUrl: (episode: { audioUrl: string }, _: unknown, ctx: RequestContext) => url(episode.audioUrl, ctx) },
      NewsItem: body,
      Event: body,
      Page: body,
      PageSection: body,
      Home: {
        featuredNews: (_: HomeInfo, { first }: FirstArg, ctx: RequestContext) => store.news.list(drafts(ctx)).slice(0, checkFirst(first)),
        upcomingEvents: (_: HomeInfo, { first }: FirstArg, ctx: RequestContext) =>
          store.upcomingEvents(now().getTime(), checkFirst(first), drafts(ctx)),
        latestPublications: (_: HomeInfo, { first }: FirstArg, ctx: RequestContext) =>
          store.publications.list(drafts(ctx)).slice(0, checkFirst(first)),
        researchHighlights: (_: HomeInfo, { first }: FirstArg, ctx: RequestContext) =>
          store.projects.list(drafts(ctx)).slice(0, checkFirst(first)),
      },
      // Related items are stored as direct references; hide the drafts among them from anonymous requests.
      ResearchProject: {
        ...body,
        publications: (project: ProjectEntry, _: unknown, ctx: RequestContext) =>
          drafts(ctx) ? project.publications : project.publications.filter((p) => p.status !== 'DRAFT'),
      },
      Publication: {
        file: (publication: PublicationEntry, _: unknown, ctx: RequestContext): DocumentEntry | null =>
          publication.file && (drafts(ctx) || publication.file.status !== 'DRAFT') ? publication.file : null,
      },
    },
  });
}

// --- internal ---

interface CategoryPageArgs extends PageArgs {
  readonly category?: string | null;
}

interface FirstArg {
  readonly first?: number | null;
}

function editingOf(editing: ContentSchemaOptions['editing'], field: string): NonNullable<ContentSchemaOptions['editing']> {
  if (!editing) throw createGraphQLError(`${field} is not available: this server was started without live editing.`);
  return editing;
}

/** A mutation of the content: an editor's token only, and a refused edit as the client's error to read. */
function edit(ctx: RequestContext, mutation: string, run: () => LoggedChange): Omit<LoggedChange, 'seq' | 'publicBefore' | 'publicAfter'> {
  if (!ctx.viewer)
    throw createGraphQLError(
      `${mutation} needs an editor's token: log in with the login mutation and send its token as 'Authorization: Bearer {token}'.`,
      { extensions: { code: 'UNAUTHENTICATED' } },
    );
  try {
    const { type, id, slug, previousSlug, kind } = run();
    return { type, id, slug, previousSlug, kind };
  } catch (error) {
    if (error instanceof EditError) throw createGraphQLError(`${mutation}: ${error.message}`, { extensions: { code: 'BAD_USER_INPUT' } });
    throw error;
  }
}

function fieldsOf(text: string): Record<string, unknown> {
  let fields: unknown;
  try {
    fields = JSON.parse(text);
  } catch {
    throw new EditError('fields is not JSON: send a JSON object of field names and values.');
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    throw new EditError('fields must be a JSON object of field names and values.');
  return fields as Record<string, unknown>;
}

/** Drafts are visible to a valid editor's token, unless the request asks for published content only. */
function drafts(ctx: RequestContext): boolean {
  return ctx.viewer !== null && !ctx.publishedOnly;
}

/** The whole collection without a category; the category's, or undefined for an unknown category. */
function inCategory<T>(all: T, byCategory: ReadonlyMap<string, T>, category: string | null | undefined): T | undefined {
  return category == null ? all : byCategory.get(category);
}
