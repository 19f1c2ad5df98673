import { open } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { BuildErrors, createBuildError, portInUse } from '../errors/errors.ts';
import { isSiteOutput, recoverUnlessBuilding } from '../output/output.ts';
import { SEARCH_DIR } from '../../runtime/shared/contract.ts';
import { cspOfPage, readSitePolicy, withWebAssembly } from '../render/csp.ts';
import { startStaticServer, type StaticServer } from './static-server.ts';

/**
 * `site preview`: serves the built site in `out` the way object storage would, with the pages' own
 * Content-Security-Policy as a header too, as a CDN in front of the bucket would send it.
 */
export async function startPreview(options: { out: string; port: number; host: string }): Promise<StaticServer & { root: string }> {
  const root = resolve(options.out);
  // A build killed in the middle of its swap: finish it first, unless a live build holds the folder.
  const recovered = await recoverUnlessBuilding(root);
  if (recovered) console.warn(`[preview] ${recovered}`);
  if (!(await isSiteOutput(root))) throw createBuildError(BuildErrors.OutputMissing, [root]);
  const policy = await policyHeaders(root);
  const server = await startStaticServer({ root, port: options.port, host: options.host, headers: policy }).catch(
    portInUse(options.host, options.port),
  );
  return Object.assign(server, { root });
}

/**
 * The Content-Security-Policy header for each answer: a page's own policy (the search page's allows
 * WebAssembly, no other does); for the search index's files, the site's with WebAssembly allowed, since
 * Pagefind's worker script runs WebAssembly under the policy it is served with (a worker does not take
 * the page's); for every other file, the site's. None when the build wrote its pages without a policy
 * (--no-csp). Every answer, with or without one, carries `frame-ancestors 'none'`, which only a header can
 * (a page of the site in another site's frame is how clickjacking starts); a CDN should send it too
 * (docs/reliability.md, "The browser").
 */
export async function policyHeaders(root: string): Promise<(file: string | null) => Promise<Record<string, string>>> {
  const site = await readSitePolicy(root);
  if (site === null) return async () => ({ 'content-security-policy': NO_FRAMING });
  const search = withWebAssembly(site);
  const header = (policy: string): Record<string, string> => ({ 'content-security-policy': `${policy}; ${NO_FRAMING}` });
  return async (file) => {
    if (file === null) return header(site);
    if (file.endsWith('.html')) return header((await headPolicy(file)) ?? site);
    return header(relative(root, file).split(sep)[0] === SEARCH_DIR ? search : site);
  };
}

// --- internal ---

/** No page of the site may be shown in a frame, not even by the site itself. */
const NO_FRAMING = "frame-ancestors 'none'";

/** The policy of a page, from the first bytes of its file (the policy is the first tag of its head); null when it has none. */
async function headPolicy(file: string): Promise<string | null> {
  const handle = await open(file).catch(() => null);
  if (!handle) return null;
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(HEAD_BYTES), position: 0 });
    return cspOfPage(buffer.toString('utf8', 0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** Bytes of a page read for its policy: the doctype, the charset and the policy fit with room to spare. */
const HEAD_BYTES = 4096;
