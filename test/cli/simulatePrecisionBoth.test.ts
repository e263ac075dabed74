/**
 * `simulate --precision rel --half-width h`: both targets hold, neither is dropped. The run went on until both were met
 * (precisionReached), but the help of each option spoke as if it were alone, the library's PrecisionTarget said
 * "either met stops", and a run stopped by its budget did not say which target was missed.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const SIM = 'simulate --lambda 0.5 --d 2 --n 20 --jobs 1000 --max-replications 12 --no-progress --json';
const precisionOf = async (targets: string) => {
  const r = await runCli(`${SIM} ${targets}`);
  expect(r.status, r.stderr).toBe(0);
  const j = JSON.parse(r.stdout);
  return { precision: j.precision, warnings: (j.warnings as string[]).filter((w) => w.startsWith('precision')) };
};

describe('simulate with both --precision and --half-width', () => {
  it('a loose relative target met and a tight half-width not: the run goes on to its budget and names the one missed', async () => {
    const { precision, warnings } = await precisionOf('--precision 0.5 --half-width 0.005');
    expect(precision.target).toEqual({ relative: 0.5, halfWidth: 0.005 });
    expect(precision.stoppedBy).toBe('budget');
    expect(precision.units).toBe(12);
    expect(precision.achieved.relative).toBeLessThan(0.5); // met long before: not enough to stop
    expect(warnings).toEqual([expect.stringMatching(/; not met: half-width ± 0\.005$/)]);
  });

  it('the other way round: the relative target is named', async () => {
    const { precision, warnings } = await precisionOf('--precision 0.001 --half-width 0.5');
    expect(precision.stoppedBy).toBe('budget');
    expect(precision.achieved.halfWidth).toBeLessThan(0.5);
    expect(warnings).toEqual([expect.stringMatching(/; not met: relative ± 0\.1 %$/)]);
  });

  it('both met: stopped by the target, with both holding', async () => {
    const { precision, warnings } = await precisionOf('--precision 0.05 --half-width 0.5');
    expect(precision.stoppedBy).toBe('precision');
    expect(precision.achieved.relative).toBeLessThanOrEqual(0.05);
    expect(precision.achieved.halfWidth).toBeLessThanOrEqual(0.5);
    expect(warnings).toEqual([]);
  });

  it('the help of each says both must hold', async () => {
    const help = (await runCli('simulate --help')).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/--precision <rel>.*with --half-width, until both hold/);
    expect(help).toMatch(/--half-width <h>.*with --precision, until both hold/);
  });
});
