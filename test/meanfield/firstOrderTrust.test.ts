/**
 * The order-1 trusted range of the refined mean field (theory.md §6): the 1/n term at most 5 % of the limit
 * (`firstOrderTrust`), one rule for fixed-point, ode, model and the explorer. `ode --refined`, `model --n` and the
 * explorer printed a refined value at any n without a word (λ = 0.99, d = 2, n = 10: the 1/n term 90 % of the limit).
 */
import { describe, expect, it } from 'vitest';
import { FIRST_ORDER_RANGE, firstOrderTrust, refine } from '../../src/meanfield/refined.ts';
import { MAX_RELATIVE_CORRECTION } from '../../src/compare/verdict.ts';
import { parseModel } from '../../src/model/index.ts';
import { exploreView } from '../../src/explorer/view.ts';
import { runCli } from '../cli/runCli.ts';

describe('firstOrderTrust', () => {
  it('is the range compare judges by: the 1/n term at most 5 % of the limit, with the least n that is inside', () => {
    expect(FIRST_ORDER_RANGE).toBe(MAX_RELATIVE_CORRECTION);
    const r = refine(parseModel({ lambda: 0.99, d: 2 }));
    const limit = r.fixedPoint.meanQueueLength;
    const out = firstOrderTrust(r.sumV, limit, 10);
    expect(out.trusted).toBe(false);
    expect(out.ratio).toBeCloseTo(r.sumV / (10 * limit), 12);
    expect(out.fromN).toBe(181); // ΣV = 48.65, Σπ = 5.378: ΣV/(0.05 Σπ) = 180.9
    expect(firstOrderTrust(r.sumV, limit, out.fromN - 1).trusted).toBe(false);
    expect(firstOrderTrust(r.sumV, limit, out.fromN)).toMatchObject({ trusted: true, caveat: null });
    // the wording is about the expansion about the limit, with the range and the n from which it holds
    expect(out.caveat).toMatch(
      /^order 1 is outside its trusted range at n = 10: the 1\/n term is 90\.5 % of the limit; the expansion about the mean-field limit is trusted while it is ≤ 5 % \(here from n = 181; theory\.md §6\)$/,
    );
    expect(out.caveat).not.toMatch(/simulat/);
  });

  it('a zero term is trusted at every n; a term over a zero limit at none', () => {
    expect(firstOrderTrust(0, 0, 1)).toMatchObject({ trusted: true, ratio: 0, fromN: 1 });
    const z = firstOrderTrust(0.3, 0, 1000);
    expect(z).toMatchObject({ trusted: false, ratio: Infinity, fromN: Infinity });
    expect(z.caveat).toMatch(/the limit is 0, so the 1\/n term is not small against it at any n/);
  });
});

describe('every refined value outside the range says so', () => {
  it('ode --refined: a caveat under the table naming the worst instant; JSON refined.trusted, caveat; none at large n', async () => {
    const args = 'ode --lambda 0.99 --d 2 --t-end 200 --dt 100 --refined';
    const r = await runCli(`${args} --n 10`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /\ncaveat: order 1 is outside its trusted range at n = 10 \(the worst instant: t = 200\): the 1\/n term is 43\.2 % of the limit/,
    );
    const j = JSON.parse((await runCli(`${args} --n 10 --json`)).stdout);
    expect(j.refined).toMatchObject({ trusted: false, caveat: expect.stringMatching(/order 1 is outside its trusted range/) });
    const csv = await runCli(`${args} --n 10 --csv`);
    expect(csv.stdout).not.toMatch(/caveat/); // the rows stay data
    expect(csv.stderr).toMatch(/^caveat: order 1 is outside/);
    const ok = await runCli(`${args} --n 1000 --json`);
    expect(JSON.parse(ok.stdout).refined).toMatchObject({ trusted: true, caveat: null });
    expect((await runCli(`${args} --n 1000`)).stdout).not.toMatch(/caveat/);
  });

  it('model --n: per observable and n; a conserved observable (its c at round-off) has none', async () => {
    const r = await runCli('model models/jsq-d.json --set lambda=0.95 --refined --n 10,1000');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /caveat: meanQueueLength: order 1 is outside its trusted range at n = 10: the 1\/n term is 27\.6 % of the limit/,
    );
    expect(r.stdout).toMatch(/caveat: meanResponseTime: order 1 is outside its trusted range at n = 10/);
    expect(r.stdout).not.toMatch(/caveat: idleFraction/);
    expect(r.stdout).not.toMatch(/at n = 1000/);
    const j = JSON.parse((await runCli('model models/jsq-d.json --set lambda=0.95 --refined --n 10,1000 --json')).stdout);
    expect(j.refined.caveats).toHaveLength(2);
  });

  it('the explorer view: caveats beside the refined values, none inside the range', () => {
    const out = exploreView({ lambda: 0.99, d: 2 }, 10);
    expect(out.refined!.caveats[0]).toMatch(/^order 1 is outside its trusted range at n = 10: the 1\/n term is 90\.5 % of the limit/);
    expect(exploreView({ lambda: 0.9, d: 2 }, 1000).refined!.caveats).toEqual([]);
  });
});
