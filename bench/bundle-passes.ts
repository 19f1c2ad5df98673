/**
 * The client bundle's memory, one rollup pass against passes whose graphs do not overlap (issue 44,
 * point 1; docs/performance.md, "the client bundle's peak, pass by pass"):
 *   npm run bench:bundle-passes [-- --runs 2 --minify]
 * Each way runs in a process of its own, every pass in a worker thread started when the previous one has
 * ended (as the build's bundle thread runs), and prints the process's rise in resident size over what it
 * held before the first pass: at the peak, and after each pass. The ways:
 * - one: today's client (rollup.config.ts), one pass;
 * - split: React (react, react/jsx-runtime, react-dom/client), then the other packages the site imports
 *   (the names the runtime takes from @sentry/browser, wouter, dompurify, graphql-request, p-limit), then
 *   the site and runtime with every package import external.
 * Chunks are not minified unless --minify: @swc/core, which mangles the entry and React's chunk, crashes
 * the process when a second thread loads it (measured 2026-11-28), so --minify only holds for `one`.
 * The split's files are not a working client (nothing links them): the bench measures the graphs only.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Plugin } from 'rollup';
import { median } from './measure.ts';

const PROJECT = join(import.meta.dirname, '..');
/** The packages the site imports, by the passes of the split that bundle them. */
const PACKAGE_PASSES: Record<string, string> = {
  react: `export * from 'react'; export * from 'react/jsx-runtime'; export * from 'react-dom/client';`,
  packages: [
    `export { browserSessionIntegration, captureException, init } from '@sentry/browser';`,
    `export * from 'wouter';`,
    `export * as dompurify from 'dompurify';`,
    `export * as graphqlRequest from 'graphql-request';`,
    `export * as pLimit from 'p-limit';`,
  ].join('\n'),
};
const PACKAGE_IMPORT = /^(react|react-dom|wouter|@sentry|dompurify|graphql-request|p-limit)(\/|$)/;
const WAYS: Record<string, string[]> = { one: ['all'], split: ['react', 'packages', 'site'] };

interface PassInput {
  pass: string;
  outDir: string;
  minify: boolean;
}

if (!isMainThread) {
  await runPass(workerData as PassInput);
  parentPort!.postMessage('done');
} else if (process.argv[2] === '--way') {
  await measureWay(process.argv[3]!, process.argv[4] === 'minify');
} else {
  const args = new Map<string, string>();
  for (let i = 2; i < process.argv.length; i++) {
    const name = process.argv[i]!.replace(/^--/, '');
    const value = process.argv[i + 1];
    if (value !== undefined && !value.startsWith('--')) {
      args.set(name, value);
      i++;
    } else args.set(name, 'true');
  }
  const runs = Number(args.get('runs') ?? 2);
  const minify = args.has('minify');
  const peaks: Record<string, number[]> = {};
  // Interleaved, so a busier moment of the shared machine falls on both ways alike.
  for (let i = 0; i < runs; i++) {
    for (const way of Object.keys(WAYS)) {
      if (way === 'split' && minify) continue;
      const line = await runWay(way, minify);
      console.log(line);
      const peak = Number(/peak \+(\d+)/.exec(line)?.[1]);
      (peaks[way] ??= []).push(peak);
    }
  }
  for (const [way, values] of Object.entries(peaks))
    console.log(`${way}: median peak rise +${median(values)} MiB over ${values.length} runs`);
}

// --- internal ---

/** Runs one way in a process of its own and answers with its summary line. */
function runWay(way: string, minify: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--way', way, minify ? 'minify' : ''], {
      cwd: PROJECT,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const line = out.split('\n').find((l) => l.startsWith(`${way}:`));
      if (code === 0 && line) resolve(line);
      else reject(new Error(`the ${way} way failed (exit ${code ?? signal}):\n${out}`));
    });
  });
}

async function measureWay(way: string, minify: boolean): Promise<void> {
  const rss = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
  const out = await mkdtemp(join(tmpdir(), 'bench-bundle-passes-'));
  const started = performance.now();
  const after: string[] = [];
  try {
    for (const pass of WAYS[way]!) {
      await new Promise<void>((resolve, reject) => {
        const input: PassInput = { pass, outDir: join(out, pass), minify };
        const worker = new Worker(new URL(import.meta.url), { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: 32 } });
        worker.once('error', reject);
        worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the ${pass} pass's thread exited with ${code}`))));
      });
      after.push(`${pass} +${(rss() - before).toFixed(0)}`);
    }
  } finally {
    clearInterval(sampler);
    await rm(out, { recursive: true, force: true });
  }
  const secs = ((performance.now() - started) / 1000).toFixed(2);
  console.log(
    `${way}: ${secs} s, peak +${(peak - before).toFixed(0)} MiB over ${before.toFixed(0)}; after each pass (MiB): ${after.join(', ')}`,
  );
}

async function runPass({ pass, outDir, minify }: PassInput): Promise<void> {
  const { rollup } = await import('rollup');
  const { createClientConfig, CLIENT_ENTRY } = await import('../rollup.config.ts');
  const config = createClientConfig({ outDir, minify });
  const source = PACKAGE_PASSES[pass];
  const virtual = '\0bench-bundle-passes';
  const packages: Plugin = {
    name: 'package-pass',
    resolveId: (id) => (id === virtual ? id : null),
    load: (id) => (id === virtual ? source : null),
  };
  const bundle = await rollup({
    ...config,
    input: source === undefined ? { entry: join(PROJECT, CLIENT_ENTRY) } : { [pass]: virtual },
    plugins: source === undefined ? config.plugins : [packages, ...(config.plugins as Plugin[])],
    external: pass === 'site' ? (id) => PACKAGE_IMPORT.test(id) : undefined,
    preserveEntrySignatures: source === undefined ? false : 'strict',
    onwarn: () => undefined,
  });
  try {
    await bundle.write(config.output as object);
  } finally {
    await bundle.close();
  }
}
