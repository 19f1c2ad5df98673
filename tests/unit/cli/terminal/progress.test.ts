import { describe, expect, it } from 'vitest';
import { fakeTime } from '../../../helpers/fake-time.ts';
import { createBuildProgress, describeStage, observe } from '../../../../cli/terminal/progress.ts';
import { terminalOf } from '../../../../cli/config/environment.ts';
import { progressModeFor } from '../../../../cli/terminal/progress-display.ts';
import { startLiveProgress } from '../../../../cli/terminal/progress-live.ts';
import { startPlainProgress } from '../../../../cli/terminal/progress-plain.ts';

/** The escape character that starts every terminal control sequence. */
const ESC = String.fromCharCode(27);

describe('stage progress', () => {
  it('shows the count and rate while the total is unknown, then the share done and the time left', () => {
    const time = fakeTime();
    const progress = createBuildProgress(time.now);
    const query = progress.stage('query');
    query.add(300);
    time.advance(2000);
    expect(describeStage(query.state, time.now())).toBe('300 pages, 150/s, 2.0 s');
    query.setTotal(1200);
    expect(describeStage(query.state, time.now())).toBe('300/1,200 pages (25%), 150/s, about 6.0 s left');
    query.add(900);
    query.end();
    time.advance(5000);
    expect(describeStage(query.state, time.now())).toBe('1,200/1,200 pages (100%), 600/s, 2.0 s');
  });

  it('says how long a stage without a count has been running', () => {
    const time = fakeTime();
    const bundle = createBuildProgress(time.now).stage('bundle', '');
    time.advance(3100);
    expect(describeStage(bundle.state, time.now())).toBe('running for 3.1 s');
  });

  it('counts items passing through an async iterable and reports when they run out', async () => {
    async function* three(): AsyncGenerator<number> {
      yield 1;
      yield 2;
      yield 3;
    }
    const seen: number[] = [];
    let ended = false;
    const out: number[] = [];
    for await (const n of observe(
      three(),
      (n) => seen.push(n),
      () => (ended = true),
    ))
      out.push(n);
    expect({ out, seen, ended }).toEqual({ out: [1, 2, 3], seen: [1, 2, 3], ended: true });
  });
});

describe('plain progress (no terminal)', () => {
  it('prints one line per running stage that moved, at most once per interval, with no escape codes', () => {
    const time = fakeTime();
    const progress = createBuildProgress(time.now);
    const lines: string[] = [];
    const display = startPlainProgress(progress, (l) => lines.push(l), { intervalMs: 2000, every: time.every });
    const render = progress.stage('render');
    render.setTotal(10_000);
    time.advance(1000);
    render.add(500);
    time.tick();
    expect(lines).toEqual([]);
    time.advance(1000);
    render.add(1500);
    time.tick();
    time.tick();
    expect(lines).toEqual(['[render] 2,000/10,000 pages (20%), 1,000/s, about 8.0 s left']);
    render.end();
    time.advance(2000);
    time.tick();
    expect(lines).toHaveLength(1);
    display.stop();
    expect(lines.join('')).not.toContain(ESC);
  });
});

describe('live progress (terminal)', () => {
  it('redraws a line per running stage in place, keeps log lines above it, and clears it when stopped', () => {
    const time = fakeTime();
    const progress = createBuildProgress(time.now);
    let screen = '';
    const out: string[] = [];
    const display = startLiveProgress(
      progress,
      { region: (t) => (screen += t), stdout: (l) => out.push(l), stderr: (l) => out.push(l), columns: () => 100 },
      { every: time.every },
    );
    const write = progress.stage('write');
    write.setTotal(100);
    write.add(40);
    time.advance(1000);
    time.tick();
    expect(screen).toContain('write    ████████░░░░░░░░░░░░ 40/100 pages (40%), 40/s, about 1.5 s left\n');
    screen = '';
    time.tick();
    // The second frame first moves up over the first one and clears it.
    expect(screen.startsWith('\x1b[1F\x1b[0J')).toBe(true);
    screen = '';
    display.streams.stdout('[write] 100 pages in 2 s');
    expect(out).toEqual(['[write] 100 pages in 2 s']);
    expect(screen).toMatch(new RegExp(`^${ESC}\\[1F${ESC}\\[0J.*write `, 's'));
    write.end();
    screen = '';
    display.stop();
    expect(screen).toBe('\x1b[1F\x1b[0J');
  });

  it('cuts lines to the terminal width so a redraw never leaves wrapped lines behind', () => {
    const time = fakeTime();
    const progress = createBuildProgress(time.now);
    let screen = '';
    startLiveProgress(
      progress,
      { region: (t) => (screen += t), stdout: () => undefined, stderr: () => undefined, columns: () => 30 },
      { every: time.every },
    );
    progress.stage('query').add(123_456);
    time.advance(1000);
    time.tick();
    for (const line of screen.replace(new RegExp(`${ESC}\\[\\d*[A-Z]`, 'g'), '').split('\n')) expect(line.length).toBeLessThanOrEqual(29);
  });
});

describe('progress mode', () => {
  it('is live on a terminal, plain in CI, on a dumb terminal or without a terminal, and off under --quiet', () => {
    expect(progressModeFor('info', true, terminalOf({}))).toBe('live');
    expect(progressModeFor('debug', true, terminalOf({ CI: 'false' }))).toBe('live');
    expect(progressModeFor('info', true, terminalOf({ CI: 'true' }))).toBe('plain');
    expect(progressModeFor('info', true, terminalOf({ TERM: 'dumb' }))).toBe('plain');
    expect(progressModeFor('info', false, terminalOf({}))).toBe('plain');
    expect(progressModeFor('warn', true, terminalOf({}))).toBe('off');
  });
});
