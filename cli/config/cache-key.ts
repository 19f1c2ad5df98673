import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { BuildErrors, createBuildError } from '../errors/errors.ts';

/**
 * The key that signs what the build cache keeps that ends up running or shown on the site (the client
 * bundle, the search index's partitions, cleaned rich text). A checksum anyone can recompute proves only
 * that an entry is whole; a poisoned cache (a CI cache another job wrote, a restored archive) could hold
 * attacker JavaScript with a correct one. An HMAC under a key that does not live in the cache folder
 * proves that a build holding the key wrote the entry; an entry that does not verify is made again.
 *
 * Where the key lives, first found:
 * - `SITE_CACHE_KEY` (at least 32 characters): a CI secret, so that runs sharing a cache share the key.
 * - `$XDG_CONFIG_HOME/site/cache-key` (else `~/.config/site/cache-key`), made at the first build with 32
 *   random bytes, readable by its owner only. Never inside the cache folder.
 * - Neither (no home folder that can be written): a key of this process alone, so nothing a cache held
 *   before is used, and the build says why.
 */
export interface CacheKey {
  /** HMAC-SHA256 under the key of `parts`, each length-prefixed so no two lists of parts sign alike. */
  sign(...parts: readonly (string | Uint8Array)[]): Buffer;
  /**
   * Seals the JSON text of an object, fed piece by piece (a build state is written in parts): all of it
   * but its closing `}`, which end() gives back as the member `,"mac":"…"}` that closes it: the
   * HMAC-SHA256 under the key of `context`, a NUL, and all the text fed. sealJson() does it for a whole text.
   */
  jsonSeal(context: string): JsonSeal;
  /** Whether `text` is a JSON object's text closed by the `"mac"` member jsonSeal(context) gave for the rest of it. */
  sealedJson(context: string, text: string): boolean;
  /** Whether `mac` is sign(...parts), compared in constant time. */
  verify(mac: Uint8Array, ...parts: readonly (string | Uint8Array)[]): boolean;
  /** Where the key came from: 'SITE_CACHE_KEY', the key file's path, or 'this process'. */
  readonly source: string;
  /** Why the key is this process's alone (entries of earlier builds cannot be used), else null. */
  readonly problem: string | null;
}

export interface JsonSeal {
  update(text: string): void;
  end(): string;
}

/** `json` (an object's text) with the `"mac"` member that seals it under `key` last (CacheKey.jsonSeal). */
export function sealJson(key: CacheKey, context: string, json: string): string {
  const body = json.slice(0, -1);
  const seal = key.jsonSeal(context);
  seal.update(body);
  return `${body}${seal.end()}`;
}

/** The key for the build cache in `cacheDir`, found once per process (see CacheKey). */
export function cacheKeyFor(cacheDir: string, env: NodeJS.ProcessEnv = process.env): CacheKey {
  const id = `${resolve(cacheDir)}\0${env.SITE_CACHE_KEY ?? ''}\0${env.XDG_CONFIG_HOME ?? ''}\0${env.HOME ?? ''}`;
  let key = keys.get(id);
  if (!key) keys.set(id, (key = findKey(resolve(cacheDir), env)));
  return key;
}

/** Throws InvalidOption (exit 2) when `SITE_CACHE_KEY` is set but too short to be a key. */
export function checkCacheKey(env: Readonly<Record<string, string | undefined>> = process.env): void {
  const value = env.SITE_CACHE_KEY;
  if (value && value.length < MIN_KEY_CHARS) {
    throw createBuildError(BuildErrors.InvalidOption, [
      'SITE_CACHE_KEY',
      `(${value.length} characters, not shown)`,
      `a secret of at least ${MIN_KEY_CHARS} characters (for example the output of \`openssl rand -hex 32\`), the same for every build that shares the cache`,
    ]);
  }
}

// --- internal ---

const MIN_KEY_CHARS = 32;

const keys = new Map<string, CacheKey>();

/** The member jsonSeal's end() closes an object with. */
const JSON_SEAL = /,"mac":"([0-9a-f]{64})"\}$/;

function findKey(cacheDir: string, env: NodeJS.ProcessEnv): CacheKey {
  const given = env.SITE_CACHE_KEY;
  if (given) {
    checkCacheKey(env);
    return keyOf(Buffer.from(given, 'utf8'), 'SITE_CACHE_KEY', null);
  }
  const file = keyFile(env);
  if (!file) return keyOf(randomBytes(32), 'this process', 'no home folder to keep a key in (set HOME or SITE_CACHE_KEY)');
  if (isInside(file, cacheDir))
    return keyOf(
      randomBytes(32),
      'this process',
      `the key file ${file} would be inside the build cache ${cacheDir}, where whoever writes the cache could read it`,
    );
  try {
    return keyOf(readOrMakeKey(file), file, null);
  } catch (error) {
    return keyOf(randomBytes(32), 'this process', `the key file ${file} could not be read or made (${(error as Error).message})`);
  }
}

function keyOf(secret: Buffer, source: string, problem: string | null): CacheKey {
  const sign = (...parts: readonly (string | Uint8Array)[]): Buffer => {
    const hmac = createHmac('sha256', secret);
    const length = Buffer.alloc(8);
    for (const part of parts) {
      const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
      length.writeBigUInt64BE(BigInt(bytes.length));
      hmac.update(length).update(bytes);
    }
    return hmac.digest();
  };
  const jsonHmac = (context: string) => createHmac('sha256', secret).update(`${context}\0`);
  return {
    sign,
    verify(mac, ...parts) {
      const expected = sign(...parts);
      return mac.length === expected.length && timingSafeEqual(mac, expected);
    },
    jsonSeal(context) {
      const hmac = jsonHmac(context);
      return { update: (text) => void hmac.update(text), end: () => `,"mac":"${hmac.digest('hex')}"}` };
    },
    sealedJson(context, text) {
      const found = JSON_SEAL.exec(text);
      return (
        found !== null && timingSafeEqual(jsonHmac(context).update(text.slice(0, found.index)).digest(), Buffer.from(found[1]!, 'hex'))
      );
    },
    source,
    problem,
  };
}

function keyFile(env: NodeJS.ProcessEnv): string | null {
  const config =
    env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : env.HOME ? join(env.HOME, '.config') : safeHome();
  return config ? join(config, 'site', 'cache-key') : null;
}

function safeHome(): string | null {
  try {
    const home = homedir();
    return home ? join(home, '.config') : null;
  } catch {
    return null;
  }
}

function isInside(file: string, dir: string): boolean {
  const rel = relative(dir, resolve(file));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The key file's 32 bytes; made (whole, by one build of many starting at once) when there is none. */
function readOrMakeKey(file: string): Buffer {
  const existing = readKey(file);
  if (existing) return existing;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  try {
    // A link never replaces a file: of builds racing here, the first one's key is everyone's.
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  const made = readKey(file);
  if (!made) throw new Error('it does not hold 64 hexadecimal digits');
  return made;
}

/** The key in `file`: a plain file (never through a link) of 64 hex digits; null when there is none. */
function readKey(file: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new Error('it is not a plain file');
    const buffer = Buffer.alloc(65);
    const read = readSync(fd, buffer, 0, 65, 0);
    const text = buffer.toString('utf8', 0, read).trim();
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error('it does not hold 64 hexadecimal digits');
    return Buffer.from(text, 'hex');
  } finally {
    closeSync(fd);
  }
}
