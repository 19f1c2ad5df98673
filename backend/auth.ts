/**
 * The single editor account and its session tokens. Tokens are random, held in memory only (a restart
 * logs everyone out) and expire after the same seven days as the site's auth cookie.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Credentials of the editor who may preview drafts. */
export interface EditorAccount {
  readonly email: string;
  readonly password: string;
  /** Display name. @default 'Preview Editor' */
  readonly name?: string;
}

/** The signed-in user as the API returns it. */
export interface Viewer {
  readonly id: string;
  readonly name: string;
  readonly email: string;
}

/** The fallback editor account, used when neither options nor the environment name one. */
export const DEFAULT_EDITOR: Readonly<Required<EditorAccount>> = Object.freeze({
  email: 'editor@institute.example',
  password: 'preview-editor',
  name: 'Preview Editor',
});

/** Token lifetime: 7 days, matching the site's `apollo:default.token` cookie (docs/runtime.md, "Login and logout"). */
export const TOKEN_TTL_MS = 604_800_000;

/**
 * The editor account to use: explicit option, else CONTENT_EDITOR_EMAIL / CONTENT_EDITOR_PASSWORD from
 * `env`, else DEFAULT_EDITOR. Each field falls back on its own.
 */
export function resolveEditor(option?: EditorAccount, env: NodeJS.ProcessEnv = process.env): Required<EditorAccount> {
  return {
    email: option?.email ?? env['CONTENT_EDITOR_EMAIL'] ?? DEFAULT_EDITOR.email,
    password: option?.password ?? env['CONTENT_EDITOR_PASSWORD'] ?? DEFAULT_EDITOR.password,
    name: option?.name ?? DEFAULT_EDITOR.name,
  };
}

/** Login, logout and token lookup for one editor account. */
export interface AuthService {
  /** A new token and the viewer, or null when the credentials are wrong. */
  login(email: string, password: string): { token: string; viewer: Viewer } | null;
  /** Forgets the token; unknown tokens are ignored. */
  logout(token: string): void;
  /** The viewer for a live token; null for null, unknown or expired tokens. */
  viewerFor(token: string | null): Viewer | null;
}

/**
 * Creates the auth service.
 * @param now clock for token expiry @default Date.now
 */
export function createAuthService(editor: Required<EditorAccount>, now: () => number = Date.now): AuthService {
  const viewer: Viewer = { id: 'editor-1', name: editor.name, email: editor.email };
  const tokens = new Map<string, number>();
  return {
    login(email, password) {
      // Compare both fields in constant time so a wrong email and a wrong password look the same.
      const emailOk = sameSecret(email.trim().toLowerCase(), editor.email.toLowerCase());
      const passwordOk = sameSecret(password, editor.password);
      if (!emailOk || !passwordOk) return null;
      const token = randomBytes(24).toString('hex');
      tokens.set(token, now() + TOKEN_TTL_MS);
      return { token, viewer };
    },
    logout(token) {
      tokens.delete(token);
    },
    viewerFor(token) {
      if (token === null) return null;
      const expires = tokens.get(token);
      if (expires === undefined) return null;
      if (expires <= now()) {
        tokens.delete(token);
        return null;
      }
      return viewer;
    },
  };
}

/** The token of an `Authorization: Bearer <token>` header, or null for a missing or different scheme. */
export function readBearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

// --- internal ---

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
