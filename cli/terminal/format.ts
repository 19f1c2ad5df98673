/** How every line the tool prints writes sizes, counts and durations. */

/** `512 B`, `1.5 KiB`, `3.8 MiB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `0.4 MiB`, `12.3 MiB`: always in MiB, so a stage's lines compare across builds of any size. */
export function formatMiB(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** `950`, `10,802`. */
export function formatCount(n: number): string {
  // A regular expression rather than toLocaleString: a command that formats no date would load ICU's
  // number data for this alone (15-20 ms).
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
}

/** `640 ms`, `3.1 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** `1 file`, `3 files`; `many` for an irregular plural. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
