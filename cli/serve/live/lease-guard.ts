import { LATEST_FILE } from '../../../runtime/shared/paths.ts';
import type { ObjectStore } from '../../publish/s3-store.ts';

/**
 * The store a `site live` publish writes through, which asks whether the process still holds its lease
 * (`stillHeld`, which renews it) before the writes that make a build live or take one away: latest.json
 * and every deletion. A process that lost its lease mid-publish (it hung past it, and another took over)
 * then stops before it names its build live or deletes what the other's build needs; what it uploaded
 * before is unnamed, and the other's next publish keeps or removes it as its own retention says.
 */
export function leaseGuardedStore<T extends ObjectStore>(store: T, stillHeld: () => Promise<boolean>, lost: () => Error): T {
  const check = async (): Promise<void> => {
    if (!(await stillHeld())) throw lost();
  };
  return Object.assign(Object.create(store) as T, {
    put: async (...args: Parameters<ObjectStore['put']>) => {
      if (args[0] === LATEST_FILE) await check();
      return store.put(...args);
    },
    delete: async (key: string) => {
      await check();
      return store.delete(key);
    },
  });
}
