import { describe, expect, it } from 'vitest';
import { LATEST_FILE } from '../../../../../runtime/shared/paths.ts';
import type { ObjectStore } from '../../../../../cli/publish/s3-store.ts';
import { leaseGuardedStore } from '../../../../../cli/serve/live/lease-guard.ts';

/** A store that notes what reached it. */
function noting(): { store: ObjectStore; done: string[] } {
  const done: string[] = [];
  const store = {
    location: 's3://site/',
    list: async () => new Map(),
    getText: async () => null,
    headSha256: async () => null,
    put: async (key: string) => void done.push(`put ${key}`),
    copy: async () => '',
    delete: async (key: string) => void done.push(`delete ${key}`),
    close: () => undefined,
  } as unknown as ObjectStore;
  return { store, done };
}

describe('the store site live publishes through', () => {
  it('puts pages whatever the lease, but names a build live and deletes only while the lease holds', async () => {
    let held = true;
    const { store, done } = noting();
    const guarded = leaseGuardedStore(
      store,
      async () => held,
      () => new Error('lease lost'),
    );
    const headers = { contentType: 'text/html', cacheControl: 'no-cache', md5: '', sha256: '' };
    await guarded.put('news/index.html', new Uint8Array(), headers);
    await guarded.put(LATEST_FILE, new Uint8Array(), headers);
    await guarded.delete('old/index.html');
    held = false;
    await guarded.put('news/other/index.html', new Uint8Array(), headers);
    await expect(guarded.put(LATEST_FILE, new Uint8Array(), headers)).rejects.toThrow('lease lost');
    await expect(guarded.delete('more/index.html')).rejects.toThrow('lease lost');
    expect(done).toEqual([`put news/index.html`, `put ${LATEST_FILE}`, 'delete old/index.html', 'put news/other/index.html']);
    expect(guarded.location).toBe('s3://site/');
  });
});
