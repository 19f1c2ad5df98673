import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { runCli } from '../helpers/cli.ts';
import { snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * Times are shown in the institute's zone (the site data's timeZone, Europe/Oslo in the sample), and a
 * build's bytes never depend on the zone of the machine that runs it (issue 21.5).
 */
let backend: ContentServer;
let root: string;

beforeAll(async () => {
  backend = await startContentServer({ now: () => new Date('2026-03-02T09:00:00Z') });
  root = await mkdtemp(join(tmpdir(), 'site-time-zone-'));
  // New York's build makes the bundle in its zone, to compare with the run's bundle made in the machine's.
  for (const out of ['utc', 'tokyo']) await seedBundle(join(root, `cache-${out}`));
});

afterAll(async () => {
  await backend?.close();
  await rm(root, { recursive: true, force: true });
});

const build = (out: string, tz: string) =>
  runCli(
    ['build', '--endpoint', backend.url, '--out', join(root, out), '--cache-dir', join(root, `cache-${out}`), '--no-report', '--quiet'],
    { env: { TZ: tz, SOURCE_DATE_EPOCH: '1790000000' } },
  );

describe("the institute's time zone", () => {
  it('gives the same bytes whatever zone the build machine is in', async () => {
    const results = await Promise.all([build('utc', 'UTC'), build('new-york', 'America/New_York'), build('tokyo', 'Asia/Tokyo')]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const [utc, newYork, tokyo] = await Promise.all(['utc', 'new-york', 'tokyo'].map((out) => snapshotTree(join(root, out))));
    expect(newYork).toEqual(utc);
    expect(tokyo).toEqual(utc);
    // And the zone is the institute's: event times name CET or CEST, calendars name the zone.
    const events = await readFile(join(root, 'utc/feeds/events.xml'), 'utf8');
    expect(events).toMatch(/\d{2}:\d{2} CES?T/);
    expect(events).not.toMatch(/\d{2}:\d{2} UTC/);
  }, 300_000);
});
