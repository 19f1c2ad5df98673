import { describe, expect, it } from 'vitest';
import { measure } from '../../../bench/measure.ts';

// The benches time whole processes: wall time, peak memory and the CPU each side used (bench:build
// prints the user and system time of our build and Hugo's beside target 1).
describe('bench measure', () => {
  it('counts the CPU time a process spends, not only its wall time', async () => {
    // Busy until it has used 400 ms of CPU, however busy the machine is.
    const m = await measure(process.execPath, ['-e', 'while (process.cpuUsage().user < 400_000);']);
    expect(m.code).toBe(0);
    expect(m.userMs + m.systemMs).toBeGreaterThanOrEqual(300);
    expect(m.userMs).toBeGreaterThanOrEqual(250);
    expect(m.userMs + m.systemMs).toBeLessThanOrEqual(m.ms * 2 + 50);
  }, 60_000);

  it('reports the exit code of a failed command, so a bench can refuse its figure', async () => {
    const m = await measure(process.execPath, ['-e', 'process.stderr.write("broken"); process.exit(3)']);
    expect(m.code).toBe(3);
    expect(m.stderr).toBe('broken');
  });
});
