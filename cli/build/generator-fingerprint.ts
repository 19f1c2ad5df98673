import { createHash } from 'node:crypto';
import { hashFiles } from '../config/hash-files.js';
import { clientConfigOf, type ResolvedConfig } from '../config/config.ts';
import { installedManifests } from '../config/installed-packages.ts';

/**
 * Everything besides a page's data that decides its bytes (issue 17.1): the generator's own server-side
 * code (cli/, runtime/), the site's code (site/), the document shell (templates/), the tool's version
 * and its locked dependencies (package.json, package-lock.json) and the versions actually installed
 * (each dependency's node_modules/<name>/package.json: an install that does not match the lock file
 * renders with what is installed), the Node.js and ICU versions (dates are formatted with Intl), and
 * the options that reach the output. An incremental build keeps a page's
 * bytes only when this is what the previous build recorded; otherwise every page is rendered.
 * Reading the ~250 source files takes a few tens of milliseconds, once per build.
 */
export async function generatorFingerprint(config: FingerprintOptions, root = config.root): Promise<string> {
  const code = await hashFiles(root, CODE_DIRS, [...CODE_FILES, ...installedManifests(root)]);
  const options = {
    client: clientConfigOf(config),
    baseUrl: config.baseUrl,
    payloadBudget: config.payloadBudget,
    drafts: config.drafts,
    mediaMaxBytes: config.mediaMaxBytes,
    csp: config.csp,
    images: imageOptionsOf(config.images),
    searchPartitionPages: config.searchPartitionPages,
  };
  return createHash('sha256')
    .update(code)
    .update('\0')
    .update(`${process.versions.node}\0${process.versions.icu ?? ''}\0${process.versions.unicode ?? ''}`)
    .update('\0')
    .update(JSON.stringify(options))
    .digest('hex')
    .slice(0, 16);
}

/** The options that reach the output, and the project root whose code is hashed. */
export type FingerprintOptions = Pick<
  ResolvedConfig,
  | 'root'
  | 'buildCheckInterval'
  | 'publicEndpoint'
  | 'sentryDsn'
  | 'baseUrl'
  | 'payloadBudget'
  | 'drafts'
  | 'mediaMaxBytes'
  | 'csp'
  | 'images'
  | 'searchPartitionPages'
>;

/**
 * What of the image settings reaches the page data: widths, formats, the pixel limit and the image
 * service's address with a digest of its key and salt (a new key signs every URL anew), never the key.
 */
function imageOptionsOf(images: ResolvedConfig['images']): unknown {
  const { service, ...rest } = images;
  return {
    ...rest,
    service: service && {
      url: service.url,
      signing: createHash('sha256').update(service.key).update('\0').update(service.salt).digest('hex'),
    },
  };
}

/** Folders whose files are the generator's and the site's code and shell. */
export const CODE_DIRS = ['cli', 'runtime', 'site', 'templates'];
/** Files that name the tool's version and pin its dependencies. */
export const CODE_FILES = ['package.json', 'package-lock.json'];
