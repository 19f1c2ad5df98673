import type { SiteData } from '../../runtime/shared/contract.ts';
import { backoffDelay, createGraphQLClient, isGraphQLRequestError, type GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';
import { plural } from '../terminal/format.ts';
import type { Logger } from '../terminal/logger.ts';
import { PUBLISHED_ONLY, withoutDrafts } from './drafts.ts';
import { startEmbeddedBackend, type Backend } from './embedded-backend.ts';
import { sanitizeData } from './sanitize.ts';

/** What the build needs to know to talk to the content backend. */
export interface ContentSourceOptions {
  /** null: the embedded sample backend, started for this build. */
  endpoint: string | null;
  token: string | null;
  /** Publish drafts on purpose; otherwise the build asks for published content and drops any draft. */
  drafts: boolean;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
}

/** The content backend as the build sees it: one client whose every answer is already free of drafts. */
export interface ContentSource {
  endpoint: string;
  client: GraphQLClientHandle;
  /** What the report says of drafts: published on purpose, or how many were left out. */
  drafts(): { published: boolean; leftOut: number };
  close(): Promise<void>;
}

/** Connects to the configured endpoint, or starts the embedded backend when there is none. */
export async function openContentSource(options: ContentSourceOptions, logger: Logger): Promise<ContentSource> {
  let backend: Backend | null = null;
  if (!options.endpoint) {
    backend = await startEmbeddedBackend().catch((cause: unknown) => {
      throw createBuildError(BuildErrors.BackendFailed, ['could not be started', describeCause(cause)], { cause });
    });
    logger.info('backend', `embedded sample backend at ${backend.url}`);
  }
  const endpoint = options.endpoint ?? backend!.url;
  const transport = createGraphQLClient({
    endpoint,
    getToken: () => options.token,
    headers: options.drafts ? {} : PUBLISHED_ONLY,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    backoffMs: (n) => backoffDelay(n, options.retryDelayMs),
  });
  // Every answer passes the draft filter where it enters the build, unless drafts are wanted (drafts.ts).
  const filter = options.drafts ? null : withoutDrafts(transport);
  return {
    endpoint,
    client: filter?.client ?? transport,
    drafts: () => ({ published: options.drafts, leftOut: filter?.left() ?? 0 }),
    close: async () => backend?.close(),
  };
}

/** Runs the site query: the cheapest way to learn that the endpoint is unreachable, so it goes first. */
export async function loadSiteData(client: GraphQLClientHandle, query: string): Promise<SiteData> {
  try {
    return sanitizeData(await client.request<SiteData>(query));
  } catch (cause) {
    if (isGraphQLRequestError(cause) && (cause.kind === 'network' || cause.kind === 'timeout')) {
      throw createBuildError(BuildErrors.EndpointUnreachable, [client.endpoint, cause.reason], { cause });
    }
    if (isGraphQLRequestError(cause) && cause.kind === 'redirect')
      throw createBuildError(BuildErrors.EndpointRedirected, [cause.endpoint, cause.reason], { cause });
    throw createBuildError(BuildErrors.SiteQueryFailed, [isGraphQLRequestError(cause) ? cause.operation : 'site', describeCause(cause)], {
      cause,
    });
  }
}

/** Logs what became of drafts: how many were left out, or that they are published on purpose. */
export function logDrafts(drafts: { published: boolean; leftOut: number }, logger: Logger): void {
  if (drafts.leftOut > 0) logger.info('drafts', `${plural(drafts.leftOut, 'draft')} left out (--drafts publishes them)`);
  else if (drafts.published) logger.warn('drafts', 'drafts are published (--drafts)');
}
