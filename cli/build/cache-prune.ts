import { constants } from 'node:fs';
import { lstat, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { listBuildStates, type CacheUses, type StoredState } from './incremental/build-state.ts';
import { CACHE_KINDS, type BuildUse, type CacheEntry, type CacheKind } from './cache-kinds.ts';

/**
 * Keeps the build cache bounded (docs/cli.md, "site cache"): the states of the output folders built
 * most recently stay, at most `maxStates` of them and none older than `maxAgeDays`; every other kind's
 * entries stay while a kept state refers to them (cache-kinds.ts). Runs at the end of every successful
 * build, and on request (`site cache prune`).
 */
export interface PruneBounds {
  /** States kept, newest build first. @default 8 */
  maxStates: number;
  /** Days since a folder's last build after which its state goes. @default 14 */
  maxAgeDays: number;
}

export const DEFAULT_PRUNE_BOUNDS: PruneBounds = { maxStates: 8, maxAgeDays: 14 };

export interface PruneOptions extends Partial<PruneBounds> {
  /** The output folder a build just finished into: its state stays whatever the bounds. */
  keep?: string;
  /** Say what would go, remove nothing. @default false */
  dryRun?: boolean;
  /** @default Date.now() */
  now?: number;
  /**
   * An entry used or written this recently stays whatever refers to it: a build running beside this one
   * (another output folder, a shard) may use it before it saves its own state. @default GRACE_MS
   */
  graceMs?: number;
  /**
   * Prune the other kinds' entries only when they were last pruned this long ago (the states always, and
   * each removed state's own files), as `builds/.entries-pruned`'s time records: listing tens of thousands
   * of media takes a tenth of a second or more, and an entry removed sooner would mostly be one still
   * within the grace period. @default 0 (every time)
   */
  entriesEveryMs?: number;
}

/** What one kind holds, or what pruning removed of it. */
export interface KindCount {
  count: number;
  bytes: number;
}

export interface PruneResult {
  /** States kept and removed (removed: records without uses too, a state saved before uses were). */
  kept: StoredState[];
  removed: StoredState[];
  /** Per kind: the entries removed (none listed when entriesEveryMs left them for later). */
  entries: Record<string, KindCount>;
  /** Milliseconds it took. */
  ms: number;
}

/** The cache entries a finished build used, by kind; an update in place keeps the previous uses of kinds its output keeps unasked. */
export async function usesOf(build: BuildUse, previous: CacheUses | null): Promise<CacheUses> {
  const uses: CacheUses = {};
  for (const kind of CACHE_KINDS) {
    if (!kind.usedBy) continue;
    const keys = new Set(await kind.usedBy(build));
    // Media an update in place keeps in the output were not asked for again, but a later full build needs their entries.
    if (kind.carried) for (const key of previous?.[kind.name] ?? []) keys.add(key);
    uses[kind.name] = [...keys];
  }
  return uses;
}

export async function pruneCache(cacheDir: string, options: PruneOptions = {}): Promise<PruneResult> {
  const started = performance.now();
  const { maxStates, maxAgeDays } = { ...DEFAULT_PRUNE_BOUNDS, ...definedOnly(options) };
  const now = options.now ?? Date.now();
  const grace = options.graceMs ?? GRACE_MS;
  const states = await listBuildStates(cacheDir);
  const kept: StoredState[] = [];
  const removed: StoredState[] = [];
  let counted = 0;
  for (const state of states) {
    const keep =
      state.outDir !== null && (state.outDir === options.keep || (counted < maxStates && now - state.builtAt <= maxAgeDays * DAY_MS));
    if (keep) counted++;
    // A record without uses is a state saved before uses were (no build reads it again), or a cursor left
    // alone: gone once it is older than the grace period.
    if (keep || (state.outDir === null && now - state.builtAt <= grace)) kept.push(state);
    else removed.push(state);
  }
  if (!options.dryRun) for (const state of removed) for (const file of state.files) await rm(file, { force: true });
  const entries: Record<string, KindCount> = {};
  const marker = join(cacheDir, 'builds', '.entries-pruned');
  // A marker that is not a plain file (a link planted in a restored cache, say) counts as no sweep yet.
  const found = options.entriesEveryMs ? await lstat(marker).catch(() => null) : null;
  const last = found?.isFile() ? found.mtimeMs : 0;
  // Within the interval, a state that went leaves its entries for the next sweep, an hour away at most:
  // listing every entry is what a prune costs (performance.md), and a build into a new folder evicts one.
  if (options.entriesEveryMs && last <= now && now - last < options.entriesEveryMs)
    return { kept, removed, entries, ms: performance.now() - started };
  if (!options.dryRun) await stampMarker(marker, now).catch(() => undefined);
  for (const kind of CACHE_KINDS) {
    if (!kind.usedBy) continue;
    const used = new Set<string>();
    for (const state of kept) for (const key of state.uses?.[kind.name] ?? []) used.add(key);
    entries[kind.name] = await pruneKind(kind, cacheDir, used, { now, grace, dryRun: options.dryRun ?? false });
  }
  return { kept, removed, entries, ms: performance.now() - started };
}

/** What the build cache holds, per kind, and its states: for `site cache`. */
export async function describeCache(
  cacheDir: string,
): Promise<{ states: StoredState[]; kinds: (KindCount & { name: string; holds: string })[]; other: KindCount & { names: string[] } }> {
  const states = await listBuildStates(cacheDir);
  const kinds: (KindCount & { name: string; holds: string })[] = [];
  for (const kind of CACHE_KINDS) {
    let bytes = 0;
    const entries = await kind.entries(cacheDir);
    for (const entry of entries) bytes += await bytesOf(entry.path);
    kinds.push({ name: kind.name, holds: kind.holds, count: entries.length, bytes });
  }
  // Everything else at the top of the cache folder (`site dev`'s output, a dev server's scratch folders).
  const known = new Set(['builds', ...CACHE_KINDS.map((kind) => kind.top)]);
  const names = (await readdir(cacheDir).catch(() => [] as string[])).filter((name) => !known.has(name)).sort();
  let bytes = 0;
  for (const name of names) bytes += await bytesOf(join(cacheDir, name));
  return { states, kinds, other: { names, count: names.length, bytes } };
}

/** Bytes of a file, or of everything under a folder (links not followed). */
export async function bytesOf(path: string): Promise<number> {
  const info = await lstat(path).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  let bytes = 0;
  for (const name of await readdir(path).catch(() => [] as string[])) bytes += await bytesOf(join(path, name));
  return bytes;
}

// --- internal ---

/** An hour: longer than any build this project has measured (100,000 pages, cold: minutes). */
const GRACE_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the kind's entries that no kept state uses, that are dead (an expired medium), or that are
 * temporary files of an interrupted write; never one used or written within the grace period. Only
 * those are looked at on disk: the entries in use (most of them, after a build) cost a name each.
 */
async function pruneKind(
  kind: CacheKind,
  cacheDir: string,
  used: ReadonlySet<string>,
  { now, grace, dryRun }: { now: number; grace: number; dryRun: boolean },
): Promise<KindCount> {
  const gone: KindCount = { count: 0, bytes: 0 };
  for (const entry of await kind.entries(cacheDir)) {
    if (!unwanted(kind, entry, used, now)) continue;
    const info = await lstat(entry.path).catch(() => null);
    // Hard-linking a medium into an output changes its ctime: a build that just took it counts as a use.
    if (!info || now - Math.max(info.mtimeMs, info.ctimeMs) <= grace) continue;
    gone.count++;
    gone.bytes += info.isDirectory() ? await bytesOf(entry.path) : info.size;
    if (!dryRun) await rm(entry.path, { recursive: true, force: true });
  }
  return gone;
}

function unwanted(kind: CacheKind, entry: CacheEntry, used: ReadonlySet<string>, now: number): boolean {
  return entry.key === null || !used.has(entry.key) || (kind.dead?.(entry, now) ?? false);
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * Makes the sweep marker anew and dates it `now`, through the file it created: whatever was at its name
 * is removed first (a link is removed, not followed), and the new file is made exclusively, so neither
 * the write nor the date reaches a file a cache writer pointed the name at.
 */
async function stampMarker(marker: string, now: number): Promise<void> {
  await rm(marker, { force: true });
  const file = await open(marker, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    await file.utimes(new Date(now), new Date(now));
  } finally {
    await file.close();
  }
}
