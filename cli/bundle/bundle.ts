import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { build as esbuild } from 'esbuild';
import { rollup, type OutputChunk, type RollupOutput } from 'rollup';
import { createClientConfig } from '../../rollup.config.ts';
import { ASSETS_DIR } from '../../runtime/shared/contract.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { writeSiteFile } from '../output/write.ts';

/** What the HTML needs to know about the client bundle. URLs are root-relative. */
export interface AssetManifest {
  /** The entry script. */
  entry: string;
  /** Static imports of the entry (modulepreload). */
  entryImports: string[];
  /** The hashed stylesheet. */
  css: string;
  /** Per page module name (site/pages/{name}.tsx): its chunk first, then the chunks it imports. */
  pageChunks: Record<string, string[]>;
  /** Hash over every asset's content: part of the build id. */
  hash: string;
}

/** Builds the client (rollup) and the stylesheet (esbuild) into `{siteDir}/_assets`. */
export async function bundleClient(root: string, siteDir: string): Promise<AssetManifest> {
  const assetsDir = join(siteDir, ASSETS_DIR);
  await mkdir(assetsDir, { recursive: true });
  const [output, css] = await Promise.all([buildScripts(root, assetsDir), buildStyles(root, assetsDir)]);
  return createManifest(output, css, root);
}

// --- internal ---

async function buildScripts(root: string, assetsDir: string): Promise<RollupOutput> {
  const config = createClientConfig({ outDir: assetsDir });
  const input = Object.fromEntries(Object.entries(config.input as Record<string, string>).map(([k, v]) => [k, resolve(root, v)]));
  try {
    const bundle = await rollup({ ...config, input });
    try {
      return await bundle.write(config.output as object);
    } finally {
      await bundle.close();
    }
  } catch (cause) {
    const err = cause as { message?: string; id?: string; loc?: { file?: string; line?: number } };
    const where = err.loc?.file ? ` (${err.loc.file}:${err.loc.line ?? '?'})` : err.id ? ` (${err.id})` : '';
    throw createBuildError(BuildErrors.BundleFailed, [`${err.message ?? String(cause)}${where}`], { cause });
  }
}

async function buildStyles(root: string, assetsDir: string): Promise<{ file: string; content: string }> {
  const result = await esbuild({
    entryPoints: [resolve(root, 'site/styles/main.css')],
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const content = result.outputFiles[0]?.text ?? '';
  const file = `site-${shortHash(content)}.css`;
  await writeSiteFile(assetsDir, file, content);
  return { file, content };
}

function createManifest(output: RollupOutput, css: { file: string; content: string }, root: string): AssetManifest {
  const chunks = output.output.filter((o): o is OutputChunk => o.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const url = (file: string): string => `/${ASSETS_DIR}/${file}`;
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw createBuildError(BuildErrors.BundleFailed, ['rollup produced no entry chunk']);

  const pagesDir = resolve(root, 'site/pages');
  const pageChunks: Record<string, string[]> = {};
  for (const chunk of chunks) {
    const facade = chunk.facadeModuleId;
    if (!chunk.isDynamicEntry || !facade?.startsWith(pagesDir)) continue;
    const name = basename(facade).replace(/\.[tj]sx?$/, '');
    pageChunks[name] = [chunk.fileName, ...staticImports(chunk, byFile)].map(url);
  }
  const hash = createHash('sha256');
  for (const c of [...chunks].sort((a, b) => a.fileName.localeCompare(b.fileName))) hash.update(c.fileName).update(c.code);
  hash.update(css.content);
  return {
    entry: url(entry.fileName),
    entryImports: staticImports(entry, byFile).map(url),
    css: url(css.file),
    pageChunks,
    hash: hash.digest('hex'),
  };
}

function staticImports(chunk: OutputChunk, byFile: Map<string, OutputChunk>, seen = new Set<string>()): string[] {
  for (const file of chunk.imports) {
    if (seen.has(file)) continue;
    seen.add(file);
    const next = byFile.get(file);
    if (next) staticImports(next, byFile, seen);
  }
  return [...seen];
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 10).replace(/[-_]/g, 'x');
}
