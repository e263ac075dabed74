/**
 * A fraction whose event no unit observed (a tail level no replication reached, a workload no batch exceeded) had the
 * t interval of equal values, one point: `supermarket simulate --lambda 0.3 --d 2 --n 10 --max-level 9` printed
 * "s_7 0.0000 [0.0000, 0.0000]" and `"ci95": [0, 0]`, an interval that cannot hold the positive true s_7. Such an
 * entry of a non-increasing sequence now gets [0, upper end of the entry before] (stats `monotoneFractions`), a lone
 * fraction the whole [0, 1] (`unresolvedFraction`), flagged `unobserved`; the text says "not reached".
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/model.ts';
import { simulate, simulateReplay, simulateTrajectory } from '../../src/sim/index.ts';
import { solveExact } from '../../src/meanfield/exact/solveExact.ts';
import { feasible, monotoneFractions, tiedFraction, tInterval, unresolvedFraction, type Estimate } from '../../src/stats/tInterval.ts';
import { Rng } from '../../src/stats/rng.ts';
import { runCli } from '../cli/runCli.ts';
import { estimateText } from '../../src/report/page.ts';

const fraction = (values: number[]) => feasible(tInterval(values), 0, 1);
const covers = (e: Estimate, truth: number) => e.ci95[0] <= truth && truth <= e.ci95[1];

describe('monotoneFractions, unresolvedFraction (stats)', () => {
  it('an all-0 entry gets [0, upper end of the entry before], through a run of them; observed entries are unchanged', () => {
    const given = [fraction([1, 1, 1]), fraction([0.3, 0.32, 0.31]), fraction([0, 0.001, 0]), fraction([0, 0, 0]), fraction([0, 0, 0])];
    const out = monotoneFractions(given, 1, 1);
    expect(out.slice(0, 3)).toEqual(given.slice(0, 3)); // s_0 exact, observed levels as they were
    for (const e of out.slice(3)) {
      expect(e.ci95).toEqual([0, given[2].ci95[1]]);
      expect(e.ci95[1]).toBeGreaterThan(0);
      expect(e.unobserved).toBe(true);
      expect(e.mean).toBe(0);
      expect(e.halfWidth).toBe(given[2].ci95[1]); // mean ± h contains the interval
    }
    expect(given[3].ci95).toEqual([0, 0]); // the point it replaces
    // nothing before the first entry but `before`
    expect(monotoneFractions([fraction([0, 0])], 0.2)[0].ci95).toEqual([0, 0.2]);
  });

  it('an all-1 entry (always observed) gets [lower end of the next entry that is not, 1]; exact leading entries stay', () => {
    const next = fraction([0.9, 0.95, 0.92]);
    const out = monotoneFractions([fraction([1, 1, 1]), fraction([1, 1, 1]), next], 1, 1);
    expect(out[0].unobserved).toBeUndefined();
    expect(out[0].ci95).toEqual([1, 1]);
    expect(out[1].ci95).toEqual([next.ci95[0], 1]);
    expect(out[1].unobserved).toBe(true);
  });

  it('a lone fraction all at a bound is not resolved: [0, 1]; any other is unchanged', () => {
    expect(unresolvedFraction(fraction([0, 0, 0]))).toMatchObject({ ci95: [0, 1], unobserved: true, halfWidth: 1 });
    expect(unresolvedFraction(fraction([1, 1]))).toMatchObject({ ci95: [0, 1], unobserved: true });
    const seen = fraction([0.1, 0.2]);
    expect(unresolvedFraction(seen)).toBe(seen);
  });
});

describe('simulate: a level no replication reached', () => {
  it('JSQ(2), λ = 0.3, n = 10: every level’s interval holds the exact chain’s s_i, the unreached ones too (they were [0, 0])', () => {
    const model = parseModel({ lambda: 0.3, d: 2 });
    const exact = solveExact(model, { n: 10, truncationBound: 1e-7 }).tail;
    const r = simulate(model, { n: 10, jobs: 20_000, replications: 5, seed: 1, maxLevel: 9, warmupTime: 10 });
    const levels = r.tail.slice(0, exact.length); // the chain's levels up to its truncation
    expect(levels.filter((e) => e.unobserved).length).toBeGreaterThan(0);
    levels.forEach((e, i) => {
      expect(exact[i], `s_${i}`).toBeGreaterThan(0);
      expect(covers(e, exact[i]), `s_${i} = ${exact[i]} in [${e.ci95}]`).toBe(true);
    });
  });

  it('the case found: text "0 (not reached) [0, u]" with u > 0, JSON a finite positive upper end and the flag', async () => {
    const args = 'simulate --lambda 0.3 --d 2 --n 10 --max-level 9 --threads 1 --no-progress';
    const text = await runCli(args);
    expect(text.status, text.stderr).toBe(0);
    const row = text.stdout.split('\n').find((l) => /^ {2}s_7 /.test(l))!;
    expect(row).toMatch(/^ {2}s_7 +0 \(not reached\) \[0, \d\.\d\de-\d+\]$/);
    const j = JSON.parse((await runCli(`${args} --json`)).stdout);
    for (const i of [7, 8, 9]) {
      expect(j.tail[i].unobserved, `s_${i}`).toBe(true);
      expect(j.tail[i].ci95[0]).toBe(0);
      expect(Number.isFinite(j.tail[i].ci95[1]) && j.tail[i].ci95[1] > 0, `s_${i} ${j.tail[i].ci95}`).toBe(true);
    }
    expect(j.tail[6].unobserved).toBeUndefined(); // reached in one replication: its own t interval
  });

  it('LWL(2): the workload ccdf at a point no replication exceeded: [0, upper end of the point before], flagged', () => {
    const model = parseModel({ lambda: 0.3, d: 2, selection: 'lwl' });
    const r = simulate(model, { n: 10, jobs: 5_000, replications: 3, seed: 1, warmupTime: 10, workloadGrid: [0, 1, 2, 40, 60] });
    const ccdf = r.workloadCcdf!.ccdf;
    expect(ccdf[3].unobserved).toBe(true);
    expect(ccdf[3].ci95[0]).toBe(0);
    expect(ccdf[3].ci95[1]).toBeGreaterThan(0);
    expect(ccdf[4].ci95).toEqual(ccdf[3].ci95);
    expect(ccdf[0].unobserved).toBeUndefined();
  });
});

describe('replay and trajectory: the same rule', () => {
  it('simulateReplay: a level no batch reached is [0, upper end of the level below], flagged', () => {
    const rng = new Rng(7n);
    const jobs = 4000;
    const n = 10;
    const arrivals = new Float64Array(jobs);
    const sizes = new Float64Array(jobs);
    let t = 0;
    for (let k = 0; k < jobs; k++) {
      t += -Math.log(1 - rng.nextDouble()) / (0.3 * n);
      arrivals[k] = t;
      sizes[k] = -Math.log(1 - rng.nextDouble());
    }
    const r = simulateReplay(parseModel({ lambda: 0.3, d: 2 }), { arrivals, sizes }, { n, seed: 1, maxLevel: 9 });
    const first = r.tail.findIndex((e) => e.unobserved);
    expect(first).toBeGreaterThan(1);
    expect(r.tail[first].ci95).toEqual([0, r.tail[first - 1].ci95[1]]);
    expect(r.tail[first].ci95[1]).toBeGreaterThan(0);
  });

  it('simulateTrajectory: after t = 0 an unheld level is [0, upper end of the level below]; at t = 0 the given state stays exact', () => {
    const r = simulateTrajectory(parseModel({ lambda: 0.3, d: 2 }), { n: 20, times: [0, 5], replications: 3, seed: 2, maxLevel: 8 });
    expect(r.tail[0].slice(1).every((e) => e.ci95[0] === 0 && e.ci95[1] === 0 && !e.unobserved)).toBe(true);
    const later = r.tail[1];
    const first = later.findIndex((e) => e.unobserved);
    expect(first).toBeGreaterThan(1);
    expect(later[first].ci95).toEqual([0, later[first - 1].ci95[1]]);
    expect(later[8].ci95[1]).toBeGreaterThan(0);
  });
});

describe('tiedFraction: snapshot units tied inside (0, 1)', () => {
  it('five replications all at 0.5 (or 1/3, with rounding) give [q·v, q·v + 1 − q], q = 0.05^(1/5); untied ones unchanged', () => {
    const q = 0.05 ** (1 / 5);
    for (const v of [0.5, 1 / 3]) {
      const e = tiedFraction(fraction([v, v, v, v, v]));
      expect(e.unobserved).toBe(true);
      expect(e.ci95[0]).toBeCloseTo(q * v, 12);
      expect(e.ci95[1]).toBeCloseTo(q * v + 1 - q, 12);
    }
    const seen = fraction([0.5, 0.55]);
    expect(tiedFraction(seen)).toBe(seen);
  });

  it('simulateTrajectory at n = 2: a level tied across replications after t = 0 is not a point', () => {
    const r = simulateTrajectory(parseModel({ lambda: 0.9, d: 2 }), {
      n: 2,
      times: [0, 1, 2, 3, 4, 5, 6, 8, 10],
      replications: 3,
      seed: 4,
      maxLevel: 3,
    });
    const later = r.tail.slice(1).flatMap((row) => row.slice(1));
    expect(later.some((e) => e.unobserved && e.mean > 0)).toBe(true); // a tie inside (0, 1) happened
    for (const e of later) expect(e.ci95[1] - e.ci95[0], `${e.mean} [${e.ci95}]`).toBeGreaterThan(0);
  });
});

describe('a lone fraction not resolved, in simulate and the reports', () => {
  it('π₀ memory empty at λ = 0.99 (every arrival of every replication found the memory empty): [0, 1], "not resolved"', async () => {
    const args = 'simulate --lambda 0.99 --d 2 --n 50 --memory ip --jobs 3000 --replications 3 --threads 1 --no-progress';
    const text = await runCli(args);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/\n {2}π₀ memory empty +1\.0 \(not resolved\) \[0\.0, 1\.0\]/);
    const j = JSON.parse((await runCli(`${args} --json`)).stdout);
    expect(j.memory.emptyFraction).toMatchObject({ mean: 1, ci95: [0, 1], unobserved: true });
  });

  it('the reports print such a fraction with its interval and the words, not "1.0000 ± 1.0000"', () => {
    const e = unresolvedFraction(fraction([1, 1, 1]));
    expect(estimateText(e)).toBe('1.0 (not resolved) [0.0, 1.0]');
  });
});
