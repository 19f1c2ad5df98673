import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The placeholders templates/document.html must contain, each exactly once. */
export const PLACEHOLDERS = [
  '<!--app-lang-->',
  '<!--app-csp-->',
  '<!--app-head-->',
  '<!--app-html-->',
  '<!--app-boot-->',
  '<!--app-scripts-->',
] as const;

export type Placeholder = (typeof PLACEHOLDERS)[number];

export interface DocumentShell {
  /** The template split at its placeholders, so filling it is one join. */
  parts: string[];
  order: Placeholder[];
}

/** Reads the shell once per build and checks its placeholders. */
export async function loadShell(root: string): Promise<DocumentShell> {
  const file = join(root, 'templates/document.html');
  return parseShell(await readFile(file, 'utf8'), file);
}

/** Splits a template at its placeholders; throws naming the file and the missing placeholder. */
export function parseShell(template: string, file = 'templates/document.html'): DocumentShell {
  for (const p of PLACEHOLDERS) {
    const count = template.split(p).length - 1;
    if (count !== 1) throw createBuildError(BuildErrors.ShellPlaceholderMissing, [file, p, count]);
  }
  checkPolicyFirst(template, file);
  const pattern = new RegExp(`(${PLACEHOLDERS.join('|')})`);
  const pieces = template.split(pattern);
  const parts: string[] = [];
  const order: Placeholder[] = [];
  pieces.forEach((piece, i) => (i % 2 === 0 ? parts.push(piece) : order.push(piece as Placeholder)));
  return { parts, order };
}

/** Fills every placeholder; values are inserted as they are (callers escape). */
export function fillShell(shell: DocumentShell, values: Record<Placeholder, string>): string {
  let out = shell.parts[0] ?? '';
  shell.order.forEach((p, i) => {
    out += values[p] + (shell.parts[i + 1] ?? '');
  });
  return out;
}

// --- internal ---

/**
 * A Content-Security-Policy meta tag governs only what the browser reads after it: a script, style or
 * link the template put before `<!--app-csp-->` would escape the policy. So nothing but the doctype, the
 * `<html>` and `<head>` tags, the charset and comments may come before it.
 */
function checkPolicyFirst(template: string, file: string): void {
  const before = template.slice(0, template.indexOf('<!--app-csp-->')).replaceAll('<!--app-lang-->', '');
  const rest = before.replace(/<!doctype[^>]*>|<html[^>]*>|<head>|<meta charset="[^"]*">|<!--[\s\S]*?-->|\s+/gi, '');
  if (rest !== '') {
    throw createBuildError(BuildErrors.ShellPolicyNotFirst, [file, JSON.stringify(rest.slice(0, 60))]);
  }
}
