import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A real S3-compatible server (s3rver) on 127.0.0.1 for the publish tests, with a record of every
 * request in the order its answer finished, a way to stop it mid-publish, and a website front that
 * serves the bucket the way object storage with website hosting does; plus small synthetic builds
 * for tests that need builds with different hashed assets.
 */

/** A SITE_PUBLISH_KEY for the tests' publishes (every run of one test shares it, as a site's CI runs do). */
export const TEST_PUBLISH_KEY = 'test-publish-key/0123456789abcdef0123456789abcdef';

/** The AWS environment the tests publish with: s3rver's credentials, and no lookups beyond 127.0.0.1; and the key publish signs its records with. */
export const S3_ENV = {
  SITE_PUBLISH_KEY: TEST_PUBLISH_KEY,
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
} as const;

/** One request the test server answered. */
export interface S3Request {
  method: string;
  /** Key inside the bucket ('' for bucket-wide requests). */
  key: string;
  status: number;
}

/** A running s3rver with its request record. */
export interface S3TestServer {
  endpoint: string;
  port: number;
  /** s3rver's storage folder: restart a server on it to get the same objects. */
  directory: string;
  bucket: string;
  requests: S3Request[];
  /** Drops every connection and stops listening right after the n-th successful PUT from now. */
  stopAfterPuts(n: number): void;
  /** Resolves once the server has stopped, whether by stop() or stopAfterPuts. */
  stopped: Promise<void>;
  stop(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  httpServer?: Server;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;
// s3rver ships CommonJS without types; the few members used here are typed above.
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverConstructor;

/**
 * s3rver makes ListObjectsV2 continuation tokens with DES, which the OpenSSL 3 of Node.js 17 and later no
 * longer offers: every listing of more than 1,000 keys (MaxKeys or not) failed with a 500, so a publish to
 * a bucket holding a large site could not be tested at all. Its tokens only need to come back as they
 * went out, so for this test server DES becomes the identity (the token is the IV and the key name).
 */
function letS3rverPageListings(): void {
  const crypto = createRequire(import.meta.url)('node:crypto') as {
    createCipheriv: (...args: unknown[]) => unknown;
    createDecipheriv: (...args: unknown[]) => unknown;
  };
  if ((crypto.createCipheriv as { s3rverPaging?: boolean }).s3rverPaging) return;
  const identity = {
    update: (data: string | Buffer, encoding?: BufferEncoding) =>
      typeof data === 'string' ? Buffer.from(data, encoding ?? 'utf8') : Buffer.from(data),
    final: () => Buffer.alloc(0),
  };
  const [cipher, decipher] = [crypto.createCipheriv, crypto.createDecipheriv];
  crypto.createCipheriv = Object.assign(
    (algorithm: unknown, ...rest: unknown[]) => (algorithm === 'des' ? identity : cipher(algorithm, ...rest)),
    { s3rverPaging: true },
  );
  crypto.createDecipheriv = (algorithm: unknown, ...rest: unknown[]) => (algorithm === 'des' ? identity : decipher(algorithm, ...rest));
}

/**
 * s3rver's CopyObject with `x-amz-metadata-directive: REPLACE` copies the bytes but not their MD5, so the
 * copy keeps the ETag of whatever was at the key before (or none): a listing would then tell a client the
 * old bytes are still there. S3 gives a copy the ETag of its bytes; so does this test server once the MD5
 * goes with them.
 */
function letS3rverCopyEtags(): void {
  interface Store {
    getResourcePath(bucket: string, key: string, resource: string): string;
    copyObject(srcBucket: string, srcKey: string, destBucket: string, destKey: string, replacement: unknown): Promise<unknown>;
  }
  const require = createRequire(import.meta.url);
  const store = (
    require(join(dirname(require.resolve('@20minutes/s3rver')), 'stores/filesystem.js')) as {
      prototype: Store & { s3rverCopyEtags?: boolean };
    }
  ).prototype;
  if (store.s3rverCopyEtags) return;
  const copy = store.copyObject;
  store.copyObject = async function (this: Store, srcBucket, srcKey, destBucket, destKey, replacement) {
    if (replacement && (srcBucket !== destBucket || srcKey !== destKey)) {
      await copy.call(this, srcBucket, srcKey, destBucket, destKey, replacement);
      await copyFile(this.getResourcePath(srcBucket, srcKey, 'object.md5'), this.getResourcePath(destBucket, destKey, 'object.md5'));
      return (this as unknown as { getMetadata(bucket: string, key: string): Promise<unknown> }).getMetadata(destBucket, destKey);
    }
    return copy.call(this, srcBucket, srcKey, destBucket, destKey, replacement);
  };
  store.s3rverCopyEtags = true;
}

/**
 * A folder this helper made, removed when the process ends: a test may start a server on the folder of
 * one it stopped, so not before. Each run of the suite or a bench left hundreds of MB in the temporary
 * folder otherwise (a bench's bucket of a 10,000-page site is about 490 MB).
 */
function removedAtExit(dir: string): string {
  if (made.size === 0) process.once('exit', () => made.forEach((made) => rmSync(made, { recursive: true, force: true })));
  made.add(dir);
  return dir;
}
const made = new Set<string>();

/** Starts s3rver with `bucket` created, on a free port (or `port`), storing under `directory`. */
export async function startS3Server(options: { bucket?: string; directory?: string; port?: number } = {}): Promise<S3TestServer> {
  letS3rverPageListings();
  letS3rverCopyEtags();
  const bucket = options.bucket ?? 'site';
  const directory = options.directory ?? removedAtExit(await mkdtemp(join(tmpdir(), 's3rver-')));
  // s3rver signs bucket-level requests as `/bucket` while SDK v3 signs `/bucket/`, so it would refuse
  // every listing; signatures are therefore not compared, but access key ids still are.
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory,
    allowMismatchedSignatures: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await s3.run();
  const server = s3.httpServer!;
  const requests: S3Request[] = [];
  let putsLeft = Number.POSITIVE_INFINITY;
  let stopping: Promise<void> | null = null;
  let markStopped: () => void = () => {};
  const stopped = new Promise<void>((ok) => (markStopped = ok));
  const stop = (): Promise<void> =>
    (stopping ??= new Promise<void>((ok) => {
      // s3rver closes its logger on 'close' while cut-off requests may still log; its logger holds
      // no handlers worth releasing, so it is left open rather than warned about.
      server.removeAllListeners('close');
      server.closeAllConnections();
      server.close(() => ok());
    }).then(markStopped));

  server.prependListener('request', (req, res) => {
    res.on('finish', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname.split('/').slice(2).join('/');
      requests.push({ method: req.method ?? 'GET', key: decodeURIComponent(path), status: res.statusCode });
      if (req.method === 'PUT' && res.statusCode === 200 && --putsLeft === 0) void stop();
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    directory,
    bucket,
    requests,
    stopAfterPuts: (n) => void (putsLeft = n),
    stopped,
    stop,
  };
}

/** An S3 client for the test server, for reading objects back. */
export function s3Client(endpoint: string): S3Client {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= S3_ENV.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  return new S3Client({
    endpoint,
    region: S3_ENV.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_ENV.AWS_ACCESS_KEY_ID, secretAccessKey: S3_ENV.AWS_SECRET_ACCESS_KEY },
  });
}

/** An object with the headers stored with it. */
export interface ServedObject {
  status: number;
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

/** GET of one key: the object with its stored headers, or null when the key does not exist. */
export async function getObject(client: S3Client, bucket: string, key: string): Promise<ServedObject | null> {
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return {
      status: 200,
      body: Buffer.from(await answer.Body!.transformToByteArray()),
      contentType: answer.ContentType,
      cacheControl: answer.CacheControl,
    };
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
}

/** The website front of a bucket. */
export interface BucketWebsite {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the bucket over HTTP like website hosting: `/path` → `{prefix}/path`, else
 * `{prefix}/path/index.html`; a miss answers `404.html` with status 404; every answer carries the
 * Content-Type and Cache-Control stored with the object.
 */
export async function startBucketWebsite(options: { endpoint: string; bucket: string; prefix?: string }): Promise<BucketWebsite> {
  const client = s3Client(options.endpoint);
  const base = options.prefix ? `${options.prefix}/` : '';
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    const candidates = path === '' || path.endsWith('/') ? [`${path}index.html`] : [path, `${path}/index.html`];
    void (async () => {
      for (const key of candidates) {
        const found = await getObject(client, options.bucket, base + key);
        if (found) return send(found, 200);
      }
      const missing = await getObject(client, options.bucket, `${base}404.html`);
      return missing ? send(missing, 404) : res.writeHead(404).end('Not found');
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    function send(object: ServedObject, status: number): void {
      const headers: Record<string, string> = { 'content-length': String(object.body.byteLength) };
      if (object.contentType) headers['content-type'] = object.contentType;
      if (object.cacheControl) headers['cache-control'] = object.cacheControl;
      res.writeHead(status, headers).end(req.method === 'HEAD' ? undefined : object.body);
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((ok) => {
        client.destroy();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Every object under `prefix/` with its ETag, to show a run changed nothing. */
export async function bucketSnapshot(client: S3Client, bucket: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix ? `${prefix}/` : undefined, ContinuationToken: token }),
    );
    for (const item of page.Contents ?? []) out[item.Key!.slice(prefix ? prefix.length + 1 : 0)] = item.ETag ?? '';
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out;
}

/** The keys that belong to writeFakeBuild's build n alone, sorted: what retention removes with it. */
export const fakeBuildOwnKeys = (n: number): string[] =>
  [
    `_assets/entry-v${n}.js`,
    `_assets/site-v${n}.css`,
    `_assets/chunk-a-v${n}.js`,
    `_assets/chunk-b-v${n}.js`,
    `only-${n}/index.html`,
    `only-${n}/_payload.json`,
    `_assets/builds/meta/build-${n}.json`,
    `_assets/builds/files/build-${n}.json`,
  ].sort();

/**
 * A small build output in the layout `site build` writes, for publish tests that need builds which
 * differ in their hashed assets: build n has its own entry, stylesheet and two chunks, its own page
 * `/only-{n}`, the shared pages with build-specific bytes, and files every build shares unchanged.
 */
export async function writeFakeBuild(dir: string, n: number): Promise<{ id: string; files: Record<string, string> }> {
  const id = `build-${n}`;
  const assets = [`_assets/entry-v${n}.js`, `_assets/site-v${n}.css`, `_assets/chunk-a-v${n}.js`, `_assets/chunk-b-v${n}.js`];
  const page = (path: string): string =>
    `<!doctype html><title>${path}</title><link rel="stylesheet" href="/${assets[1]}"><script type="module" src="/${assets[0]}"></script><h1>${path} of ${id}</h1>`;
  const payload = (path: string): string =>
    JSON.stringify({ v: 1, buildId: id, path, data: { title: path }, prerenderedAt: new Date(n * 1000).toISOString() });
  const paths = ['/', '/news', '/news/first', `/only-${n}`];
  const files: Record<string, string> = {
    [assets[0]!]: `import './chunk-a-v${n}.js'; console.log(${n});`,
    [assets[1]!]: `h1 { color: #${n}${n}${n}; }`,
    [assets[2]!]: `export const a = ${n};`,
    [assets[3]!]: `export const b = ${n};`,
    '_assets/shared-0000.js': 'export const shared = true;',
    'media/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    '404.html': page('/404'),
    'robots.txt': 'User-agent: *\n',
    'sitemap.xml': '<?xml version="1.0"?><urlset/>',
    [`_assets/builds/meta/${id}.json`]: JSON.stringify({ id, timestamp: n * 1000, matcher: {}, prerendered: paths }),
    '_assets/builds/latest.json': JSON.stringify({ id, timestamp: n * 1000 }),
  };
  for (const path of paths) {
    const folder = path === '/' ? '' : `${path.slice(1)}/`;
    files[`${folder}index.html`] = page(path);
    files[`${folder}_payload.json`] = payload(path);
  }
  for (const [key, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, key)), { recursive: true });
    await writeFile(join(dir, key), content);
  }
  return { id, files };
}
