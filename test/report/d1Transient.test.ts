/**
 * compare at d = 1 (the trial): the transient caption said "the linearised V, W system integrated beside the ODE" where
 * V(t) = 0 exactly and nothing is integrated, and "drawn to 3 relaxation times" where λ = 0.9 was drawn to t ≤ 400 with
 * τ = 380 (the grid's end); the warm-up from the fixed point, 379.7 = 1τ, was printed with no word that it is the warm-up
 * rule's floor (V = 0 at d = 1). simulate and table print the same warm-up: they say it too.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedPointFloorAtD1 } from '../../src/report/index.ts';
import { runCli } from '../cli/runCli.ts';

const compare = async (d: string) => {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-d1t-')), 'r');
  const r = await runCli(
    `compare --d ${d} --lambda 0.9 --n 10 --jobs 1000 --replications 3 --exact-n none --threads 1 --no-progress --out ${out}`,
  );
  expect(r.status, r.stderr).toBe(0);
  return { stdout: r.stdout, md: readFileSync(path.join(out, 'report.md'), 'utf8') };
};

describe('honest words on the transient and the warm-up at d = 1', () => {
  it('fixedPointFloorAtD1 speaks only of a d = 1 warm-up that is the floor', () => {
    expect(fixedPointFloorAtD1(1, 379.7, 379.7)).toMatch(/^At d = 1 V\(t\) = V = 0 .* its floor, 1τ = 379\.7 \(FIXED_POINT_FLOOR_TAUS/);
    expect(fixedPointFloorAtD1(2, 30, 30)).toBeUndefined();
    expect(fixedPointFloorAtD1(1, 5000, 159_000)).toBeUndefined(); // capped: not the floor
  });

  it('compare --d 1: caption says V = 0, the drawn range the grid end short of 3τ; the warm-up is the 1τ floor', async () => {
    const { stdout, md } = await compare('1');
    expect(stdout).toContain("fixed point in 1 of 1 cells (warm-up 379.7; d = 1: the warm-up rule's 1τ floor, V(t) being 0 at d = 1)");
    expect(md).toContain("At d = 1 V(t) = V = 0 (random routing: independent M/M/1 servers), so the rule's first term is 0");
    const caption = md.split('\n').find((l) => l.startsWith('Fraction of servers with at least i jobs over time'))!;
    expect(caption).not.toContain('linearised V, W');
    expect(caption).toContain(
      'at d = 1 V(t) = 0 exactly (random routing: independent M/M/1 servers, a linear drift), so nothing is integrated',
    );
    expect(caption).toContain("(d = 1, λ = 0.9: t ≤ 400, the grid's end, short of 3τ = 1139 (τ = 380))");
    expect(caption).toContain(
      "no further than the trajectory grid's end (automatic: min(400, max(10, 1.2 × the warm-up from empty)) time units)",
    );
  }, 600_000);

  it('compare --d 1,2: the d ≥ 2 words stay, the d = 1 words beside them', async () => {
    const { md } = await compare('1,2');
    const caption = md.split('\n').find((l) => l.startsWith('Fraction of servers with at least i jobs over time'))!;
    expect(caption).toContain('the linearised V, W system integrated beside the ODE; at d = 1 V(t) = 0 exactly');
  }, 600_000);

  it('simulate and table say the d = 1 warm-up from the fixed point is the floor', async () => {
    const sim = await runCli('simulate --lambda 0.9 --d 1 --n 10 --jobs 1000 --replications 2 --threads 1 --no-progress');
    expect(sim.status, sim.stderr).toBe(0);
    expect(sim.stdout).toContain(
      "after a warm-up of 379.7 time units from the fixed point (the warm-up rule's 1τ floor, V(t) being 0 at d = 1)",
    );
    const two = await runCli('simulate --lambda 0.9 --d 2 --n 10 --jobs 1000 --replications 2 --threads 1 --no-progress');
    expect(two.stdout).not.toContain('floor');
    const table = await runCli('table --d 1 --lambda 0.7 --n 10 --runs 2 --events-per-run 2000 --threads 1 --no-progress');
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toContain(
      "Warm-up: at d = 1 V(t) = V = 0 (random routing: independent M/M/1 servers), so the rule's first term is 0 and the warm-up is its floor, 1τ = 37.5",
    );
  }, 600_000);
});
