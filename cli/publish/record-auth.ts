import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs and checks the records publish keeps in the bucket (file manifests and pending records) with
 * an HMAC-SHA256 under SITE_PUBLISH_KEY (cli/config/publish-key.ts). Anyone who can put an object in
 * the bucket can write a record; only the site's CI can sign one. The MAC covers the bucket, the
 * prefix and the record's own key as well as its content, so a genuine record copied to another key
 * (another build id, a pending record made a manifest) or into another prefix or bucket does not
 * verify there. It holds the key in a closure: the object can be logged without showing it.
 */
export interface RecordAuth {
  /** The MAC of a record's canonical text stored at `recordKey`, as lowercase hex. */
  sign(recordKey: string, canonical: string): string;
  /** Whether `mac` is the MAC of `canonical` at `recordKey`; compared in constant time. */
  verify(recordKey: string, canonical: string, mac: string): boolean;
}

/** A RecordAuth for one bucket and prefix. */
export function createRecordAuth(key: Uint8Array, location: { bucket: string; prefix: string }): RecordAuth {
  const secret = Buffer.from(key);
  const mac = (recordKey: string, canonical: string): Buffer =>
    // A JSON array keeps the fields apart whatever characters they hold.
    createHmac('sha256', secret)
      .update(JSON.stringify([DOMAIN, location.bucket, location.prefix, recordKey, canonical]))
      .digest();
  return {
    sign: (recordKey, canonical) => mac(recordKey, canonical).toString('hex'),
    verify(recordKey, canonical, given) {
      if (!/^[0-9a-f]{64}$/.test(given)) return false;
      return timingSafeEqual(mac(recordKey, canonical), Buffer.from(given, 'hex'));
    },
  };
}

// --- internal ---

/** Names what the MAC is for, so a MAC made with the same key for anything else never passes as a record's. */
const DOMAIN = 'site-publish-record/1';
