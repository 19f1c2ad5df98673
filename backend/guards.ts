/**
 * What makes the embedded backend safe to leave running on a laptop while its owner browses the web
 * (issue 16.8): which origins may call it, how large a query may be, how often a login may fail, who
 * may fetch the media of drafts, and where it may listen with the sample editor account.
 */
import { Kind, type ASTVisitor, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { Content } from './content/types.ts';

/** True for a loopback host name or address: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(bare) || bare === '::1';
}

/**
 * Whether a browser page at `origin` may call the backend: pages on this machine (`site preview`,
 * `site dev`, any loopback port) and the site's own origins. Any other page (a site its owner happens
 * to visit) gets no CORS headers and, for a request that carries its Origin, a 403.
 */
export function isAllowedOrigin(origin: string, siteOrigins: ReadonlySet<string>): boolean {
  if (siteOrigins.has(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** Limits on one GraphQL document, far above what the site's own queries use (tests check both). */
export const QUERY_LIMITS = { depth: 12, aliases: 30, fields: 600, tokens: 5000 } as const;

/**
 * A validation rule that refuses documents nested deeper than QUERY_LIMITS.depth, with more aliases
 * than QUERY_LIMITS.aliases or more field selections than QUERY_LIMITS.fields (fragments counted where
 * they are spread), each with a message that says which limit and by how much.
 */
export function queryLimitsRule(context: ValidationContext): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of context.getDocument().definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  // Each fragment is measured once however often it is spread: fragments that spread the next one twice
  // would otherwise cost 2^n to measure, a query of a kilobyte that holds the process for hours.
  const costs = new Map<string, Cost>();
  const fragmentCost = (name: string, active: ReadonlySet<string>): Cost => {
    const known = costs.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    // A fragment spread inside itself is graphql's own error (NoFragmentCycles): it counts for nothing here.
    if (!fragment || active.has(name)) return NOTHING;
    const cost = costOf(fragment.selectionSet, (spread) => fragmentCost(spread, new Set([...active, name])));
    costs.set(name, cost);
    return cost;
  };
  return {
    OperationDefinition(node) {
      const tally = costOf(node.selectionSet, (spread) => fragmentCost(spread, new Set()));
      const name = node.name?.value ?? 'the operation';
      if (tally.depth > QUERY_LIMITS.depth)
        context.reportError(
          createGraphQLError(`${name} is nested ${tally.depth} levels deep; this backend answers at most ${QUERY_LIMITS.depth}.`, {
            nodes: [node],
          }),
        );
      if (tally.aliases > QUERY_LIMITS.aliases)
        context.reportError(
          createGraphQLError(`${name} uses ${tally.aliases} aliases; this backend answers at most ${QUERY_LIMITS.aliases}.`, {
            nodes: [node],
          }),
        );
      if (tally.fields > QUERY_LIMITS.fields)
        context.reportError(
          createGraphQLError(`${name} selects ${tally.fields} fields; this backend answers at most ${QUERY_LIMITS.fields}.`, {
            nodes: [node],
          }),
        );
    },
  };
}

/** What a selection set costs: its depth in levels, and its fields and aliases with fragments counted where spread. */
interface Cost {
  depth: number;
  aliases: number;
  fields: number;
}

const NOTHING: Cost = { depth: 0, aliases: 0, fields: 0 };

function costOf(set: SelectionSetNode, spread: (name: string) => Cost): Cost {
  const cost = { depth: 1, aliases: 0, fields: 0 };
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const field: FieldNode = selection;
      cost.fields++;
      if (field.alias) cost.aliases++;
      if (field.selectionSet) {
        const sub = costOf(field.selectionSet, spread);
        cost.depth = Math.max(cost.depth, sub.depth + 1);
        cost.fields += sub.fields;
        cost.aliases += sub.aliases;
      }
      continue;
    }
    const inner = selection.kind === Kind.INLINE_FRAGMENT ? costOf(selection.selectionSet, spread) : spread(selection.name.value);
    cost.depth = Math.max(cost.depth, inner.depth);
    cost.fields += inner.fields;
    cost.aliases += inner.aliases;
  }
  return cost;
}

/**
 * Whether a request's Host names this backend: a loopback name, the address it listens on, or a site
 * origin's host. Anything else is a page that made its own name point here (DNS rebinding), which would
 * make its requests same-origin and so carry no Origin header to refuse.
 */
export function isExpectedHost(hostHeader: string | undefined, listening: string, siteOrigins: ReadonlySet<string>): boolean {
  if (!hostHeader) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${hostHeader}`).hostname;
  } catch {
    return false;
  }
  if (
    isLoopbackHost(hostname) ||
    hostname === listening.replace(/^\[|\]$/g, '') ||
    `[${listening}]` === hostname ||
    listening === '0.0.0.0' ||
    listening === '::'
  )
    return true;
  for (const origin of siteOrigins) if (new URL(origin).hostname === hostname) return true;
  return false;
}

/**
 * Failed logins allowed before the next must wait, in sliding windows: per client (an IPv4 address, or an
 * IPv6 address's /64, which one machine holds whole), per account (the email tried, whichever addresses
 * it comes from) and over the whole backend. A reverse proxy in front of the backend makes one client of
 * everyone, and a client with many addresses (an IPv6 /48, a botnet) escapes the per-client limit: the
 * account and backend limits hold regardless. The price: someone guessing can keep the editor waiting
 * (at most `account.windowMs` after the guessing stops); logging in successfully from another client is
 * no way round it, by design.
 */
export const LOGIN_LIMIT = {
  client: { failures: 10, windowMs: 60_000 },
  account: { failures: 30, windowMs: 15 * 60_000 },
  backend: { failures: 300, windowMs: 15 * 60_000 },
  /** Clients and accounts remembered at most; past it the least recently seen is forgotten. */
  tracked: 10_000,
} as const;

/** The login limiter of one backend (createLoginLimiter). */
export interface LoginLimiter {
  /** Throws RATE_LIMITED when the client, the account or the backend has failed too often lately. */
  check(client: string, account: string): void;
  failed(client: string, account: string): void;
  /** A correct login: the client's and the account's failures are forgotten. */
  succeeded(client: string, account: string): void;
  /** Clients and accounts held in memory (for tests: never more than LOGIN_LIMIT.tracked each). */
  size(): { clients: number; accounts: number };
}

/** Counts failed logins per client, per account and in all (LOGIN_LIMIT), in memory bounded by LOGIN_LIMIT.tracked. */
export function createLoginLimiter(now: () => number = Date.now): LoginLimiter {
  const clients = new BoundedWindows(LOGIN_LIMIT.client, LOGIN_LIMIT.tracked, now);
  const accounts = new BoundedWindows(LOGIN_LIMIT.account, LOGIN_LIMIT.tracked, now);
  const backend = new BoundedWindows(LOGIN_LIMIT.backend, 1, now);
  const refuse = (wait: number, what: string): never => {
    throw createGraphQLError(`Too many failed logins ${what}; try again in ${wait} s.`, {
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds: wait },
    });
  };
  return {
    check(client, account) {
      const byClient = clients.wait(clientKey(client));
      if (byClient > 0) refuse(byClient, 'from this address');
      const byAccount = accounts.wait(accountKey(account));
      if (byAccount > 0) refuse(byAccount, 'for this account');
      const all = backend.wait('');
      if (all > 0) refuse(all, 'on this backend');
    },
    failed(client, account) {
      clients.add(clientKey(client));
      accounts.add(accountKey(account));
      backend.add('');
    },
    succeeded(client, account) {
      clients.forget(clientKey(client));
      accounts.forget(accountKey(account));
    },
    size: () => ({ clients: clients.size, accounts: accounts.size }),
  };
}

/**
 * Whom a login's failures count against: an IPv4 address as it is (an IPv4-mapped IPv6 address as its
 * IPv4 one), an IPv6 address by its first 64 bits (a host chooses the rest freely), anything else as given.
 */
export function clientKey(address: string): string {
  const bare = address
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  if (mapped) return mapped[1]!;
  if (!bare.includes(':')) return bare;
  const [head = '', tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = bare.includes('::') ? (tail ? tail.split(':') : []) : [];
  // An embedded IPv4 tail counts as two groups.
  const groups = (parts: string[]): number => parts.reduce((n, part) => n + (part.includes('.') ? 2 : 1), 0);
  const full = bare.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - groups(left) - groups(right))).fill('0'), ...right] : left;
  return `${full
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** An account's key: the email as login compares it (trimmed, lower case), cut to an email's longest. */
function accountKey(email: string): string {
  return email.trim().toLowerCase().slice(0, 254);
}

/** Failure times per key in a sliding window, the last `failures` of each, for at most `max` keys (least recently seen forgotten). */
class BoundedWindows {
  private readonly times = new Map<string, number[]>();
  constructor(
    private readonly limit: { failures: number; windowMs: number },
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.times.size;
  }

  /** Seconds `key` must wait, 0 when it may try. */
  wait(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit.failures) return 0;
    return Math.max(1, Math.ceil((this.limit.windowMs - (this.now() - recent[0]!)) / 1000));
  }

  add(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    if (recent.length > this.limit.failures) recent.shift();
    // Most recently seen last: the first key is the one to forget.
    this.times.delete(key);
    this.times.set(key, recent);
    if (this.times.size > this.max) this.times.delete(this.times.keys().next().value!);
  }

  forget(key: string): void {
    this.times.delete(key);
  }

  private recent(key: string): number[] {
    const times = this.times.get(key);
    if (!times) return [];
    const now = this.now();
    const recent = times.filter((t) => now - t < this.limit.windowMs);
    if (recent.length === 0) this.times.delete(key);
    return recent;
  }
}

/** Media paths that only drafts refer to: served to an editor's token alone. */
export function draftOnlyMedia(content: Content): Set<string> {
  const published = new Set<string>();
  const drafts = new Set<string>();
  // Items refer to each other (a project to its publications and people): each object is read once per pass.
  const seenBy = new Map<Set<string>, WeakSet<object>>([
    [published, new WeakSet()],
    [drafts, new WeakSet()],
  ]);
  const collect = (value: unknown, into: Set<string>): void => {
    const seen = seenBy.get(into)!;
    if (typeof value === 'string') {
      if (value.includes('/media/')) for (const m of value.matchAll(/\/media\/[^"'\s<>?#)]+/g)) into.add(m[0]);
      return;
    }
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    // A draft a published item refers to (a project's draft publication) stays a draft.
    if (into === published && (value as { status?: string }).status === 'DRAFT') return;
    seen.add(value);
    for (const v of Array.isArray(value) ? value : Object.values(value)) collect(v, into);
  };
  const lists = Object.entries(content).filter(([key]) => key !== 'media');
  const items = lists.flatMap(([, value]) => (Array.isArray(value) ? (value as unknown[]) : [value]));
  for (const item of items) if ((item as { status?: string }).status === 'DRAFT') collect(item, drafts);
  for (const item of items) if ((item as { status?: string }).status !== 'DRAFT') collect(item, published);
  for (const path of published) drafts.delete(path);
  return drafts;
}
