/**
 * The embedded content backend: a GraphQL-over-HTTP server (graphql-yoga on node:http) implementing
 * site/schema.graphql over the sample or a scaled content set, plus the `/media/...` files that content
 * references. Used by the CLI's backend command, the tests and the benchmarks; listens on 127.0.0.1 only
 * unless told otherwise.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYoga, type Plugin } from 'graphql-yoga';
import { createAuthService, readBearerToken, resolveEditor } from './auth.ts';
import { applyContentOverrides, readContentOverrides } from './content-overrides.ts';
import { loadSampleContent } from './content/sample.ts';
import { renderMedia } from './media.ts';
import { createScaledContent } from './scale.ts';
import { createContentSchema, PUBLISHED_ONLY_HEADER, type RequestContext } from './schema.ts';
import { createContentStore, type ContentStore } from './store.ts';

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
  /** Clock used for "upcoming" events on home. @default () => new Date() */
  now?: () => Date;
  /** Editor account; defaults from env CONTENT_EDITOR_EMAIL / CONTENT_EDITOR_PASSWORD, else editor@institute.example / preview-editor */
  editor?: { email: string; password: string; name?: string };
  /** JSON file of content overrides (content-overrides.ts); a missing file means none. @default env CONTENT_OVERRIDES_FILE */
  overridesFile?: string;
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
  const base = options.scale === undefined ? loadSampleContent() : createScaledContent(options.scale);
  const content = applyContentOverrides(base, readContentOverrides(options.overridesFile ?? process.env.CONTENT_OVERRIDES_FILE));
  const store = createContentStore(content);
  const auth = createAuthService(resolveEditor(options.editor));
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
    schema: createContentSchema({ store, auth, now: options.now ?? (() => new Date()) }),
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: false,
    // Tokens travel in the Authorization header, never in cookies, so credentials stay off.
    cors: { origin: '*', methods: ['GET', 'POST', 'OPTIONS'], allowedHeaders: ['Authorization', 'Content-Type', PUBLISHED_ONLY_HEADER], credentials: false, maxAge: 600 },
    plugins: [counter],
    context: ({ request }) => {
      // A bad or expired token means "anonymous", not an error: a stale cookie must not break the public site.
      const token = readBearerToken(request.headers.get('authorization'));
      return { token, viewer: auth.viewerFor(token), publishedOnly: request.headers.get(PUBLISHED_ONLY_HEADER) === 'published' };
    },
  });
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/media/')) serveMedia(store, req, res);
    else void yoga(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
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

function serveMedia(store: ContentStore, req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '').split(/[?#]/, 1)[0] ?? '';
  const spec = store.media.get(path);
  if (!spec || (req.method !== 'GET' && req.method !== 'HEAD')) {
    const status = spec ? 405 : 404;
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...(spec ? { Allow: 'GET, HEAD' } : {}) });
    res.end(status === 404 ? `Not found: ${path}\n` : 'Method not allowed\n');
    return;
  }
  const file = renderMedia(spec, path);
  res.writeHead(200, {
    'Content-Type': file.contentType,
    'Content-Length': file.body.length,
    'Cache-Control': 'public, max-age=86400',
    'Access-Control-Allow-Origin': '*',
  });
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

/** The first named operation in a document, for clients that send no `operationName` (fragments may come first). */
function operationNameOf(query: string | undefined): string | null {
  return /(?:^|[\s}])(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(query ?? '')?.[1] ?? null;
}
