import { describe, expect, it } from 'vitest';
import { exactProgressText } from '../../src/cli/commands/exact.ts';
import { runCli } from './runCli.ts';

describe('exact under random routing (a fresh user waited 386 s for a 1.2e6-state chain to print E[T] = 10)', () => {
  it('exact --n 3 --d 1 --lambda 0.9 --json answers in closed form: method "closed form", E[T] = 1/(1 − λ), no chain', async () => {
    const r = await runCli('exact --n 3 --d 1 --lambda 0.9 --json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.method).toBe('closed form');
    expect(j.policy).toBe('RANDOM (d = 1) + FIFO');
    expect(j.states).toBe(0);
    expect(j.meanResponseTime).toBeCloseTo(10, 12);
    expect(j.provenance.method).toMatch(/^closed form/);
  });

  it('exact --n 3 --d 1 --lambda 0.9 says so in text, with the source, and names the policy random, not JSQ(1)', async () => {
    const r = await runCli('exact --n 3 --d 1 --lambda 0.9');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^exact, n = 3, RANDOM \(d = 1\) \+ FIFO, λ = 0\.9$/m);
    expect(r.stdout).toMatch(/E\[T\] = 10\.000000 {2}\(closed form, exact: random routing makes each server an M\/M\/1 queue/);
    expect(r.stdout).toMatch(/method: closed form, no chain built; source: .*Kleinrock/);
    expect(r.stdout).not.toMatch(/JSQ\(1\)/);
  });

  it('exact --n 2 --d 2 still solves the chain and says its method in --json', async () => {
    const r = await runCli('exact --n 2 --d 2 --lambda 0.5 --json');
    const j = JSON.parse(r.stdout);
    expect(j.method).toBe('occupancy chain');
    expect(j.policy).toBe('JSQ(2) + FIFO');
    expect(j.states).toBeGreaterThan(0);
  });
});

describe('exact progress: no ETA (one cap’s residual said 32 s for a run of 386 s; the caps to come are unknown)', () => {
  it('exactProgressText names the cap, its states, the sweeps, the residual against the tolerance and the rate, never a % or an ETA', () => {
    const building = exactProgressText(
      { K: 20, states: 1.2e6, phase: 'build', sweeps: 0, residual: NaN, tolerance: 1e-12, fraction: 0 },
      3,
    );
    expect(building).toEqual(['level cap K = 20, 1.20e+6 states: building the chain', '']);
    const [stage, detail] = exactProgressText(
      { K: 20, states: 1.2e6, phase: 'solve', sweeps: 40, residual: 1e-8, tolerance: 1e-12, fraction: 0.1 },
      12,
    );
    expect(stage).toBe('level cap K = 20, 1.20e+6 states: solving');
    expect(detail).toBe('sweep 40, residual 1.0e-8 → 1.0e-12, 4.0e+6 state·sweeps/s, a larger K may follow');
    expect(`${stage} ${detail}`).not.toMatch(/ETA|%/);
  });
});
