import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelay, createGraphQLClient, isGraphQLRequestError, type GraphQLRequestError } from '../../../runtime/shared/graphql.ts';
import { startFaultServer, type Fault, type FaultServer } from '../../helpers/fault-server.ts';
import { rejectionOf } from '../../helpers/rejection.ts';

const QUERY = 'query Probe { site { name } }';
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer();
});

afterAll(async () => {
  await server.close();
});

function client(options: { retries?: number; timeoutMs?: number } = {}) {
  return createGraphQLClient({
    endpoint: server.url,
    retries: options.retries ?? 3,
    timeoutMs: options.timeoutMs ?? 400,
    backoffMs: () => 10,
    dedupe: false,
  });
}

function failure(promise: Promise<unknown>): Promise<GraphQLRequestError> {
  return rejectionOf(promise, isGraphQLRequestError);
}

const TRANSIENT: [string, Fault][] = [
  ['an answer that never comes', { kind: 'hang' }],
  ['an answer that stops half-way through its body', { kind: 'stall-body' }],
  ['a connection reset', { kind: 'reset' }],
  ['HTTP 500', { kind: 'status', status: 500 }],
  ['HTTP 502', { kind: 'status', status: 502 }],
  ['HTTP 503', { kind: 'status', status: 503 }],
  ['JSON cut off half-way', { kind: 'malformed-json' }],
  ["a proxy's HTML error page with status 200", { kind: 'html' }],
];

describe('the GraphQL transport against a misbehaving backend', () => {
  it.each(TRANSIENT)('retries %s and returns the data once the backend recovers', async (_name, fault) => {
    server.setRules([{ operation: 'Probe', fault, calls: [1, 2] }]);
    const data = await client().request<{ site: { name: string } }>(QUERY);
    expect(data.site.name).toBeTruthy();
    expect(
      server.log
        .filter((e) => e.operation === 'Probe')
        .slice(-3)
        .map((e) => e.fault),
    ).toEqual([fault.kind, fault.kind, 'pass']);
  });

  it('waits as long as a 429 asks with Retry-After (seconds) before trying again', async () => {
    server.setRules([{ operation: 'Probe', fault: { kind: 'status', status: 429, retryAfter: '1' }, calls: [1] }]);
    const started = Date.now();
    await client().request(QUERY);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const [limited, retried] = server.log.slice(-2);
    expect(limited?.fault).toBe('status');
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(950);
  });

  it('honours Retry-After given as an HTTP date on a 503', async () => {
    const at = new Date(Date.now() + 2000).toUTCString();
    server.setRules([{ operation: 'Probe', fault: { kind: 'status', status: 503, retryAfter: at }, calls: [1] }]);
    const started = Date.now();
    await client().request(QUERY);
    // HTTP dates have whole seconds: the wait is between one and two seconds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('gives up on an answer that never comes after the timeout of each attempt, naming the operation', async () => {
    server.setRules([{ operation: 'Probe', fault: { kind: 'hang' } }]);
    const started = Date.now();
    const error = await failure(client({ retries: 2, timeoutMs: 300 }).request(QUERY));
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ kind: 'timeout', operation: 'Probe', reason: 'no answer within 300 ms' });
    expect(server.log.filter((e) => e.operation === 'Probe' && e.fault === 'hang').length).toBeGreaterThanOrEqual(3);
    expect(elapsed).toBeGreaterThanOrEqual(850);
    expect(elapsed).toBeLessThan(10_000);
  });

  it('reports a connection that keeps resetting as a network failure after every retry', async () => {
    server.setRules([{ operation: 'Probe', fault: { kind: 'reset' } }]);
    const before = server.log.length;
    const error = await failure(client({ retries: 2 }).request(QUERY));
    expect(error.kind).toBe('network');
    expect(error.message).toContain(server.url);
    expect(server.log.length - before).toBe(3);
  });

  it('retries a 200 that is not GraphQL JSON at most twice, and says in one line what came back', async () => {
    server.setRules([{ operation: 'Probe', fault: { kind: 'html' } }]);
    const before = server.log.length;
    const error = await failure(client({ retries: 5 }).request(QUERY));
    expect(server.log.length - before).toBe(3);
    expect(error.kind).toBe('invalid-response');
    expect(error.status).toBe(200);
    expect(error.reason).toMatch(/^HTTP 200 \(text\/html; charset=utf-8\) was not a GraphQL JSON answer: body starts "<!doctype html>/);
    expect(error.reason).not.toContain('\n');
    expect(error.reason.length).toBeLessThan(160);
  });

  it('explains JSON cut off half-way as invalid JSON with its status and type', async () => {
    server.setRules([{ operation: 'Probe', fault: { kind: 'malformed-json' } }]);
    const error = await failure(client({ retries: 0 }).request(QUERY));
    expect(error.reason).toMatch(/^HTTP 200 \(application\/json\) was not valid JSON: /);
  });

  it('does not retry GraphQL errors that come with partial data, and lists the errors', async () => {
    server.setRules([{ operation: 'Probe', fault: { kind: 'graphql-errors', message: 'resolver exploded' } }]);
    const before = server.log.length;
    const error = await failure(client().request(QUERY));
    expect(server.log.length - before).toBe(1);
    expect(error).toMatchObject({ kind: 'graphql', operation: 'Probe', graphqlErrors: [{ message: 'resolver exploded' }] });
  });

  it('stops after the configured retries on a persistent 503', async () => {
    server.setRules([{ operation: 'Probe', fault: { kind: 'status', status: 503 } }]);
    const before = server.log.length;
    const error = await failure(client({ retries: 3 }).request(QUERY));
    expect(server.log.length - before).toBe(4);
    expect(error).toMatchObject({ kind: 'http', status: 503, reason: 'HTTP 503' });
  });
});

describe('backoffDelay', () => {
  it('doubles from the base per attempt, up to 8 s, with jitter in the upper half', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 250, () => 1))).toEqual([250, 500, 1000, 2000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, 250, () => 0))).toEqual([125, 250, 500]);
    expect(backoffDelay(12, 250, () => 1)).toBe(8000);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelay(3, 100);
      expect(delay).toBeGreaterThanOrEqual(200);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });
});
