import { existsSync, readdirSync, type Dirent } from 'node:fs';
import { basename, dirname, join, posix, relative } from 'node:path';
import ts from 'typescript';

/**
 * What the architecture tests read from the sources without running them: the comments of a file, the
 * repository paths a comment or a doc names, and the environment variables code reads. Pure functions
 * over a file's text, so each rule can be shown to fail on a fixture string.
 */

/** One finding: where, and what it names. */
export interface Finding {
  file: string;
  line: number;
  name: string;
}

/** The repository's files under `dirs` (files or folders, relative to `root`), without node_modules and build output. */
export function filesUnder(root: string, dirs: readonly string[], pattern: RegExp): string[] {
  const files: string[] = [];
  for (const dir of dirs) {
    const full = join(root, dir);
    if (!existsSync(full)) continue;
    const entries = entriesOf(full);
    if (!entries) {
      if (pattern.test(dir)) files.push(dir);
      continue;
    }
    walk(root, full, entries, pattern, files);
  }
  return files.sort();
}

/**
 * Folders never read: dependencies, build output and caches. They are left out as the walk meets them, not
 * filtered afterwards: the browser tests run beside the lint (scripts/test-all.js) and their builds make
 * and remove staging folders in the build cache while it walks.
 */
const SKIPPED = new Set(['node_modules', 'dist', 'test-results', '.cache', '.site-cache', '.git', '.stryker-tmp', 'reports']);

function walk(root: string, dir: string, entries: Dirent[], pattern: RegExp, files: string[]): void {
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (SKIPPED.has(entry.name)) continue;
      // A folder gone since it was listed (a finished build's staging folder) has no files to name.
      const inner = entriesOf(full);
      if (inner) walk(root, full, inner, pattern, files);
    } else if (entry.isFile() && pattern.test(entry.name)) files.push(relative(root, full).split('\\').join('/'));
  }
}

function entriesOf(path: string): Dirent[] | null {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return null;
  }
}

function sourceFile(file: string, text: string): ts.SourceFile {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** Every comment of a TypeScript or JavaScript file (JSX comments included), with the line it starts on. */
export function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = sourceFile(file, text);
  const seen = new Map<number, string>();
  const collect = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node): void => {
    if (node.kind !== ts.SyntaxKind.JsxText) {
      collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
      collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen]
    .sort(([a], [b]) => a - b)
    .map(([pos, comment]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: comment }));
}

/** The folders at the top of the repository a path may start with. */
const TOP = 'bin|cli|runtime|site|backend|templates|tests|bench|scripts|docs|types';

/**
 * The repository paths `text` names: a path from the top of the repository (`cli/output/swap.ts`,
 * `backend/`), a relative one (`./import-graph.ts` beside this file), or a bare file name of our own
 * kinds (`lock.ts`, `cli.md`). Names in a URL, or with a placeholder (`{hash}.js`, `*.build.ts`), are not paths.
 */
export function namedPaths(text: string): string[] {
  const names: string[] = [];
  const token = /(?<![\w@./:*{}$<>-])((?:\.\.?\/)+[\w./-]*[\w/]|[\w.-]+(?:\/[\w.-]*)*)(?![\w{}*$<>-]|\/[*{])/g;
  for (const [, raw] of text.matchAll(token)) {
    const name = raw!.replace(/\.+$/, '');
    if (new RegExp(`^(?:${TOP})/`).test(name)) names.push(name);
    else if (/^\.\.?\//.test(name)) names.push(name);
    else if (!name.includes('/') && /^[\w-][\w.-]*\.(?:ts|tsx|js|mjs|cjs|md|graphql)$/.test(name)) names.push(name);
  }
  return names;
}

/** The target of every relative link of a Markdown text (`[the map](../../../docs/architecture.md#the-map)` gives the path before `#`). */
export function markdownLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/**
 * The paths in `file`'s comments (or, for Markdown, its text and links) that name no file or folder of the
 * repository. A path from the top of the repository must exist there; a relative one beside `file`; a bare
 * file name anywhere in the repository (`known` holds every file's name), unless it is one of `foreign`:
 * files of other projects or of the output that a comment rightly names.
 */
export function missingPaths(
  root: string,
  file: string,
  text: string,
  known: ReadonlySet<string>,
  foreign: ReadonlySet<string>,
): Finding[] {
  const exists = (path: string): boolean => existsSync(join(root, path));
  const here = dirname(file);
  const check = (name: string, line: number, link: boolean): Finding | null => {
    const clean = name.replace(/\/$/, '');
    if (link || /^\.\.?\//.test(clean)) return exists(posix.join(here, clean)) ? null : { file, line, name };
    if (name.includes('/')) return exists(clean) ? null : { file, line, name };
    return known.has(clean) || foreign.has(clean) ? null : { file, line, name };
  };
  const findings: Finding[] = [];
  const blocks = file.endsWith('.md') ? text.split('\n').map((t, i) => ({ line: i + 1, text: t })) : commentsOf(file, text);
  for (const block of blocks) {
    const lines = block.text.split('\n');
    lines.forEach((t, i) => {
      const line = block.line + i;
      const links = file.endsWith('.md') ? markdownLinks(t) : [];
      for (const link of links) {
        const found = check(link, line, true);
        if (found) findings.push(found);
      }
      const prose = file.endsWith('.md') ? t.replace(/\]\([^)]*\)/g, ']') : t;
      for (const name of namedPaths(prose)) {
        const found = check(name, line, false);
        if (found) findings.push(found);
      }
    });
  }
  return findings;
}

/** The name of every file of the repository (`swap.ts`, `cli.md`), for bare names in comments. */
export function fileNames(root: string, dirs: readonly string[]): Set<string> {
  return new Set(filesUnder(root, dirs, /./).map((f) => basename(f)));
}

/** An environment variable read in code: which, where, and whether through `process.env` itself. */
export interface EnvRead extends Finding {
  /** `process.env.X`, or `env.X` on an environment handed in (a parameter or variable named `env`). */
  via: 'process.env' | 'env';
}

/** A reference to `process.env` that neither reads a named variable nor hands the whole environment to a child process. */
export interface EnvUse extends Finding {
  name: 'process.env';
}

const isProcessEnv = (node: ts.Node): boolean =>
  ts.isPropertyAccessExpression(node) && node.name.text === 'env' && ts.isIdentifier(node.expression) && node.expression.text === 'process';
const isEnvRecord = (node: ts.Node): boolean =>
  (ts.isIdentifier(node) && node.text === 'env') ||
  (ts.isPropertyAccessExpression(node) && node.name.text === 'env' && !isProcessEnv(node));

/** True when `node` is only written: the left side of `=` or `??=` (setting a variable for a library reads no configuration). */
function isWritten(node: ts.Node): boolean {
  const parent = node.parent;
  return (
    ts.isBinaryExpression(parent) &&
    parent.left === node &&
    (parent.operatorToken.kind === ts.SyntaxKind.EqualsToken || parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionEqualsToken)
  );
}

/**
 * The environment variables `text` reads, by name: `process.env.X`, `process.env['X']`, `const { X } =
 * process.env`, and the same on an environment handed in as `env`. A computed name is followed to a
 * constant of the file, a parameter typed as string literals, or a constant object's values; one that
 * cannot be followed is reported with the name `?`.
 */
export function envReads(file: string, text: string): EnvRead[] {
  const source = sourceFile(file, text);
  const declarations = new Map<string, ts.Node>();
  const reads: EnvRead[] = [];
  const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const index = (node: ts.Node): void => {
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node)) && ts.isIdentifier(node.name) && !declarations.has(node.name.text))
      declarations.set(node.name.text, node);
    ts.forEachChild(node, index);
  };
  index(source);
  const namesOf = (expr: ts.Expression, depth = 0): string[] | null => {
    if (depth > 4) return null;
    if (ts.isStringLiteralLike(expr)) return [expr.text];
    if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr)) return namesOf(expr.expression, depth + 1);
    if (ts.isIdentifier(expr)) {
      const decl = declarations.get(expr.text);
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer) return namesOf(decl.initializer, depth + 1);
      if (decl && ts.isParameter(decl) && decl.type) {
        const types = ts.isUnionTypeNode(decl.type) ? decl.type.types : [decl.type];
        const literals = types.map((t) => (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? t.literal.text : null));
        return literals.every((l) => l !== null) ? (literals as string[]) : null;
      }
      return null;
    }
    if (ts.isElementAccessExpression(expr) && ts.isIdentifier(expr.expression)) {
      const decl = declarations.get(expr.expression.text);
      let init = decl && ts.isVariableDeclaration(decl) ? decl.initializer : undefined;
      while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) init = init.expression;
      if (init && ts.isObjectLiteralExpression(init)) {
        const values = init.properties.map((p) =>
          ts.isPropertyAssignment(p) && ts.isStringLiteralLike(p.initializer) ? p.initializer.text : null,
        );
        return values.every((v) => v !== null) ? (values as string[]) : null;
      }
    }
    return null;
  };
  const visit = (node: ts.Node): void => {
    const target = ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) ? node.expression : null;
    if (target && (isProcessEnv(target) || isEnvRecord(target)) && !isWritten(node)) {
      const via = isProcessEnv(target) ? 'process.env' : 'env';
      const names = ts.isPropertyAccessExpression(node)
        ? [node.name.text]
        : namesOf((node as ts.ElementAccessExpression).argumentExpression);
      // On an environment handed in, only names in capitals are variables (`env.storage()` is not one).
      for (const name of names ?? ['?'])
        if (via === 'process.env' || /^[A-Z][A-Z0-9_]*$/.test(name) || name === '?') reads.push({ file, line: lineOf(node), name, via });
    }
    if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      (isProcessEnv(node.initializer) || isEnvRecord(node.initializer)) &&
      ts.isObjectBindingPattern(node.name)
    ) {
      for (const element of node.name.elements) {
        const name = (element.propertyName ?? element.name) as ts.Node;
        reads.push({
          file,
          line: lineOf(element),
          name: ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : '?',
          via: isProcessEnv(node.initializer) ? 'process.env' : 'env',
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return reads;
}

/**
 * References to `process.env` that are not a named read (those are envReads) and do not hand the whole
 * environment to a child process (`{ env: process.env }`, `{ ...process.env, X: '1' }`): passing it into a
 * function, or keeping it in a variable, reads the environment somewhere this file does not say.
 */
export function envUses(file: string, text: string): EnvUse[] {
  const source = sourceFile(file, text);
  const uses: EnvUse[] = [];
  const visit = (node: ts.Node): void => {
    if (isProcessEnv(node)) {
      const parent = node.parent;
      const named = (ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === node;
      const destructured = ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name);
      const forwarded =
        (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name) && parent.name.text === 'env') || ts.isSpreadAssignment(parent);
      if (!named && !destructured && !forwarded)
        uses.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, name: 'process.env' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

/**
 * Where `text` takes the whole `ResolvedConfig`: every mention of the type that is not `Pick<ResolvedConfig,
 * …>` (the fields a module reads, named) or `ResolvedConfig['field']` (one field's type).
 */
export function wholeConfigUses(file: string, text: string): Finding[] {
  const source = sourceFile(file, text);
  const uses: Finding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && node.typeName.text === 'ResolvedConfig') {
      const parent = node.parent;
      const picked =
        ts.isTypeReferenceNode(parent) &&
        ts.isIdentifier(parent.typeName) &&
        parent.typeName.text === 'Pick' &&
        parent.typeArguments?.[0] === node;
      const indexed = ts.isIndexedAccessTypeNode(parent) && parent.objectType === node;
      if (!picked && !indexed)
        uses.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, name: node.getText(source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}
