import { htmlFileFor, payloadFileFor } from '../../../runtime/shared/paths.ts';
import { mediaFileFor } from '../../content/media.ts';
import { fileKey } from '../../output/write.ts';
import { loadBuildState, pageHash, type BuildState, type RememberedPage } from './build-state.ts';

/** The state of the build in the output folder, or why there is none to go on from. */
export type SavedBuild = { state: BuildState } | { state: null; reason: string };

/**
 * The state the previous build of the folder saved, when the same generator wrote it and the folder is
 * still what it wrote (build-state.ts loadBuildState); whether its build id is this build's is decided
 * once the build id is known (build/plan.ts decidePlan).
 */
export async function savedBuild(
  options: { incremental: boolean; cacheDir: string; outDir: string },
  generator: string,
): Promise<SavedBuild> {
  if (!options.incremental) return { state: null, reason: '--full' };
  return loadBuildState(options.cacheDir, options.outDir, generator);
}

/**
 * The previous build's page when it had this page with the same route, path and data; otherwise the
 * page's hash when it was taken to compare (a page the previous build lacks is hashed where it renders).
 * `known`: the page's hash, when the caller already took it (a page read back from the previous output).
 */
export function unchangedPage(
  previous: BuildState | null,
  routeId: string,
  path: string,
  json: string,
  known?: string,
): { kept: RememberedPage | null; hash?: string } {
  const before = previous?.pages.get(path);
  if (!before) return { kept: null };
  const hash = known ?? pageHash(routeId, path, json);
  return before.hash === hash ? { kept: before, hash } : { kept: null, hash };
}

/**
 * The files of the previous output this build no longer has: the pages it did not build, the extra
 * outputs it did not write, the media nothing refers to any more. The staging folder of an update in
 * place lacks the unchanged files, so the output folder is no guide to them.
 */
export function filesToRemove(
  previous: BuildState,
  built: Iterable<string>,
  outputs: ReadonlyMap<string, string>,
  media: ReadonlySet<string>,
): string[] {
  // Most updates remove nothing: every page, output and medium of the previous build is there again, by
  // the same name. That is seen without the 50,000 file names (a fifth of an update's garbage at 10,803 pages).
  const builtPaths = new Set(built);
  const same = <T>(names: Iterable<T>, has: (name: T) => boolean): boolean => {
    for (const name of names) if (!has(name)) return false;
    return true;
  };
  if (
    same(previous.pages.keys(), (path) => builtPaths.has(path)) &&
    same(previous.outputs.keys(), (file) => outputs.has(file)) &&
    same(previous.media, (url) => media.has(url))
  )
    return [];
  const pageFiles = (paths: Iterable<string>): string[] => [...paths].flatMap((path) => [htmlFileFor(path), payloadFileFor(path)]);
  // Whatever this build has or keeps stays, however the previous build's records spell it (another case,
  // a medium under an encoded slash, an output named like a page's file).
  const kept = new Set([...pageFiles(builtPaths), ...outputs.keys(), ...[...media].map(mediaFileFor)]);
  const before = [...pageFiles(previous.pages.keys()), ...previous.outputs.keys(), ...[...previous.media].map(mediaFileFor)];
  // A name spelt as this build spells it stays; only the others are compared by their keys, made then
  // (50,000 names at 10,000 pages took a tenth of a second, where an edit changes none).
  const others = before.filter((file) => !kept.has(file));
  if (others.length === 0) return [];
  const keys = new Set([...kept].map(fileKey));
  return others.filter((file) => !keys.has(fileKey(file)));
}
