/**
 * compare over a grid where one model's mean-field limit is proven finite but no solver computes it (JSQ(d) FIFO with
 * E[S²] = ∞ and pareto α ≥ d/(d − 1): Bramson, Lu & Prabhakar 2013, theory.md §8; the capability query refuses the
 * cavity): the model gets its own status 'not-computed' ("finite, not computed", with the reason) in its cells, limit
 * check, counts, tables and results.json, as a limit not settled gets 'not-settled'; its cells are simulated and shown,
 * judged against nothing. Before, the whole grid stopped with "no mean-field reference for JSQ(3) FIFO … E[T]∞ is
 * finite …", and with replacement the note said the finite limit was one "fixed-point gives", which it refuses.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison, type ComparisonConfig } from '../../src/compare/index.ts';
import { cellVerdict, judgeFamily, limitCheck, NOT_COMPUTED } from '../../src/compare/verdict.ts';
import { meanFieldLimit } from '../../src/model/moments.ts';
import { parseModel } from '../../src/model/index.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { disagreementLine, statusText } from '../../src/report/index.ts';
import { comparisonLatexTables } from '../../src/report/latex.ts';
import { tInterval } from '../../src/stats/index.ts';
import { runCli } from '../cli/runCli.ts';

const config = (over: Partial<ComparisonConfig>): ComparisonConfig => ({
  lambdas: [0.5],
  ds: [3],
  ns: [10, 20],
  sampling: 'without-replacement',
  model: { selection: 'jsq', discipline: 'fifo', service: 'pareto:1.9' },
  jobs: 1000,
  replications: 2,
  seed: 7,
  warmupTolerance: 1e-3,
  warmupSafetyFactor: 2,
  maxLevel: 10,
  trajectory: null,
  ...over,
});

describe('compare: a limit proven finite with no solver is "finite, not computed", the grid runs on', () => {
  it('the model of the case: limit finite, no fixed-point solver', () => {
    const m = parseModel({ lambda: 0.5, d: 3, service: 'pareto:1.9', sampling: 'without-replacement' });
    expect(meanFieldLimit(m)).toBe('finite');
    expect(meanFieldCapabilities(m).fixedPoint.available).toBe(false);
  });

  it('cellVerdict and limitCheck against a reference not computed: status not-computed, no test, left out of the family', () => {
    const finite = tInterval([2.0, 2.2, 2.1, 2.3]);
    const reference = { value: 2, halfWidth: 0, numericalError: 0 };
    const v = cellVerdict(finite, { ...reference, value: Number.NaN, notComputed: 'why' }, { kind: 'exact' }, 10);
    expect(v.status).toBe('not-computed');
    expect(Number.isNaN(v.pValue) && Number.isNaN(v.tStatistic) && Number.isNaN(v.difference)).toBe(true);
    expect(v.rule).toMatch(/^finite, not computed: why/);
    const fam = judgeFamily([v, cellVerdict(finite, reference, { kind: 'exact' }, 10)], () => {
      throw new Error('no rerun expected');
    });
    expect(fam[0].verdict.status).toBe('not-computed');
    expect(fam[0].verdict.adjustedPValue).toBeNull();
    expect(fam[1].verdict.status).toBe('agrees');
    const l = limitCheck(null, { ...reference, value: Number.NaN, notComputed: 'why' });
    expect(l.status).toBe('not-computed');
    expect(l.rule).toMatch(/no limit check; finite, not computed: why/);
    expect(statusText('not-computed')).toBe(NOT_COMPUTED);
  });

  it('runComparison JSQ FIFO pareto:1.9 without replacement, d = 2, 3: d = 2 not settled, d = 3 finite, not computed, no throw', () => {
    const r = runComparison(config({ ds: [2, 3] }));
    const [m2, m3] = r.models;
    expect(m2.limit.status).toBe('not-settled');
    expect(m3.limit.status).toBe('not-computed');
    expect(m3.reference.notComputed).toMatch(/^E\[T\]∞ is finite \(Bramson, Lu & Prabhakar 2013/);
    expect(m3.reference.unsettled).toBeUndefined();
    expect(Number.isNaN(m3.reference.meanResponseTime)).toBe(true);
    const cells3 = r.cells.filter((c) => c.d === 3);
    expect(cells3.map((c) => c.verdict.status)).toEqual(['not-computed', 'not-computed']);
    // the limit is finite, but E[T]_n at finite n without replacement is not settled: no estimate, the average apart
    expect(
      cells3.every((c) => c.simulation.meanResponseTime.unsettled === true && Number.isFinite(c.simulation.meanResponseTime.sampleMean)),
    ).toBe(true);
    expect(cells3.every((c) => Number.isNaN(c.errors.meanResponseTime))).toBe(true);
    expect(r.family.judged).toBe(0);
    expect(r.notes.some((n) => /JSQ\(3\).*E\[T\]∞ is finite.*"finite, not computed": no limit value/.test(n))).toBe(true);
    // counted by name, each status apart
    expect(disagreementLine(r)).toMatch(
      /; not settled, E\[T\]∞ neither proven finite nor ∞ \(shown, not judged\): 2 cells, 1 limit \(no check\); finite, not computed, E\[T\]∞ proven finite, no solver here computes it \(shown, not judged\): 2 cells, 1 limit \(no check\)\.$/,
    );
    const tex = comparisonLatexTables(r);
    expect(tex).not.toMatch(/NaN/);
  });

  it('with replacement (E[T]_n = ∞ at every n): the note does not say fixed-point gives the finite limit', () => {
    const r = runComparison(config({ sampling: 'with-replacement' }));
    expect(r.models[0].limit.status).toBe('undefined');
    const note = r.notes.find((n) => /E\[T\] is infinite in theory/.test(n)) ?? '';
    expect(note).toMatch(
      /the limit E\[T\]∞ is not ∞ but "finite, not computed" \(E\[T\]∞ is finite, not computed here: .*no solver here gives it either\)/,
    );
    expect(note).not.toMatch(/fixed-point gives it/);
    // the prepared reference carries the limit's status from the start: never ∞, never a solver's kind or convergence
    const ref = r.models[0].reference;
    expect(ref.infinite).toBeUndefined();
    expect(ref.notComputed).toMatch(/^E\[T\]∞ is finite, not computed here/);
    expect(ref.infiniteAtEveryN).toMatch(/all 3 draws hit one server/);
    expect([ref.meanResponseTime, ref.kind, ref.convergence]).toEqual([Number.NaN, 'none', null]);
    expect(ref.solver).toMatch(/^no reference: /);
  });

  it('supermarket compare JSQ(3) FIFO pareto:1.9 without replacement: exit 0, "finite, not computed" in text, report and JSON', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-cmp-notcomputed-')), 'r');
    const r = await runCli(
      `compare --service pareto:1.9 --sampling without-replacement --d 3 --lambda 0.5 --n 10,20 --jobs 1000 --replications 2 --no-trajectory --out ${out}`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/2 finite, not computed \(E\[T\]∞ proven finite, no solver here computes it: shown, not judged\)/);
    expect(r.stdout).toMatch(/d = 3, λ = 0\.5: E\[T\]∞ is finite .*; cells shown, no limit check → finite, not computed/);
    expect(r.stdout).not.toMatch(/not-computed|Infinity|NaN/);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).not.toMatch(/not-computed|NaN/);
    const rows = md.split('\n').filter((l) => /^\| 3 \| 0\.5 \| [12]0 \|/.test(l));
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row).toMatch(/\| not settled \(run's average \d+\.\d+\) \| finite, not computed \(.*\*\*finite, not computed\*\*/);
    const raw = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    const why = raw.models[0].reference.notComputed;
    expect(why).toMatch(/^E\[T\]∞ is finite/);
    expect(raw.models[0].reference.meanResponseTime).toEqual({ mean: null, notComputed: true, reason: why });
    expect(raw.models[0].reference.meanQueueLength).toEqual({ mean: null, notComputed: true, reason: why });
    expect(raw.models[0].limit.status).toBe('not-computed');
  }, 600_000);

  it('compare JSQ(3) FIFO pareto:1.9 with replacement: E[T]_n = ∞, the finite limit "not computed" in results.json and --json alike', async () => {
    // a fresh-user trial: results.json read { mean: null, infinite: true } for this limit while report.md said finite,
    // and `--json` printed it as a bare null beside infinite: "<reason>"
    const m = parseModel({ lambda: 0.7, d: 3, service: 'pareto:1.9' });
    expect(meanFieldLimit(m)).toBe('finite');
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-cmp-notcomputed-wr-')), 'r');
    const r = await runCli(
      `compare --service pareto:1.9 --d 3 --lambda 0.7 --n 10,20 --jobs 1000 --replications 2 --no-trajectory --json --out ${out}`,
    );
    expect(r.status, r.stderr).toBe(0);
    const raw = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    const ref = raw.models[0].reference;
    expect(ref.infiniteAtEveryN).toMatch(/all 3 draws hit one server/); // E[T]_n = ∞ at finite n stays said
    expect(ref.infinite).toBeUndefined(); // … but not as the limit's ∞ (compare/plan.ts sets the limit's status)
    // the placeholder row: no solver, no kind, no convergence (it said solver "none", kind "exact", converged "yes")
    expect([ref.solver, ref.kind, ref.convergence]).toEqual([expect.stringMatching(/^no reference: /), 'none', null]);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).not.toMatch(/none needed \(closed form\)|\| exact \||\| yes \|/);
    expect(md).toMatch(
      /\*\*no reference: .*\*\* \(no reference value: E\[T\]∞ finite, not computed\).*Error bar: none: there is no reference value/,
    );
    const limit = { mean: null, notComputed: true, reason: expect.stringMatching(/^E\[T\]∞ is finite, not computed here: /) };
    expect(ref.meanResponseTime).toEqual(limit);
    expect(ref.meanQueueLength).toEqual(limit);
    expect(raw.cells[0].simulation.meanResponseTime).toMatchObject({ mean: null, infinite: true }); // the cells' E[T]_n
    // --json on stdout: the same form as results.json, not a bare null
    const printed = JSON.parse(r.stdout);
    expect(printed.models[0].reference.meanResponseTime).toEqual(ref.meanResponseTime);
    expect(printed.models[0].reference.meanQueueLength).toEqual(ref.meanQueueLength);
  }, 600_000);
});
