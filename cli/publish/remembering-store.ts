import { createHash } from 'node:crypto';
import { LATEST_FILE } from '../../runtime/shared/paths.ts';
import { FILES_DIR, PENDING_DIR } from './policy.ts';
import type { ObjectStore, PutHeaders, RemoteObject } from './s3-store.ts';

/**
 * An ObjectStore for a process that publishes to one bucket again and again (`site live`): it lists
 * the bucket once and then keeps the listing itself, applying its own uploads, copies and deletions,
 * and keeps the records it read and the hashes it stored. Listing a bucket of 25,000 objects takes
 * seconds; an edit's publish then asks the store for nothing but what it writes.
 *
 * What it remembers holds only while nobody else writes under the prefix (`site live` holds a lease on
 * its folder; docs/live.md says to give a bucket one process). It checks that before each publish:
 * latest.json's bytes must still be the ones it last knew; if not, or once `relistMs`
 * has passed, or after any failed request (which may or may not have landed), it lists the bucket again.
 */
export interface RememberingStore extends ObjectStore {
  /** Forgets everything: the next listing asks the bucket. */
  forget(): void;
}

export function createRememberingStore(
  inner: ObjectStore,
  {
    relistMs = 60 * 60 * 1000,
    now = Date.now,
    memoChars = MEMO_CHARS,
  }: { relistMs?: number; now?: () => number; /** @default MEMO_CHARS */ memoChars?: number } = {},
): RememberingStore {
  let listing: Map<string, RemoteObject> | null = null;
  let listedAt = 0;
  // The SHA-256 publish stored with each object this process wrote or asked about; null: none stored.
  const sha256 = new Map<string, string | null>();
  // The records' texts, at most `memoChars` characters of them (the oldest go first): a bucket may hold
  // records no publish wrote, as many and as large as whoever can write it likes.
  const texts = createTextMemo(memoChars);
  const forget = (): void => {
    listing = null;
    latestBytes = null;
    sha256.clear();
    texts.clear();
  };
  /** Runs a request; a failure leaves nothing remembered, since it may have landed or not. */
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      forget();
      throw error;
    }
  };
  // The SHA-256 of latest.json's bytes as this process last knew them: compared with the bytes, not with
  // the hash stored beside them, which whoever writes the object chooses.
  let latestBytes: string | null = null;
  const digestOf = (text: string | null): string | null => (text === null ? null : createHash('sha256').update(text).digest('hex'));
  const stillOurs = async (): Promise<boolean> => latestBytes !== null && digestOf(await inner.getText(LATEST_FILE)) === latestBytes;

  return {
    location: inner.location,
    forget,
    list: () =>
      guarded(async () => {
        if (listing && now() - listedAt < relistMs && (await stillOurs())) return new Map(listing);
        forget();
        const fresh = await inner.list();
        listing = fresh;
        listedAt = now();
        latestBytes = fresh.has(LATEST_FILE) ? digestOf(await inner.getText(LATEST_FILE)) : null;
        return new Map(fresh);
      }),
    getText: (key) =>
      guarded(async () => {
        if (listing && texts.has(key)) return texts.get(key)!;
        const text = await inner.getText(key);
        if (listing && readBack(key)) texts.set(key, text);
        return text;
      }),
    headSha256: (key) =>
      guarded(async () => {
        if (listing && sha256.has(key)) return sha256.get(key)!;
        const found = await inner.headSha256(key);
        if (listing) sha256.set(key, found);
        return found;
      }),
    put: (key, body, headers) =>
      guarded(async () => {
        await inner.put(key, body, headers);
        remember(key, { key, size: body.byteLength, etag: headers.md5 }, headers, Buffer.from(body));
      }),
    copy: (from, to, etag, headers) =>
      guarded(async () => {
        const copied = await inner.copy(from, to, etag, headers);
        const source = listing?.get(from);
        if (source) remember(to, { key: to, size: source.size, etag: copied }, headers, null);
        else forget();
        return copied;
      }),
    delete: (key) =>
      guarded(async () => {
        await inner.delete(key);
        listing?.delete(key);
        sha256.set(key, null);
        texts.set(key, null);
      }),
    close: () => inner.close(),
  };

  function remember(key: string, object: RemoteObject, headers: PutHeaders, body: Buffer | null): void {
    if (!listing) return;
    listing.set(key, object);
    sha256.set(key, headers.sha256);
    if (key === LATEST_FILE) latestBytes = headers.sha256;
    if (body && readBack(key)) texts.set(key, body.toString('utf8'));
    else texts.delete(key);
  }
}

/**
 * The most characters of record text kept between publishes: the records of the builds a bucket keeps
 * (three by default, 4.8 MB each at 25,800 files) and their pending records, several times over. Past it
 * the oldest are dropped and read again when asked for.
 */
export const MEMO_CHARS = 64 * 1024 * 1024;

/** Texts by key (null: no object), the non-null ones together at most `limit` characters, the oldest dropped first. */
function createTextMemo(limit: number): {
  has(key: string): boolean;
  get(key: string): string | null | undefined;
  set(key: string, text: string | null): void;
  delete(key: string): void;
  clear(): void;
} {
  const texts = new Map<string, string | null>();
  let chars = 0;
  const drop = (key: string): void => {
    chars -= texts.get(key)?.length ?? 0;
    texts.delete(key);
  };
  return {
    has: (key) => texts.has(key),
    get: (key) => texts.get(key),
    set(key, text) {
      drop(key);
      const size = text?.length ?? 0;
      if (size > limit) return;
      for (const old of texts.keys()) {
        if (chars + size <= limit) break;
        drop(old);
      }
      texts.set(key, text);
      chars += size;
    },
    delete: drop,
    clear() {
      texts.clear();
      chars = 0;
    },
  };
}

/** What publish reads back, kept as text: latest.json and the build records (manifests, pending records), never pages or media. */
function readBack(key: string): boolean {
  return key === LATEST_FILE || key.startsWith(`${FILES_DIR}/`) || key.startsWith(`${PENDING_DIR}/`);
}
