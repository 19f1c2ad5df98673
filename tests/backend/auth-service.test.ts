import { describe, expect, it } from 'vitest';
import { createAuthService, DEFAULT_EDITOR, readBearerToken, resolveEditor, TOKEN_TTL_MS } from '../../backend/auth.ts';
import { renderWav } from '../../backend/media.ts';

describe('editor account and tokens', () => {
  it('takes the editor from options first, then CONTENT_EDITOR_EMAIL / CONTENT_EDITOR_PASSWORD, then the default', () => {
    const env = { CONTENT_EDITOR_EMAIL: 'env@institute.example', CONTENT_EDITOR_PASSWORD: 'from-env' };
    expect(resolveEditor(undefined, {})).toEqual(DEFAULT_EDITOR);
    expect(resolveEditor(undefined, env)).toEqual({ email: 'env@institute.example', password: 'from-env', name: DEFAULT_EDITOR.name });
    expect(resolveEditor({ email: 'opt@institute.example', password: 'opt' }, env)).toMatchObject({
      email: 'opt@institute.example',
      password: 'opt',
    });
  });

  it('accepts the email in any case but the password only exactly', () => {
    const auth = createAuthService(resolveEditor(undefined, {}));
    expect(auth.login(' Editor@Institute.Example ', DEFAULT_EDITOR.password)).not.toBeNull();
    expect(auth.login(DEFAULT_EDITOR.email, DEFAULT_EDITOR.password.toUpperCase())).toBeNull();
    expect(auth.login('', '')).toBeNull();
  });

  it('expires a token after seven days', () => {
    let clock = 1_000_000;
    const auth = createAuthService(resolveEditor(undefined, {}), () => clock);
    const session = auth.login(DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    const token = session?.token ?? null;
    expect(auth.viewerFor(token)?.email).toBe(DEFAULT_EDITOR.email);
    clock += TOKEN_TTL_MS - 1;
    expect(auth.viewerFor(token)).not.toBeNull();
    clock += 1;
    expect(auth.viewerFor(token)).toBeNull();
  });

  it('reads only Bearer tokens from the Authorization header', () => {
    expect(readBearerToken('Bearer abc123')).toBe('abc123');
    expect(readBearerToken('bearer abc123')).toBe('abc123');
    expect(readBearerToken('Basic abc123')).toBeNull();
    expect(readBearerToken('Bearer')).toBeNull();
    expect(readBearerToken(null)).toBeNull();
  });
});

describe('generated audio', () => {
  it('writes a consistent 8 kHz mono 8-bit WAV header', () => {
    const wav = renderWav(2, 440);
    expect(wav.length).toBe(44 + 16_000);
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('latin1', 8, 16)).toBe('WAVEfmt ');
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(40)).toBe(16_000);
    expect(renderWav(2, 440).equals(wav)).toBe(true);
  });
});
