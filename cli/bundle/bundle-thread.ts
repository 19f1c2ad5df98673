/**
 * The bundle thread (bundle-cache.ts starts it when the client bundle is not cached): builds the client
 * bundle once and answers with its manifest, or with the error, then ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isBuildError } from '../errors/errors.ts';
import { bundleClient } from './bundle.ts';
import type { BundleThreadAnswer, BundleThreadInput } from './bundle-cache.ts';

const { root, siteDir } = workerData as BundleThreadInput;
const answer: BundleThreadAnswer = await bundleClient(root, siteDir).then(
  (manifest) => ({ manifest }),
  (error: unknown) => ({ error: { message: (error as Error)?.message ?? String(error), stack: (error as Error)?.stack, code: isBuildError(error) ? error.code : undefined } }),
);
parentPort!.postMessage(answer);
