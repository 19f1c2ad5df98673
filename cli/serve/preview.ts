import { resolve } from 'node:path';
import { BuildErrors, createBuildError, portInUse } from '../errors/errors.ts';
import { isSiteOutput, recoverUnlessBuilding } from '../output/output.ts';
import { readSitePolicy } from '../render/csp.ts';
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
  const policy = await readSitePolicy(root);
  const server = await startStaticServer({ root, port: options.port, host: options.host, headers: policy ? { 'content-security-policy': policy } : {} }).catch(portInUse(options.host, options.port));
  return Object.assign(server, { root });
}
