/**
 * The bundle thread (bundle-cache.ts starts it when the client bundle is not cached): builds the client
 * bundle once and answers with its manifest, or with the error, then ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { threadError } from '../errors/errors.ts';
import { bundleClient } from './bundle.ts';
import type { BundleThreadAnswer, BundleThreadInput } from './bundle-cache.ts';

const { root, siteDir } = workerData as BundleThreadInput;
const answer: BundleThreadAnswer = await bundleClient(root, siteDir).then(
  (manifest) => ({ manifest }),
  (error: unknown) => ({ error: threadError(error) }),
);
parentPort!.postMessage(answer);
