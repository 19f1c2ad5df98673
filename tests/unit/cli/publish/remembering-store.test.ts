import { describe, expect, it } from 'vitest';
import { FILES_DIR } from '../../../../cli/publish/policy.ts';
import { createRememberingStore } from '../../../../cli/publish/remembering-store.ts';
import type { ObjectStore, RemoteObject } from '../../../../cli/publish/s3-store.ts';

/** A bucket in memory that counts the texts read from it. */
function bucket(objects: Record<string, string>): { store: ObjectStore; reads: string[] } {
  const reads: string[] = [];
  const store: ObjectStore = {
    location: 's3://test/',
    list: async () =>
      new Map<string, RemoteObject>(Object.entries(objects).map(([key, text]) => [key, { key, size: text.length, etag: '' }])),
    getText: async (key) => {
      reads.push(key);
      return objects[key] ?? null;
    },
    headSha256: async () => null,
    put: async () => undefined,
    copy: async () => '',
    delete: async () => undefined,
    close: () => undefined,
  };
  return { store, reads };
}

describe('the remembering store', () => {
  it('keeps at most its limit of record text, the oldest dropped first, and never one larger than the limit', async () => {
    const [a, b, huge] = [`${FILES_DIR}/a.1.json`, `${FILES_DIR}/b.1.json`, `${FILES_DIR}/huge.1.json`];
    const inner = bucket({ [a]: 'a'.repeat(60), [b]: 'b'.repeat(60), [huge]: 'h'.repeat(101) });
    const store = createRememberingStore(inner.store, { memoChars: 100 });
    await store.list();
    inner.reads.length = 0;
    await store.getText(a);
    await store.getText(a);
    expect(inner.reads).toEqual([a]);
    // b does not fit beside a: a goes.
    await store.getText(b);
    await store.getText(b);
    await store.getText(a);
    expect(inner.reads).toEqual([a, b, a]);
    // Larger than the whole memo: read each time it is asked for, and it drops nothing.
    await store.getText(huge);
    await store.getText(huge);
    await store.getText(a);
    expect(inner.reads).toEqual([a, b, a, huge, huge]);
  });
});
