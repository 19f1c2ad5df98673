/** A clock a test moves, and a timer it fires: what the progress displays take for time. */
export function fakeTime(): {
  now: () => number;
  advance(ms: number): void;
  every: (ms: number, tick: () => void) => () => void;
  tick(): void;
} {
  let t = 0;
  let ticks: (() => void)[] = [];
  return {
    now: () => t,
    advance: (ms) => void (t += ms),
    every: (_ms, tick) => {
      ticks.push(tick);
      return () => void (ticks = ticks.filter((x) => x !== tick));
    },
    tick: () => ticks.forEach((f) => f()),
  };
}
