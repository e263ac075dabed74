/**
 * `fixed-point --ccdf` prints the whole grid it asks for (closing3.md: for SQ(d) with exponential sizes it changed
 * nothing in the text output, which always showed the integer-t summary; other solvers cut the grid at 12 points).
 */
import { describe, expect, it } from 'vitest';
import { responseTimeCcdf, solveSqdFixedPoint } from '../../src/meanfield/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { runCli } from './runCli.ts';

describe('fixed-point --ccdf in text', () => {
  it('SQ(d): every point of 0..t-end by dt (at the closed-form values); without --ccdf the integer-t summary', async () => {
    const r = await runCli('fixed-point --lambda 0.9 --d 2 --ccdf --ccdf-t-end 12 --ccdf-dt 0.5');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/P\(T > t\) on 25 points, t = 0 … 12:/);
    const times = Array.from({ length: 25 }, (_, j) => j * 0.5);
    const ccdf = responseTimeCcdf(solveSqdFixedPoint(parseModel({ lambda: 0.9, d: 2 })), 2, times);
    for (const j of [1, 11, 23, 24]) expect(r.stdout).toContain(`t=${times[j]}: ${ccdf[j].toPrecision(3)}`);
    const plain = await runCli('fixed-point --lambda 0.9 --d 2 --ccdf-t-end 12 --ccdf-dt 0.5');
    expect(plain.stdout).not.toContain('t=0.5:');
    expect(plain.stdout).not.toContain('t=8:'); // the summary stops at 8 integer points
    expect(plain.stdout).toContain('P(T > t): t=0: 1.00  t=1: ');
  });

  it('the summary labels its times to 6 digits: --ccdf-dt 0.3 prints t=0.9, not t=0.8999999999999999', async () => {
    const r = await runCli('fixed-point --lambda 0.9 --d 2 --ccdf-dt 0.3');
    expect(r.status, r.stderr).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('  P(T > t):'))!;
    expect(line).not.toMatch(/t=\d+\.\d{7,}/);
    expect(line).toMatch(/^ {2}P\(T > t\): t=0: 1\.00 {2}t=0\.9: 0\.802 {2}t=1\.8: /);
  });

  it('other solvers: the grid is not cut at 12 points', async () => {
    const r = await runCli('fixed-point --lambda 0.9 --d 2 --service erlang:2 --ccdf --ccdf-t-end 10 --ccdf-dt 0.5');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/P\(T > t\) on 21 points, t = 0 … 10:/);
    expect(r.stdout).toMatch(/t=10: [0-9.e-]+/);
    expect(r.stdout).not.toContain('…\n');
  });
});
