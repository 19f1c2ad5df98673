import { spawn } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What one command cost: wall time, peak resident memory, CPU time, and its output. */
export interface Measurement {
  ms: number;
  peakMiB: number;
  /** CPU time in user and kernel mode, every thread of the process and the children it waited for (sampled every 20 ms, so up to 20 ms of the end can be missing). */
  userMs: number;
  systemMs: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command and samples its peak resident set size (VmHWM, the kernel's own high-water mark,
 * so a short spike between samples is still counted) and its CPU time (/proc's stat) until it exits.
 * The wall time is the whole process's, from spawn to exit, Node's start included.
 */
export function measure(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    let peakKiB = 0;
    let ticks = { user: 0, system: 0 };
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const sample = setInterval(() => {
      void readFile(`/proc/${child.pid}/status`, 'utf8')
        .then((status) => {
          const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
          peakKiB = Math.max(peakKiB, hwm);
        })
        .catch(() => undefined);
      void readFile(`/proc/${child.pid}/stat`, 'utf8')
        .then((stat) => {
          // Fields after the command's name (which may hold spaces): utime, stime, cutime, cstime are the 14th to 17th.
          const f = stat
            .slice(stat.lastIndexOf(')') + 2)
            .split(' ')
            .map(Number);
          ticks = { user: Math.max(ticks.user, f[11]! + f[13]!), system: Math.max(ticks.system, f[12]! + f[14]!) };
        })
        .catch(() => undefined);
    }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sample);
      resolve({
        ms: performance.now() - started,
        peakMiB: peakKiB / 1024,
        userMs: ticks.user * TICK_MS,
        systemMs: ticks.system * TICK_MS,
        code,
        stdout,
        stderr,
      });
    });
  });
}

/** Milliseconds per clock tick of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The value below which a share `p` (0–1) of the values lie: the nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** Bytes as kilobytes with one decimal, without the unit (for table columns). */
export function kB(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

/** The size in bytes of every `_payload.json` of a built site. */
export async function payloadSizes(dir: string): Promise<number[]> {
  const sizes: number[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === '_payload.json') sizes.push((await stat(full)).size);
    }
  };
  await walk(dir);
  return sizes;
}

/** Fixed-width table rows for the terminal. */
export function printTable(rows: (string | number)[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const row of rows) console.log(row.map((cell, i) => String(cell).padEnd(widths[i]!)).join('  '));
}

/**
 * Removes a bench's outputs once its figures are printed, in a process of its own that outlives the
 * bench: deleting gigabytes on a disk mounted with online discard slows every write for a while, so no
 * figure waits on it, and a bench run no longer leaves its trees behind. With KEEP_BENCH_OUTPUTS=1 they
 * stay, to look at. Returns the line to print.
 */
export function removeAfterwards(dir: string): string {
  if (process.env.KEEP_BENCH_OUTPUTS === '1') return `(outputs kept in ${dir}: KEEP_BENCH_OUTPUTS=1)`;
  spawn(process.execPath, ['-e', 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })', dir], {
    detached: true,
    stdio: 'ignore',
  }).unref();
  return `(outputs in ${dir} are being removed in the background; KEEP_BENCH_OUTPUTS=1 keeps them)`;
}

/** The bench's `--name value` and `--switch` arguments (a switch: `'true'`). */
export function benchArgs(argv: readonly string[] = process.argv): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 2; i < argv.length; i++) {
    const name = argv[i]!.replace(/^--/, '');
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) args.set(name, 'true');
    else {
      args.set(name, value);
      i++;
    }
  }
  return args;
}
