/**
 * The web-platform APIs that Node and browsers both provide (the WinterCG minimum common API), as
 * runtime/shared/ uses them: declared here, for its type check alone, so that shared code sees neither
 * the DOM nor Node's own modules and types (runtime/shared/tsconfig.json). Only what the code uses.
 */

declare class URLSearchParams {
  constructor(init?: string | Record<string, string>);
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  toString(): string;
}

declare class URL {
  constructor(url: string | URL, base?: string | URL);
  static canParse(url: string | URL, base?: string | URL): boolean;
  hash: string;
  host: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  readonly searchParams: URLSearchParams;
  username: string;
  toString(): string;
}

declare class Headers {
  constructor(init?: Record<string, string> | [string, string][]);
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  forEach(callback: (value: string, key: string) => void): void;
}

declare class AbortSignal {
  static timeout(ms: number): AbortSignal;
  readonly aborted: boolean;
}

type RequestInfo = string | URL;

interface RequestInit {
  method?: string;
  headers?: Record<string, string> | Headers;
  body?: string | null;
  signal?: AbortSignal;
  redirect?: 'follow' | 'error' | 'manual';
}

declare class Response {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly type: 'basic' | 'cors' | 'default' | 'error' | 'opaque' | 'opaqueredirect';
  readonly headers: Headers;
  readonly url: string;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

declare function fetch(input: RequestInfo, init?: RequestInit): Promise<Response>;
declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
