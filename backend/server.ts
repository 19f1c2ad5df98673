/**
 * The embedded content backend: a GraphQL-over-HTTP server (graphql-yoga on node:http) implementing
 * site/schema.graphql over the sample or a scaled content set, plus the `/media/...` files that content
 * references. Used by the CLI's backend command, the tests and the benchmarks; listens on 127.0.0.1 only
 * unless told otherwise.
 */
import { buildSchema, parse } from 'graphql';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGraphQLError, createYoga, type Plugin } from 'graphql-yoga';
import { createAuthService, DEFAULT_EDITOR, readBearerToken, resolveEditor } from './auth.ts';
import {
  createLoginLimiter,
  draftOnlyMedia,
  isAllowedOrigin,
  isExpectedHost,
  isLoopbackHost,
  QUERY_LIMITS,
  queryLimitsRule,
} from './guards.ts';
import { createMediaAccess, MEDIA_KEY_PARAM } from './media-access.ts';
import { applyContentOverrides, readContentOverrides } from './content-overrides.ts';
import { loadSampleContent } from './content/sample.ts';
import type { Content } from './content/types.ts';
import { renderMedia, type MediaFile } from './media.ts';
import { createScaledContent } from './scale.ts';
import { createContentSchema, loadSchemaSource, PUBLISHED_ONLY_HEADER, type RequestContext } from './schema.ts';
import type { ContentStore } from './store.ts';
import { afterEdits, createEditableContent, liveView } from './editing.ts';
import { createChangeFeed } from './change-feed.ts';

export { DEFAULT_EDITOR } from './auth.ts';
export { loadSampleContent } from './content/sample.ts';
export { createScaledContent, countSitePages } from './scale.ts';

/** Options of startContentServer. */
export interface ContentServerOptions {
  /** Port to listen on. @default 0 (a free port) */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  host?: string;
  /** Serve a deterministic synthetic site of about N pages instead of the sample content. @default undefined */
  scale?: number;
  /** Clock used for "upcoming" events on home and for the `updatedAt` of live edits. @default () => new Date() */
  now?: () => Date;
  /** Editor account; defaults from env CONTENT_EDITOR_EMAIL / CONTENT_EDITOR_PASSWORD, else editor@institute.example / preview-editor */
  editor?: { email: string; password: string; name?: string };
  /** Changes the change feed keeps; a cursor from before the oldest is answered as expired. @default 10,000 */
  changeHistory?: number;
  /** JSON file of content overrides (content-overrides.ts); a missing file means none. @default env CONTENT_OVERRIDES_FILE */
  overridesFile?: string;
  /** Origins besides loopback and the content's site URL whose pages may call the backend. @default none */
  allowOrigins?: readonly string[];
  /** Listen on an address that is not loopback although the sample editor account is in force. @default false */
  allowRemote?: boolean;
  /**
   * Every image of the content a 4000×3000 camera photo with GPS tags, as editors upload them
   * (photos.ts), instead of the sample's small SVGs (`site content serve --photos`); `variants` makes
   * the images share that many files per kind, for tests that need the photos but not one encode each.
   * @default false
   */
  photos?: boolean | { variants: number };
  /** Files served as they are at these `/media/…` paths, which edits may then name (a test's corrupt upload, say). @default none */
  extraMedia?: ReadonlyMap<string, { contentType: string; body: Buffer }>;
  /** Called with each incoming GraphQL request (for tests and benchmarks counting requests). */
  onRequest?: (info: { operationName: string | null; authorization: string | null }) => void;
}

/** A running content server. */
export interface ContentServer {
  /** `http://127.0.0.1:PORT`; media URLs in the content are relative to it. */
  origin: string;
  /** `origin + '/graphql'`. */
  url: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
  /** GraphQL requests answered so far (media requests are not counted). */
  requestCount(): number;
}

/**
 * Starts the content backend and resolves once it is listening.
 * @example
 * const server = await startContentServer({ scale: 10_000 });
 * // POST server.url …
 * await server.close();
 */
export async function startContentServer(options: ContentServerOptions = {}): Promise<ContentServer> {
  const media = { photos: options.photos };
  const base = withExtraMedia(
    options.scale === undefined ? loadSampleContent(media) : createScaledContent(options.scale, media),
    options.extraMedia,
  );
  const content = applyContentOverrides(base, readContentOverrides(options.overridesFile ?? process.env.CONTENT_OVERRIDES_FILE));
  const host = options.host ?? '127.0.0.1';
  const editor = resolveEditor(options.editor);
  if (!isLoopbackHost(host) && !options.allowRemote && editor.password === DEFAULT_EDITOR.password) {
    throw new SampleCredentialsExposed(host);
  }
  const now = options.now ?? (() => new Date());
  const editable = createEditableContent(content, {
    schema: buildSchema(loadSchemaSource()),
    now,
    ...(options.changeHistory === undefined ? {} : { history: options.changeHistory }),
  });
  const store = liveView(editable);
  const auth = createAuthService(editor);
  const siteOrigins = new Set(
    [originOf(content.site.url), ...(options.allowOrigins ?? []).map(originOf)].filter((o): o is string => o !== null),
  );
  // Which media only drafts use changes with the edits (a draft published, an item made a draft).
  const mediaAccess = createMediaAccess(afterEdits(editable, draftOnlyMedia));
  const logins = createLoginLimiter();
  let requests = 0;
  const counter: Plugin = {
    onParams({ params, request }) {
      requests += 1;
      options.onRequest?.({
        operationName: params.operationName ?? operationNameOf(params.query),
        authorization: request.headers.get('authorization'),
      });
    },
  };
  const yoga = createYoga<Record<string, unknown>, RequestContext>({
    schema: createContentSchema({
      store,
      auth,
      now,
      logins,
      mediaAccess,
      editing: { content: editable, feed: createChangeFeed(editable, now) },
    }),
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: false,
    // Tokens travel in the Authorization header, never in cookies, so credentials stay off.
    // Only pages on this machine and the site's own origins may call it (guards.ts isAllowedOrigin).
    cors: (request) => {
      const origin = request.headers.get('origin');
      return origin && isAllowedOrigin(origin, siteOrigins)
        ? {
            origin: [origin],
            methods: ['GET', 'POST', 'OPTIONS'],
            allowedHeaders: ['Authorization', 'Content-Type', PUBLISHED_ONLY_HEADER],
            credentials: false,
            maxAge: 600,
          }
        : false;
    },
    plugins: [
      counter,
      {
        // A document of more tokens than any query needs is refused while it is read, before it is validated.
        onParse: ({ setParseFn }) =>
          setParseFn((source, parseOptions) => {
            try {
              return parse(source, { ...parseOptions, maxTokens: QUERY_LIMITS.tokens });
            } catch (error) {
              // The syntax error as the client's to read, not a masked "unexpected error".
              throw createGraphQLError((error as Error).message);
            }
          }),
        onValidate: ({ addValidationRule }) => addValidationRule(queryLimitsRule),
      } satisfies Plugin,
    ],
    context: (initial) => {
      const { request } = initial;
      // A bad or expired token means "anonymous", not an error: a stale cookie must not break the public site.
      const token = readBearerToken(request.headers.get('authorization'));
      const client = (initial as { req?: IncomingMessage }).req?.socket.remoteAddress ?? 'unknown';
      return {
        token,
        viewer: auth.viewerFor(token),
        publishedOnly: request.headers.get(PUBLISHED_ONLY_HEADER) === 'published',
        client,
        browser: request.headers.has('origin'),
      };
    },
  });
  // A draft's media: for an editor's token (the build with --drafts), or with the key the API put into
  // the URL it gave an editor's browser (media-access.ts); 404 for anyone else.
  const server = createServer((req, res) => {
    // A page elsewhere on the web whose own name was made to point here (DNS rebinding) gets nothing.
    if (!isExpectedHost(req.headers.host, host, siteOrigins)) {
      res.writeHead(403, { 'Content-Type': 'application/json; charset=utf-8' }).end(
        JSON.stringify({
          errors: [
            {
              message: `Requests for the host ${req.headers.host ?? '(none)'} are not answered: this backend answers its loopback address, the address it listens on and the site's own hosts.`,
            },
          ],
        }),
      );
      return;
    }
    // A page elsewhere on the web (its request carries its Origin) gets nothing, not even a side effect.
    const origin = req.headers.origin;
    if (origin && !isAllowedOrigin(origin, siteOrigins)) {
      res.writeHead(403, { 'Content-Type': 'application/json; charset=utf-8' }).end(
        JSON.stringify({
          errors: [
            {
              message: `Requests from ${origin} are not allowed: this backend answers pages on this machine and the site's own origin (content serve --allow-origin adds one).`,
            },
          ],
        }),
      );
      return;
    }
    if (req.url?.startsWith('/media/')) {
      const key = new URL(req.url, 'http://x').searchParams.get(MEDIA_KEY_PARAM);
      const isEditor = auth.viewerFor(readBearerToken(req.headers.authorization ?? null)) !== null;
      // A draft's medium is never stored by a shared cache.
      const draft = !mediaAccess.allows(mediaPath(req), null, false);
      void serveMedia(store, req, res, !mediaAccess.allows(mediaPath(req), key, isEditor), draft);
    } else void yoga(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const origin = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    origin,
    url: `${origin}/graphql`,
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets would otherwise hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}

// --- internal ---

/** Refused: the sample editor account on an address other machines can reach. */
export class SampleCredentialsExposed extends Error {
  constructor(readonly host: string) {
    super(
      `The content backend will not listen on ${host} with the sample editor account (${DEFAULT_EDITOR.email} / ${DEFAULT_EDITOR.password}), which anyone who can reach it could use.`,
    );
    this.name = 'SampleCredentialsExposed';
  }
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The content with `extra` files served as they are (ContentServerOptions.extraMedia). */
function withExtraMedia(content: Content, extra: ContentServerOptions['extraMedia']): Content {
  if (!extra || extra.size === 0) return content;
  const media = new Map(content.media);
  for (const [path, file] of extra) media.set(path, { kind: 'file', contentType: file.contentType, body: file.body });
  return { ...content, media };
}

function mediaPath(req: IncomingMessage): string {
  return (req.url ?? '').split(/[?#]/, 1)[0] ?? '';
}

/** `hidden`: a draft's medium asked for without an editor's token, answered as if it did not exist. */
async function serveMedia(store: ContentStore, req: IncomingMessage, res: ServerResponse, hidden = false, draft = false): Promise<void> {
  const path = mediaPath(req);
  const spec = hidden ? undefined : store.media.get(path);
  if (!spec || (req.method !== 'GET' && req.method !== 'HEAD')) {
    const status = spec ? 405 : 404;
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...(spec ? { Allow: 'GET, HEAD' } : {}) });
    res.end(status === 404 ? `Not found: ${path}\n` : 'Method not allowed\n');
    return;
  }
  let file: MediaFile;
  try {
    file = await renderMedia(spec, path);
  } catch (error) {
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Could not generate ${path}: ${(error as Error).message}\n`);
    return;
  }
  res.writeHead(200, {
    'Content-Type': file.contentType,
    'Content-Length': file.body.length,
    'Cache-Control': draft ? 'private, no-store' : 'public, max-age=86400',
    'Access-Control-Allow-Origin': '*',
  });
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

/** The first named operation in a document, for clients that send no `operationName` (fragments may come first). */
function operationNameOf(query: string | undefined): string | null {
  return /(?:^|[\s}])(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(query ?? '')?.[1] ?? null;
}
