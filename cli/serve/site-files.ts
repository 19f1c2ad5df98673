import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

/**
 * How a built site answers a URL, shared by the preview and dev servers: the file itself, else the
 * folder's index.html; null for a miss, a path outside the site, or an undecodable path.
 */
export async function findSiteFile(root: string, requestUrl: string): Promise<string | null> {
  const pathname = safeDecode(new URL(requestUrl, 'http://x').pathname);
  return pathname === null ? null : siteFileAt(root, pathname);
}

/**
 * The file a decoded site path names under `root` (absolute): the file itself, else the folder's
 * index.html; null for a miss or a path that resolves outside the site (`..` segments, which a
 * decoded `%2F` can make) or holds a NUL.
 */
export async function siteFileAt(root: string, pathname: string): Promise<string | null> {
  if (pathname.includes('\0')) return null;
  const target = resolve(root, '.' + pathname);
  if (target !== root && !target.startsWith(root + sep)) return null;
  if (await isFile(target)) return target;
  const index = join(target, 'index.html');
  return (await isFile(index)) ? index : null;
}

/** The site's 404.html, when it has one. */
export async function findNotFoundPage(root: string): Promise<string | null> {
  const file = join(root, '404.html');
  return (await isFile(file)) ? file : null;
}

/** True when `path` is a file (not a folder); false when it is missing. */
export async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

// --- internal ---

function safeDecode(path: string): string | null {
  try {
    const decoded = decodeURIComponent(path);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}
