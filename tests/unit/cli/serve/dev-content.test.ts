import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadChangeFeed } from '../../../../cli/config/site-modules.ts';
import { followContent } from '../../../../cli/serve/dev-content.ts';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

describe("following the backend's change feed", () => {
  it("asks with the build's token, as the build asks the same feed (site live)", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const { changeFeed } = await loadChangeFeed();
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    const feed = followContent(endpoint, changeFeed!, () => undefined, { intervalMs: 50, onProblem: () => undefined, token: 'the-token' });
    closers.push(() => feed.close());
    await expect.poll(() => seen.length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(seen[0]!.authorization).toBe('Bearer the-token');
  });
});
