import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheKeyFor } from '../../../../cli/config/cache-key.ts';
import { tempDirPerTest } from '../../../helpers/temp-dir.ts';

/** The key that signs the build cache's entries (cli/config/cache-key.ts): where it lives and where it never does. */
describe('cacheKeyFor', () => {
  const dir = tempDirPerTest('cache-key-');

  it('makes a key file readable by its owner only, outside the cache, and every build finds the same key there', async () => {
    const root = dir();
    const env = { XDG_CONFIG_HOME: join(root, 'config') };
    const first = cacheKeyFor(join(root, 'cache'), env);
    expect(first.source).toBe(join(root, 'config', 'site', 'cache-key'));
    expect(first.problem).toBeNull();
    expect((await stat(first.source)).mode & 0o777).toBe(0o600);
    expect(await readFile(first.source, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    // Another cache folder, another process's view of it: the same key.
    const second = cacheKeyFor(join(root, 'other-cache'), env);
    expect(second.verify(first.sign('a', 'b'), 'a', 'b')).toBe(true);
    // Parts are length-prefixed: moving a boundary changes the signature.
    expect(second.verify(first.sign('a', 'b'), 'ab', '')).toBe(false);
  });

  it('takes SITE_CACHE_KEY when it is set, and another key signs differently', () => {
    const root = dir();
    const a = cacheKeyFor(join(root, 'cache'), { SITE_CACHE_KEY: 'a'.repeat(32), XDG_CONFIG_HOME: join(root, 'config') });
    const b = cacheKeyFor(join(root, 'cache'), { SITE_CACHE_KEY: 'b'.repeat(32), XDG_CONFIG_HOME: join(root, 'config') });
    expect(a.source).toBe('SITE_CACHE_KEY');
    expect(b.verify(a.sign('x'), 'x')).toBe(false);
    expect(() => cacheKeyFor(join(root, 'cache'), { SITE_CACHE_KEY: 'short' })).toThrow(/SITE_CACHE_KEY/);
  });

  it('keeps no key inside the cache folder, and reads none through a link or of the wrong form', async () => {
    const root = dir();
    const inside = cacheKeyFor(join(root, 'cache'), { XDG_CONFIG_HOME: join(root, 'cache', 'config') });
    expect(inside.source).toBe('this process');
    expect(inside.problem).toMatch(/inside the build cache/);
    await mkdir(join(root, 'linked', 'site'), { recursive: true });
    await writeFile(join(root, 'elsewhere'), 'f'.repeat(64));
    await symlink(join(root, 'elsewhere'), join(root, 'linked', 'site', 'cache-key'));
    expect(cacheKeyFor(join(root, 'cache'), { XDG_CONFIG_HOME: join(root, 'linked') }).problem).toMatch(/could not be read/);
    await mkdir(join(root, 'bad', 'site'), { recursive: true });
    await writeFile(join(root, 'bad', 'site', 'cache-key'), 'not a key');
    expect(cacheKeyFor(join(root, 'cache'), { XDG_CONFIG_HOME: join(root, 'bad') }).problem).toMatch(/64 hexadecimal digits/);
  });
});
