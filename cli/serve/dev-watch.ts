import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

/** What to watch: folders (recursively) and single files. */
export interface WatchTargets {
  dirs: readonly string[];
  files?: readonly string[];
}

/** Options of watchFiles. */
export interface WatchOptions {
  /** Quiet time after the last change before `onChange` runs, so one save (or a `git checkout`) is one rebuild. @default 150 */
  debounceMs?: number;
  /** Called when a watcher fails (its folder was removed, say); the other watchers go on. @default ignore */
  onError?: (error: Error) => void;
}

/** Editors' temporary and swap files, which change on every keystroke or save and are never site input. */
const IGNORED =
  /(?:^|[/\\])(?:\.site-cache|node_modules|\.git)(?:[/\\]|$)|~$|\.swp$|\.swx$|\.tmp(?:-\d+)?$|(?:^|[/\\])4913$|(?:^|[/\\])\.#/;

/**
 * Watches folders recursively and single files, and calls `onChange` with the changed paths (absolute,
 * deduplicated) once changes stop for `debounceMs`. A single file is watched through its folder, since
 * editors and scripts often replace a file (write a new one, rename it over) rather than change it.
 */
export function watchFiles(
  targets: WatchTargets,
  onChange: (files: string[]) => void,
  { debounceMs = 150, onError = () => undefined }: WatchOptions = {},
): { close(): void } {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const note = (file: string): void => {
    if (IGNORED.test(file)) return;
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      const files = [...pending];
      pending.clear();
      onChange(files);
    }, debounceMs);
  };
  const watchers: FSWatcher[] = [];
  for (const dir of targets.dirs) {
    watchers.push(watch(dir, { recursive: true }, (_event, name) => note(name ? join(dir, name.toString()) : dir)));
  }
  const files = (targets.files ?? []).map((f) => resolve(f));
  for (const dir of new Set(files.map(dirname))) {
    const names = new Set(files.filter((f) => dirname(f) === dir).map((f) => basename(f)));
    watchers.push(watch(dir, (_event, name) => name && names.has(name.toString()) && note(join(dir, name.toString()))));
  }
  // An FSWatcher without an error listener would end the whole process on its first error.
  for (const w of watchers) w.on('error', onError);
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}

/** `site/pages/news-index.tsx` for a file under `root`, the absolute path otherwise: for log lines. */
export function displayPath(root: string, file: string): string {
  const rel = relative(root, file);
  return rel.startsWith('..') ? file : rel;
}
