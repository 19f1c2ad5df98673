/**
 * The build's error catalogue. Codes are permanent and greppable; every message names what failed
 * and the hint says what to do. Code throws `new BuildError(BuildErrors.X, details)`.
 */

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
    message: (file: string, first: string, second: string) => `Two pages write to ${file}: '${first}' and '${second}'.`,
    hint: 'Give one of the items a different slug in the content backend (slugs that differ only by case collide on case-insensitive file systems).',
  }),
  UnsafePath: define({
    code: 'UnsafePath',
    exitCode: 1,
    message: (path: string, route: string) => `The page path '${path}' of route ${route} is not a safe file path.`,
    hint: 'Slugs may contain only lowercase letters, digits and hyphens; fix the slug in the content backend.',
  }),
  BundleFailed: define({
    code: 'BundleFailed',
    exitCode: 1,
    message: (cause: string) => `The client bundle could not be built: ${cause}`,
    hint: 'Fix the error in the named file under site/ or runtime/, then build again.',
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
export function createBuildError<TArgs extends unknown[]>(definition: ErrorDefinition<TArgs>, args: TArgs, details: BuildErrorDetails = {}): BuildError {
  return new BuildError(definition as unknown as ErrorDefinition<never[]>, definition.message(...args), details);
}

/** Guard that works across module copies, where `instanceof` would not. */
export function isBuildError(value: unknown): value is BuildError {
  return typeof value === 'object' && value !== null && (value as { isBuildError?: unknown }).isBuildError === true;
}
