import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { PublishConfig } from '../config/publish.ts';
import { BuildErrors, createBuildError, isBuildError } from '../errors/errors.ts';
import { isMissingKey, toStorageError } from './storage-errors.ts';

/**
 * The bucket as publish sees it: keys relative to the site root, so nothing outside `{prefix}/` can
 * be listed, written or deleted. Every failure is already a catalogue error.
 */
export interface ObjectStore {
  /** `s3://bucket/prefix`, for messages. */
  readonly location: string;
  /** Every object under the prefix, by relative key. */
  list(): Promise<Map<string, RemoteObject>>;
  /** An object's text, or null when the key does not exist. */
  getText(key: string): Promise<string | null>;
  /** The `x-amz-meta-sha256` publish stored with the object, or null (no object, or stored by something else). */
  headSha256(key: string): Promise<string | null>;
  put(key: string, body: Uint8Array, headers: PutHeaders): Promise<void>;
  /**
   * Copies `from` to `to` inside the bucket with `headers` (never the source's own), only while `from`
   * still has the ETag `etag`. Resolves to the new object's ETag (without quotes), or '' when the store
   * gives none.
   */
  copy(from: string, to: string, etag: string, headers: PutHeaders): Promise<string>;
  delete(key: string): Promise<void>;
  /** Closes the client's sockets. */
  close(): void;
}

/** One object as a listing shows it. */
export interface RemoteObject {
  key: string;
  size: number;
  /** Without quotes; the hex MD5 for single-part uploads on most stores. */
  etag: string;
}

/** Headers and hashes an upload is stored with. */
export interface PutHeaders {
  contentType: string;
  cacheControl: string;
  contentDisposition?: string;
  md5: string;
  sha256: string;
}

/**
 * The largest object getText reads (a build record, a pending record, latest.json): a build's record is
 * 4.8 MB at 25,800 files, so this is a record of some 350,000 files. Anything larger was put there by
 * someone else, and is refused (StorageRecordTooLarge) rather than held in memory.
 */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

/**
 * An ObjectStore over the AWS SDK v3 S3 client. Credentials and region come from the standard AWS
 * environment; a custom endpoint uses path-style URLs, which every S3-compatible server understands.
 */
export function createS3Store(config: PublishConfig): ObjectStore {
  // The SDK version is pinned and supports the Node versions this project does; its notice about
  // future releases needing Node 22 would only clutter every CI log.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpointUrl ?? undefined,
    forcePathStyle: config.endpointUrl !== null,
    // The SDK's default CRC checksums (and aws-chunked bodies) are not understood by many
    // S3-compatible servers; publish sends Content-MD5 itself, which all of them verify.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 4,
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
  });
  const base = config.prefix === '' ? '' : `${config.prefix}/`;
  const endpoint = config.endpointUrl ?? `AWS S3 (${config.region})`;
  const fail = (operation: string, key: string, error: unknown): never => {
    throw toStorageError(error, { operation, key: key && base + key, bucket: config.bucket, endpoint });
  };

  return {
    location: `s3://${config.bucket}/${base}`,
    async list() {
      const found = new Map<string, RemoteObject>();
      let token: string | undefined;
      do {
        const page = await client
          .send(new ListObjectsV2Command({ Bucket: config.bucket, Prefix: base || undefined, ContinuationToken: token }))
          .catch((e: unknown) => fail('ListObjectsV2', '', e));
        for (const item of page.Contents ?? []) {
          if (!item.Key || !item.Key.startsWith(base) || item.Key === base) continue;
          const key = item.Key.slice(base.length);
          found.set(key, { key, size: item.Size ?? -1, etag: (item.ETag ?? '').replaceAll('"', '') });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found;
    },
    async getText(key) {
      let answer;
      try {
        answer = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: base + key }));
      } catch (error) {
        if (isMissingKey(error)) return null;
        return fail('GetObject', key, error);
      }
      const body = answer.Body as (Readable & AsyncIterable<Uint8Array>) | undefined;
      if (!body) return '';
      // Only build records and latest.json are read as text: one larger than any build's record was not
      // written by publish, and is refused before (or as) it is read, rather than held in memory.
      const tooLarge = (size: number): never => {
        body.destroy();
        throw createBuildError(BuildErrors.StorageRecordTooLarge, [`s3://${config.bucket}/${base}${key}`, size, MAX_TEXT_BYTES]);
      };
      if (answer.ContentLength !== undefined && answer.ContentLength > MAX_TEXT_BYTES) return tooLarge(answer.ContentLength);
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of body) {
          size += chunk.byteLength;
          if (size > MAX_TEXT_BYTES) return tooLarge(size);
          chunks.push(Buffer.from(chunk));
        }
      } catch (error) {
        if (isBuildError(error)) throw error;
        return fail('GetObject', key, error);
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    async headSha256(key) {
      try {
        const answer = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: base + key }));
        return answer.Metadata?.sha256 ?? null;
      } catch (error) {
        if (isMissingKey(error)) return null;
        return fail('HeadObject', key, error);
      }
    },
    async put(key, body, headers) {
      await client
        .send(
          new PutObjectCommand({
            Bucket: config.bucket,
            Key: base + key,
            Body: body,
            ContentLength: body.byteLength,
            ContentType: headers.contentType,
            CacheControl: headers.cacheControl,
            ContentDisposition: headers.contentDisposition,
            ContentMD5: Buffer.from(headers.md5, 'hex').toString('base64'),
            Metadata: { sha256: headers.sha256 },
          }),
        )
        .catch((e: unknown) => fail('PutObject', key, e));
    },
    async copy(from, to, etag, headers) {
      const answer = await client
        .send(
          new CopyObjectCommand({
            Bucket: config.bucket,
            Key: base + to,
            // The source names bucket and key, URL-encoded (each path segment, so `/` stays a separator).
            CopySource: `${config.bucket}/${(base + from).split('/').map(encodeURIComponent).join('/')}`,
            CopySourceIfMatch: `"${etag}"`,
            // The headers publish decides, never whatever the source was stored with.
            MetadataDirective: 'REPLACE',
            ContentType: headers.contentType,
            CacheControl: headers.cacheControl,
            ContentDisposition: headers.contentDisposition,
            Metadata: { sha256: headers.sha256 },
          }),
        )
        .catch((e: unknown) => fail('CopyObject', to, e));
      return (answer.CopyObjectResult?.ETag ?? '').replaceAll('"', '');
    },
    async delete(key) {
      // One DeleteObject per key: DeleteObjects needs checksum headers some S3-compatible stores reject.
      await client
        .send(new DeleteObjectCommand({ Bucket: config.bucket, Key: base + key }))
        .catch((e: unknown) => fail('DeleteObject', key, e));
    },
    close() {
      client.destroy();
    },
  };
}
