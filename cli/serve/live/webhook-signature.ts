import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The webhook a CMS calls to say content changed (docs/live.md, "The webhook"): the body signed with a
 * secret the CMS and `site live` share, HMAC-SHA256 over `{timestamp}.{body}`, the timestamp in seconds
 * since the epoch. A request is taken once, within `toleranceS` of its timestamp: an old one, or one
 * seen before, is refused, so a request caught on the wire cannot be sent again to start updates. What
 * the body says is never trusted: a taken request only asks the change feed what changed.
 */

/** The headers a signed request carries. */
export const TIMESTAMP_HEADER = 'x-site-timestamp';
export const SIGNATURE_HEADER = 'x-site-signature';

/** How far a request's timestamp may be from this machine's clock, in seconds. */
export const WEBHOOK_TOLERANCE_S = 300;

/** `sha256={hex}`: the signature of `body` sent at `timestamp` (seconds), as a CMS computes it. */
export function signWebhook(secret: string, timestamp: number, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

export type WebhookVerdict = { ok: true } | WebhookRefusal;
export type WebhookRefusal = { ok: false; status: 401 | 409; reason: string };

/** Signatures taken within the tolerance, so none is taken twice. */
export interface SeenSignatures {
  /** Records `signature`, taken at `timestampS`; false when it was seen already. */
  add(signature: string, timestampS: number, nowS: number): boolean;
  readonly size: number;
}

/** Remembers taken signatures until their timestamp is past the tolerance: older ones are refused as old anyway. */
export function createSeenSignatures(toleranceS = WEBHOOK_TOLERANCE_S): SeenSignatures {
  const seen = new Map<string, number>();
  return {
    add(signature, timestampS, nowS) {
      for (const [key, at] of seen) if (Math.abs(nowS - at) > toleranceS) seen.delete(key);
      if (seen.has(signature)) return false;
      seen.set(signature, timestampS);
      return true;
    },
    get size() {
      return seen.size;
    },
  };
}

/**
 * Whether a request is signed with `secret`, recent, and new. The comparison takes the same time
 * whatever the signature, so its bytes cannot be guessed one at a time.
 */
/** Why a call's headers cannot be a signed call's (checked before its body is read); null when they can. */
export function malformedWebhookHeaders(timestamp: string | undefined, signature: string | undefined): WebhookRefusal | null {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp))
    return { ok: false, status: 401, reason: `missing or malformed ${TIMESTAMP_HEADER} header (seconds since the epoch)` };
  if (!signature || !/^sha256=[0-9a-f]{64}$/.test(signature))
    return { ok: false, status: 401, reason: `missing or malformed ${SIGNATURE_HEADER} header (sha256=<64 hex digits>)` };
  return null;
}

export function verifyWebhook(input: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: Buffer;
  nowS: number;
  seen: SeenSignatures;
  toleranceS?: number;
}): WebhookVerdict {
  const { timestamp, nowS, toleranceS = WEBHOOK_TOLERANCE_S } = input;
  const malformed = malformedWebhookHeaders(timestamp, input.signature);
  if (malformed) return malformed;
  // Both are there and well-formed now.
  const signature = input.signature!;
  const at = Number(timestamp);
  const expected = Buffer.from(signWebhook(input.secret, at, input.body));
  if (!timingSafeEqual(expected, Buffer.from(signature)))
    return { ok: false, status: 401, reason: 'the signature does not match the body and timestamp (check the shared secret)' };
  if (Math.abs(nowS - at) > toleranceS)
    return {
      ok: false,
      status: 401,
      reason: `the timestamp is ${Math.round(nowS - at)} s from this machine's clock, more than the ${toleranceS} s allowed (check both clocks)`,
    };
  if (!input.seen.add(signature, at, nowS)) return { ok: false, status: 409, reason: 'this request was taken already (a replay)' };
  return { ok: true };
}
