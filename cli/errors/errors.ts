/**
 * The build's error catalogue. Codes are permanent and greppable; every message names what failed
 * and the hint says what to do. Code throws
 * `createBuildError(BuildErrors.X, [message arguments], { page, operation, cause })`, which checks the
 * arguments against the entry's message; docs/cli.md lists every code.
 */
import { plural } from '../terminal/format.ts';

export interface ErrorDefinition<TArgs extends unknown[]> {
  code: string;
  message: (...args: TArgs) => string;
  hint: string;
  /** 2 for usage errors (bad flags or config), 1 for failures. */
  exitCode: 1 | 2;
}

function define<TArgs extends unknown[]>(def: ErrorDefinition<TArgs>): ErrorDefinition<TArgs> {
  return def;
}

export const BuildErrors = {
  InvalidOption: define({
    code: 'InvalidOption',
    exitCode: 2,
    message: (name: string, value: string, expected: string) => `Expected ${name} to be ${expected}, got '${value}'.`,
    hint: 'Fix the option and run the command again; `site --help` lists every option with its default.',
  }),
  EndpointUnreachable: define({
    code: 'EndpointUnreachable',
    exitCode: 1,
    message: (endpoint: string, cause: string) => `The GraphQL endpoint ${endpoint} could not be reached: ${cause}.`,
    hint: 'Check that the backend is running and that --endpoint or GRAPHQL_ENDPOINT points at its /graphql URL; leave both unset to build from the embedded sample backend.',
  }),
  EndpointRedirected: define({
    code: 'EndpointRedirected',
    exitCode: 1,
    message: (endpoint: string, reason: string) =>
      `The GraphQL endpoint ${endpoint} answered with a ${reason} while the build sends GRAPHQL_TOKEN; the build never follows a redirect with the token, which would hand it to another address.`,
    hint: 'Use the final URL (the Location above) as --endpoint or GRAPHQL_ENDPOINT: the token is sent only to the address you give.',
  }),
  SiteQueryFailed: define({
    code: 'SiteQueryFailed',
    exitCode: 1,
    message: (operation: string, cause: string) => `The site-wide query ${operation} failed: ${cause}.`,
    hint: 'Check the query in site/queries against the backend schema and the backend logs.',
  }),
  PagesFailed: define({
    code: 'PagesFailed',
    exitCode: 1,
    message: (failed: number, total: number) => `${failed} of ${total} pages failed; the previous output was kept unchanged.`,
    hint: 'Fix the causes listed per page, then build again.',
  }),
  DuplicateOutput: define({
    code: 'DuplicateOutput',
    exitCode: 1,
    message: (file: string, first: string, second: string) => `Two pages write to ${file}: ${first} and ${second}.`,
    hint: 'Give one of the items a different slug in the content backend (slugs that differ only by case collide on case-insensitive file systems).',
  }),
  UnsafePath: define({
    code: 'UnsafePath',
    exitCode: 1,
    message: (path: string, route: string) => `The page path '${path}' of route ${route} is not a safe file path.`,
    hint: 'Slugs may contain only lowercase letters, digits and hyphens; fix the slug in the content backend.',
  }),
  UnsafeRoutePath: define({
    code: 'UnsafeRoutePath',
    exitCode: 1,
    message: (route: string, pattern: string, path: string) =>
      `Route ${route} (${pattern}) makes the page path '${path}', which is not a path of safe segments: '/' or '/'-separated segments of letters, digits, '.', '_', '~' and '-', each starting with a letter or digit, with no trailing or doubled '/'.`,
    hint: "Fix the route's path in site/routes.ts (and site/routes.build.ts).",
  }),
  BundleFailed: define({
    code: 'BundleFailed',
    exitCode: 1,
    message: (cause: string) => `The client bundle could not be built: ${cause}`,
    hint: 'Fix what the error names (a file under site/ or runtime/, or an install it asks you to repeat), then build again.',
  }),
  OutputNotWritable: define({
    code: 'OutputNotWritable',
    exitCode: 1,
    message: (dir: string, cause: string) => `The output folder ${dir} could not be written: ${cause}.`,
    hint: 'Choose a folder you can write to with --out, or fix its permissions.',
  }),
  OutputNotASite: define({
    code: 'OutputNotASite',
    exitCode: 1,
    message: (dir: string) => `The output folder ${dir} exists, is not empty and does not hold a previous build of this site.`,
    hint: 'Choose an empty or new folder with --out; the build never replaces a folder it did not write.',
  }),
  OutputMissing: define({
    code: 'OutputMissing',
    exitCode: 1,
    message: (dir: string) => `There is no built site in ${dir}.`,
    hint: 'Run `site build` first, or pass the folder that holds the build with --out.',
  }),
  StorageBucketMissing: define({
    code: 'StorageBucketMissing',
    exitCode: 1,
    message: (bucket: string, endpoint: string) => `The bucket '${bucket}' does not exist at ${endpoint}.`,
    hint: 'Create the bucket, or fix --bucket and --endpoint-url (env AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL); latest.json was not changed.',
  }),
  StorageCredentialsRefused: define({
    code: 'StorageCredentialsRefused',
    exitCode: 1,
    message: (endpoint: string, cause: string) => `The object storage at ${endpoint} refused the credentials: ${cause}.`,
    hint: 'Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (plus AWS_SESSION_TOKEN for temporary keys) to a key that may list, read, write and delete objects under the prefix; latest.json still names the previous build.',
  }),
  StorageCredentialsMissing: define({
    code: 'StorageCredentialsMissing',
    exitCode: 1,
    message: (cause: string) => `No credentials for the object storage were found: ${cause}.`,
    hint: 'Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) in the environment of the publish step; nothing was uploaded.',
  }),
  StorageUnreachable: define({
    code: 'StorageUnreachable',
    exitCode: 1,
    message: (endpoint: string, cause: string) => `The object storage at ${endpoint} could not be reached: ${cause}.`,
    hint: 'Check --endpoint-url (env AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL) and that the storage is running, then publish again: it uploads only what is missing, and latest.json still names the previous complete build.',
  }),
  StorageRequestFailed: define({
    code: 'StorageRequestFailed',
    exitCode: 1,
    message: (operation: string, key: string, cause: string) => `${operation} ${key} failed: ${cause}.`,
    hint: "Publish again: it uploads only what is missing, and latest.json names the previous complete build until a publish finishes. Run with --verbose for the storage's answer.",
  }),
  StorageRecordTooLarge: define({
    code: 'StorageRecordTooLarge',
    exitCode: 1,
    message: (key: string, size: number, limit: number) =>
      `${key} is ${size} bytes or more, larger than any build record publish writes (at most ${limit} bytes are read); it was not read.`,
    hint: 'Something other than site publish wrote it under the build records: look at it and remove it from the bucket, then publish again; latest.json still names the previous build.',
  }),
  SampleCredentialsExposed: define({
    code: 'SampleCredentialsExposed',
    exitCode: 2,
    message: (host: string) =>
      `The content backend will not listen on ${host}, an address other machines can reach, with the sample editor account: anyone there could log in and read drafts.`,
    hint: 'Listen on 127.0.0.1 (the default), or set CONTENT_EDITOR_PASSWORD (and CONTENT_EDITOR_EMAIL) to an account of your own, or pass --allow-remote if this machine is not reachable from other machines.',
  }),
  StorageHoldsForeignObjects: define({
    code: 'StorageHoldsForeignObjects',
    exitCode: 1,
    message: (location: string, count: number, examples: string) =>
      `${location} holds ${plural(count, 'object')} that no build published there lists (${examples}); nothing was uploaded or deleted.`,
    hint: 'Publish to an empty bucket or another --prefix, or pass --allow-foreign-objects to publish beside them: publish never deletes an object no build of its own lists, nor writes over one.',
  }),
  StorageForeignObjectInTheWay: define({
    code: 'StorageForeignObjectInTheWay',
    exitCode: 1,
    message: (location: string, count: number, examples: string) =>
      `${location} holds ${plural(count, 'object')} that no build published there lists at keys this build writes (${examples}); publishing would replace ${count === 1 ? 'it' : 'them'}, so nothing was uploaded or deleted.`,
    hint: '--allow-foreign-objects publishes beside such objects, never over them. Publish under another --prefix, or move or delete them yourself if the site is to replace them, then publish again.',
  }),
  PublishKeyMissing: define({
    code: 'PublishKeyMissing',
    exitCode: 2,
    message: (problem: string) =>
      `${problem}: publish signs the records it keeps in the bucket with this key and deletes or keeps builds only by records that carry its signature, so it does not run without it; nothing was uploaded or deleted.`,
    hint: 'Create a key once (`openssl rand -base64 32`), keep it as a CI secret, and set SITE_PUBLISH_KEY to it in every publish step of the site (shards, merge, rollback): records signed with another key are ignored, never trusted.',
  }),
  RollbackBuildMissing: define({
    code: 'RollbackBuildMissing',
    exitCode: 1,
    message: (id: string, available: string) => `Build ${id} is not in the bucket; the builds there are: ${available}.`,
    hint: "Roll back only to a build that publish kept (the last --keep-builds builds), or publish that build's output folder with `site publish --out DIR`.",
  }),
  RollbackNeedsOutput: define({
    code: 'RollbackNeedsOutput',
    exitCode: 1,
    message: (id: string, stale: number, dir: string) =>
      `Rolling back to build ${id} needs its own copy of ${stale} files (pages, payloads or others that later builds overwrite in place), and ${dir} does not hold build ${id}.`,
    hint: "Pass --out with the folder that holds that build's output (for example its CI artifact); the bucket keeps only the newest page at each path. latest.json was not changed.",
  }),
  UnsafeSlug: define({
    code: 'UnsafeSlug',
    exitCode: 1,
    message: (id: string, slug: string, route: string, reason: string) =>
      `The item ${id} has the slug ${slug}, which cannot be the page path of route ${route}: ${reason}.`,
    hint: 'Give the item a slug of lowercase letters, digits and hyphens (such as annual-report-2024) in the content backend, then build again; the previous output was kept unchanged.',
  }),
  KeptPageChanged: define({
    code: 'KeptPageChanged',
    exitCode: 1,
    message: (path: string, file: string) =>
      `The previous output's ${file} (page ${path}) is not what the previous build wrote, so its data cannot be kept.`,
    hint: 'Something changed the output folder since the previous build: build again with --full, which asks the backend for every page; the output was kept unchanged.',
  }),
  PageCountDropped: define({
    code: 'PageCountDropped',
    exitCode: 1,
    message: (dir: string, previous: number, current: number) =>
      `This build has ${current} pages, ${Math.round((1 - current / previous) * 100)}% fewer than the ${previous} of the previous build in ${dir}; the previous output was kept unchanged.`,
    hint: 'If the content really shrank (items unpublished or deleted), build again with --allow-shrink; otherwise check that the backend returned every list in full.',
  }),
  OutputLocked: define({
    code: 'OutputLocked',
    exitCode: 1,
    message: (dir: string, owner: string) => `Another build (${owner}) is writing to ${dir}.`,
    hint: 'Wait for that build to finish, or give this one another --out. If no build is running, delete the lock file named above.',
  }),
  LiveLocked: define({
    code: 'LiveLocked',
    exitCode: 1,
    message: (dir: string, owner: string) => `Another \`site live\` (${owner}) keeps ${dir} up to date.`,
    hint: 'Run one site live per output folder and bucket (docs/live.md): stop the other one, or give this one another --out. If none runs, delete the lock file named above.',
  }),
  LiveNeedsEndpoint: define({
    code: 'LiveNeedsEndpoint',
    exitCode: 2,
    message: () => '`site live` needs a content backend that keeps its edits: the embedded sample backend starts afresh with every build.',
    hint: 'Give the backend with --endpoint or GRAPHQL_ENDPOINT (`site content serve` runs the sample backend as a server); to try edits locally, `site dev` follows the embedded one.',
  }),
  LiveBuildFailed: define({
    code: 'LiveBuildFailed',
    exitCode: 1,
    message: (detail: string) => `The build site live ran in a process of its own (every page) failed: ${detail}.`,
    hint: 'Its warnings and errors are above, each with its own code and fix; site live tries again after a delay.',
  }),
  ContentChecksFailed: define({
    code: 'ContentChecksFailed',
    exitCode: 1,
    message: (problems: number, pages: number) =>
      `${plural(problems, 'content problem')} on ${plural(pages, 'page')} fail the build under --strict; the previous output was kept unchanged.`,
    hint: 'Fix each problem listed above (in the content backend, or in site/ for problems on every page), or build without --strict to publish with warnings; build-report.json lists them all.',
  }),
  RouteDataMissing: define({
    code: 'RouteDataMissing',
    exitCode: 1,
    message: (route: string, path: string) => `Route '${route}' (${path}) has no entry in site/routes.build.ts.`,
    hint: 'Add an entry for the route to site/routes.build.ts with its query (docs/site-authoring.md shows one), or remove the route from site/routes.ts.',
  }),
  EntryNotUnchanged: define({
    code: 'EntryNotUnchanged',
    exitCode: 1,
    message: (route: string, path: string) =>
      `Route '${route}' gave the page ${path} as unchanged, but the build did not say it was (ctx.unchanged returned false, or was not asked for these params with this key).`,
    hint: "In the route's entries() (site/routes.build.ts), yield `{ params, key, unchanged: true }` only when ctx.unchanged(params, key) returned true for that very page; otherwise yield its data.",
  }),
  RouteEntriesMissing: define({
    code: 'RouteEntriesMissing',
    exitCode: 1,
    message: (route: string, path: string) =>
      `Route '${route}' (${path}) has params but no entries() in site/routes.build.ts, so the build cannot know its pages.`,
    hint: "Add entries() to the route's entry in site/routes.build.ts, listing one set of params per page (usually from a list query).",
  }),
  ShellPlaceholderMissing: define({
    code: 'ShellPlaceholderMissing',
    exitCode: 1,
    message: (file: string, placeholder: string, found: number) => `${file} must contain ${placeholder} exactly once (found ${found}).`,
    hint: 'Restore the placeholder in the document shell: every one of <!--app-lang-->, <!--app-csp-->, <!--app-head-->, <!--app-html-->, <!--app-boot-->, <!--app-scripts--> appears once.',
  }),
  ShellPolicyNotFirst: define({
    code: 'ShellPolicyNotFirst',
    exitCode: 1,
    message: (file: string, before: string) =>
      `${file} has ${before} before <!--app-csp-->, where the Content-Security-Policy does not govern it.`,
    hint: 'Put <!--app-csp--> right after <meta charset> as the first tag of <head>, and anything else after it.',
  }),
  SharedMarkupMismatch: define({
    code: 'SharedMarkupMismatch',
    exitCode: 1,
    message: (keys: string, path: string) =>
      `SharedMarkup ${keys} gave ${path} other markup than rendering it there does: its cacheKey must name everything its content depends on (such as the current path or section).`,
    hint: "Add what the part's content depends on to its cacheKey in site/ (sharedMarkup: false, or SITE_SHARED_MARKUP=off, renders every part on every page to compare).",
  }),
  SearchIndexFailed: define({
    code: 'SearchIndexFailed',
    exitCode: 1,
    message: (cause: string) => `The site search index could not be built: ${cause}.`,
    hint: "Pagefind's binary comes from its platform package (@pagefind/linux-x64 and the like), an optional dependency of pagefind: run `npm ci` without --omit=optional on a platform it supports. Or build without search: --no-search, or build.search: false in site/site.config.ts.",
  }),
  PageRenderFailed: define({
    code: 'PageRenderFailed',
    exitCode: 1,
    message: (path: string, route: string, cause: string) => `Rendering ${path} (route ${route}) failed: ${cause}.`,
    hint: "Fix the page's component or layout in site/ (--verbose prints the stack trace), or the content it cannot handle; the previous output was kept unchanged.",
  }),
  ShardTimestampMissing: define({
    code: 'ShardTimestampMissing',
    exitCode: 2,
    message: (shard: string) =>
      `Shard ${shard} needs SOURCE_DATE_EPOCH: every shard and the merge must stamp the build with the same time.`,
    hint: 'Set SOURCE_DATE_EPOCH to the same value for every shard and the merge, for example the commit time: SOURCE_DATE_EPOCH=$(git log -1 --format=%ct).',
  }),
  ShardsIncomplete: define({
    code: 'ShardsIncomplete',
    exitCode: 1,
    message: (problem: string) => `The shards cannot be merged: ${problem}. Nothing was written; the previous output still serves.`,
    hint: 'Run the missing or failed shards again (each with the same SOURCE_DATE_EPOCH, code and options), then the merge.',
  }),
  UsageError: define({
    code: 'UsageError',
    exitCode: 2,
    message: (problem: string) => {
      const text = problem.replace(/^error:\s*/, '').replace(/\s*\n\s*/g, ' ');
      return `The command line is not valid: ${text}${/[.?!)]$/.test(text) ? '' : '.'}`;
    },
    hint: 'Run `site --help`, or `site <command> --help` for every option of a command with its default.',
  }),
  PortInUse: define({
    code: 'PortInUse',
    exitCode: 1,
    message: (host: string, port: number) => `Port ${port} on ${host} is already in use.`,
    hint: 'Stop the program using it, or pass another --port (0 picks any free port).',
  }),
  BackendFailed: define({
    code: 'BackendFailed',
    exitCode: 1,
    message: (what: string, cause: string) => `The embedded content backend ${what}: ${cause}.`,
    hint: 'Check the backend output above (a content file under backend/content/ or CONTENT_OVERRIDES_FILE may not load), or pass --endpoint to use another backend.',
  }),
  DiskFull: define({
    code: 'DiskFull',
    exitCode: 1,
    message: (cause: string) => `The disk is full (or the user's quota used up): ${cause}.`,
    hint: 'Free space on the disk that holds the output folder (--out), the build cache (--cache-dir) and the temporary folder, then run the command again.',
  }),
  UnexpectedError: define({
    code: 'UnexpectedError',
    exitCode: 1,
    message: (cause: string) => `The command failed unexpectedly: ${cause}`,
    hint: 'Run again with --verbose for the stack trace; if the cause is not in your site code or content, report it with the command you ran.',
  }),
} as const;

export interface BuildErrorDetails {
  /** Page path the error belongs to. */
  page?: string;
  /** GraphQL operation name. */
  operation?: string;
  cause?: unknown;
  /** Per-page failures, for PagesFailed. */
  failures?: readonly PageFailure[];
}

export interface PageFailure {
  page: string;
  route: string;
  operation: string;
  cause: string;
  fix: string;
}

/** The one error class of the build. */
export class BuildError extends Error {
  readonly code: string;
  readonly hint: string;
  readonly exitCode: 1 | 2;
  readonly details: BuildErrorDetails;
  readonly isBuildError = true;

  constructor(definition: ErrorDefinition<never[]> & { code: string }, message: string, details: BuildErrorDetails = {}) {
    super(message, { cause: details.cause });
    this.name = 'BuildError';
    this.code = definition.code;
    this.hint = definition.hint;
    this.exitCode = definition.exitCode;
    this.details = details;
  }
}

/** Creates a BuildError from a catalogue entry and its message arguments. */
export function createBuildError<TArgs extends unknown[]>(
  definition: ErrorDefinition<TArgs>,
  args: TArgs,
  details: BuildErrorDetails = {},
): BuildError {
  return new BuildError(definition as unknown as ErrorDefinition<never[]>, definition.message(...args), details);
}

/** What of an error crosses a thread boundary: its message, code and stack, and what caused it, as text. */
export interface ThreadError {
  message: string;
  stack?: string;
  code?: string;
  cause?: string;
}

/** What crosses a thread boundary of `error` (reviveError makes it an error again). */
export function threadError(error: unknown): ThreadError {
  const cause = (error as Error | null)?.cause;
  return {
    message: (error as Error)?.message ?? String(error),
    stack: (error as Error)?.stack,
    code: isBuildError(error) ? error.code : undefined,
    cause: cause === undefined ? undefined : cause instanceof Error ? cause.message : String(cause),
  };
}

/** A BuildError again from what crossed a thread boundary (its code and message), or a plain Error when it was none. */
export function reviveError({ message, code, stack, cause }: ThreadError): Error {
  const definition = code ? (BuildErrors as Record<string, ErrorDefinition<never[]>>)[code] : undefined;
  const details = cause === undefined ? {} : { cause: new Error(cause) };
  const error = definition ? new BuildError(definition, message, details) : new Error(message, details);
  if (stack) error.stack = stack;
  return error;
}

/** Guard that works across module copies, where `instanceof` would not. */
export function isBuildError(value: unknown): value is BuildError {
  return typeof value === 'object' && value !== null && (value as { isBuildError?: unknown }).isBuildError === true;
}

/** For a listen's `.catch`: turns a taken port (EADDRINUSE) into PortInUse; rethrows anything else. */
export function portInUse(host: string, port: number): (error: unknown) => never {
  return (error) => {
    throw (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE'
      ? createBuildError(BuildErrors.PortInUse, [host, port], { cause: error })
      : error;
  };
}
