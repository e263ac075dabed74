import { describe, expect, it } from 'vitest';
import { coverageBand } from '../../src/stats/binomial.ts';
import { quantiles } from '../../src/stats/quantile.ts';
import { Rng } from '../../src/stats/rng.ts';
import { jsonText, parseJsonText } from '../../src/io/json.ts';
import { cdfSectioningInterval, feasible, openEndNote, openEndNotes, openEndWhy, sectioningInterval } from '../../src/stats/tInterval.ts';

describe('cdfSectioningInterval', () => {
  it('inverts the sections’ cdf interval through the pooled quantile function', () => {
    // fractions 0.45, 0.55 → p ± t_{0.975,4}·s/√R inside (0, 1): both ends read through Q̂(q) = 4q
    const e = cdfSectioningInterval([0.45, 0.55, 0.5, 0.5, 0.5], 1000, 2, 0.5, (ps) => ps.map((q) => 4 * q));
    const h = (2.7764451051977987 * Math.sqrt(0.005 / 4)) / Math.sqrt(5);
    expect(e.ci95[0]).toBeCloseTo(4 * (0.5 - h), 12);
    expect(e.ci95[1]).toBeCloseTo(4 * (0.5 + h), 12);
    expect(e.mean).toBe(2);
    expect(e.replications).toBe(5);
  });

  it('a cdf interval reaching level 1 (0) leaves the upper (lower) end at the support’s bound, not Q̂(1) = the sample maximum', () => {
    // fractions 0.4, 0.6 → p ± t_{0.975,1}·0.1414/√2 = 0.5 ± 1.2706 covers [0, 1]: the sample bounds nothing
    const quantileAt = (ps: readonly number[]) => ps.map((q) => 4 * q); // Q̂(0) = 0, Q̂(1) = 4: the old ends
    const open = cdfSectioningInterval([0.4, 0.6], 1000, 2, 0.5, quantileAt);
    expect(open.ci95).toEqual([-Infinity, Infinity]);
    expect(open.halfWidth).toBe(Infinity);
    // response times: support [0, ∞), the lower end the bound 0 (callers: feasible(…, 0))
    expect(cdfSectioningInterval([0.4, 0.6], 1000, 2, 0.5, quantileAt, 0.95, [0, Infinity]).ci95).toEqual([0, Infinity]);
    expect(feasible(open, 0).ci95).toEqual([0, Infinity]);
    // p99 of sections 0.98, 1: p + h ≥ 1 only above
    const p99 = cdfSectioningInterval([0.985, 0.995, 0.99], 1000, 9, 0.99, (ps) => ps.map((q) => 10 * q));
    expect(p99.ci95[0]).toBeGreaterThan(9 - 1);
    expect(p99.ci95[1]).toBe(Infinity);
  });

  it('tied sections get the binomial floor, not an interval of width 0', () => {
    // 2 batches of 80 jobs, 79 of each ≤ the pooled p99: s_F = 0, so the t interval over the fractions has h = 0;
    // the floor is t_{0.975,1}·√(p(1 − p)/(R·m)) = 12.706·√(0.0099/160) ≈ 0.0999
    const quantileAt = (ps: readonly number[]) => ps.map((q) => 10 * q);
    const tied = cdfSectioningInterval([79 / 80, 79 / 80], 80, 9.9, 0.99, quantileAt);
    expect(tied.ci95[0]).toBeCloseTo(10 * (0.99 - 12.706204736174694 * Math.sqrt(0.0099 / 160)), 10);
    expect(tied.ci95[1]).toBe(Infinity);
    // at the median of 2 × 40 jobs the floor reaches both ends: the sample bounds nothing
    expect(cdfSectioningInterval([0.5, 0.5], [40, 40], 2, 0.5, quantileAt).ci95).toEqual([-Infinity, Infinity]);
    // unequal sections: σ_F² = p(1 − p)·(1/R)Σ 1/m_i; 5 tied sections of 10⁴ and 10⁶ jobs
    const m = [1e4, 1e4, 1e4, 1e6, 1e6];
    const h = (2.7764451051977987 * Math.sqrt(0.25 * (3 / 1e4 + 2 / 1e6))) / 5;
    const unequal = cdfSectioningInterval([0.5, 0.5, 0.5, 0.5, 0.5], m, 5, 0.5, quantileAt);
    expect(unequal.ci95[0]).toBeCloseTo(10 * (0.5 - h), 10);
    expect(unequal.ci95[1]).toBeCloseTo(10 * (0.5 + h), 10);
    // spread sections keep their own t half-width when it is the larger
    const wide = cdfSectioningInterval([0.45, 0.55, 0.5, 0.5, 0.5], 1e4, 5, 0.5, quantileAt);
    expect(wide.ci95[1]).toBeCloseTo(10 * (0.5 + (2.7764451051977987 * Math.sqrt(0.005 / 4)) / Math.sqrt(5)), 10);
  });

  it('refuses sections without jobs or a size list of the wrong length', () => {
    const quantileAt = (ps: readonly number[]) => ps.map((q) => 10 * q);
    expect(() => cdfSectioningInterval([0.5, 0.5], 0, 5, 0.5, quantileAt)).toThrow(/needs ≥ 1/);
    expect(() => cdfSectioningInterval([0.5, 0.5], [10], 5, 0.5, quantileAt)).toThrow(/2 fractions but 1 section sizes/);
  });

  it('an open interval survives the JSON encoding (null end, ci95Infinite) and reads back as ∞', () => {
    const e = { mean: 5, ci95: [0, Infinity] as [number, number], halfWidth: Infinity, replications: 2 };
    const text = jsonText({ p99: e });
    expect(JSON.parse(text)).toEqual({ p99: { mean: 5, ci95: [0, null], halfWidth: null, replications: 2, ci95Infinite: true } });
    expect(parseJsonText(text)).toEqual({ p99: e });
    expect(parseJsonText(jsonText({ p99: e }, 2))).toEqual({ p99: e });
    expect(jsonText({ a: [1, null] })).toBe('{"a":[1,null]}'); // plain nulls stay as they are
  });

  it('covers the M/M/1 p99 of clustered sections where the sections’ own quantiles undercover', () => {
    // FIFO M/M/1 λ = 0.9 by Lindley's recursion from the stationary law, T ~ Exp(0.1): p99 = ln(100)/0.1.
    // R = 5 sections of 5000 jobs, 200 fixed seeds: the t interval over the sections' p95s covered 87 % (below the
    // Wilson 99 % band around 0.95), the cdf inversion 94 % (scripts/percentile-ci-coverage.ts for simulate itself).
    const [lambda, R, m, p, trials] = [0.9, 5, 10_000, 0.99, 200];
    const truth = Math.log(100) / (1 - lambda);
    const rng = new Rng(7n);
    const exp = (rate: number) => -Math.log(rng.nextOpen()) / rate;
    let old = 0;
    let now = 0;
    for (let k = 0; k < trials; k++) {
      const sections: Float64Array[] = [];
      for (let r = 0; r < R; r++) {
        let w = rng.nextDouble() < lambda ? exp(1 - lambda) : 0;
        const xs = new Float64Array(m);
        for (let j = 0; j < m; j++) {
          const s = exp(1);
          xs[j] = w + s;
          w = Math.max(w + s - exp(lambda), 0);
        }
        sections.push(xs);
      }
      const all = new Float64Array(R * m);
      sections.forEach((xs, i) => all.set(xs, i * m));
      const [centre] = quantiles(all, all.length, [p]);
      const before = sectioningInterval(
        sections.map((xs) => quantiles(xs, m, [p])[0]),
        centre,
      );
      const fractions = sections.map((xs) => xs.reduce((n, x) => n + (x <= centre ? 1 : 0), 0) / m);
      const after = cdfSectioningInterval(fractions, m, centre, p, (ps) => quantiles(all, all.length, ps));
      if (before.ci95[0] <= truth && truth <= before.ci95[1]) old++;
      if (after.ci95[0] <= truth && truth <= after.ci95[1]) now++;
    }
    const [low, high] = coverageBand(0.95, trials, 0.99);
    expect(old / trials).toBeLessThan(low);
    expect(now / trials).toBeGreaterThanOrEqual(low);
    expect(now / trials).toBeLessThanOrEqual(high);
  });
});

describe('openEndNote: why a percentile interval is open at an end', () => {
  it('the reported run (simulate λ = 0.9, d = 2, n = 1000, 2 × 20 000 jobs): p95 open from its fractions, p99 closed from its own', () => {
    // the fractions ≤ the pooled p95 differ by 0.0099: h_F = 12.706 · 0.0099/2 = 0.063, p + h_F = 1.013 ≥ 1
    const note = openEndNote('p95', [0.94505, 0.95495], 20_000, 0.95);
    expect(note).toMatch(/^percentile intervals: p95 has no upper end \(∞\).*p \+ h_F = 1\.013 ≥ 1/);
    // those ≤ the pooled p99 differ by 0.0014: h_F = 0.0089, p + h_F = 0.9989 < 1, a finite interval by the same rule
    expect(openEndNote('p99', [0.9893, 0.9907], 20_000, 0.99)).toBeNull();
  });

  it('openEndNotes: two open percentiles give two lines of numbers and the shared explanation once (each repeated it)', () => {
    const notes = openEndNotes([
      { name: 'p95', fractions: [0.94505, 0.95495], jobs: 20_000, p: 0.95 },
      { name: 'p99', fractions: [0.985, 0.995], jobs: 20_000, p: 0.99 },
      { name: 'p50', fractions: [0.5, 0.5001], jobs: 20_000, p: 0.5 },
    ]);
    expect(notes).toHaveLength(3);
    expect(notes[0]).toMatch(/^percentile intervals: p95 has no upper end .*\(why: percentile intervals open at an end\)$/);
    expect(notes[1]).toMatch(/^percentile intervals: p99 has no upper end /);
    expect(notes[2]).toBe(openEndWhy(2));
    expect(notes[2]).toMatch(/^percentile intervals open at an end: .*t_\{0\.975,1\} = 12\.7.*finite by chance/);
    for (const line of notes.slice(0, 2)) expect(line).not.toMatch(/finite by chance|t_\{/);
    expect(openEndNotes([{ name: 'p99', fractions: [0.9893, 0.9907], jobs: 20_000, p: 0.99 }])).toEqual([]);
  });

  it('gives a note exactly where cdfSectioningInterval leaves an end open (random fractions, R = 2 … 5)', () => {
    const rng = new Rng(7n);
    let open = 0;
    for (let k = 0; k < 2000; k++) {
      const R = 2 + (k % 4);
      const p = [0.5, 0.95, 0.99][k % 3];
      const fractions = Array.from({ length: R }, () => Math.min(1, Math.max(0, p + (rng.nextDouble() - 0.5) * 0.04)));
      const e = cdfSectioningInterval(fractions, 5000, 1, p, (ps) => ps.map((q) => q), 0.95, [0, Infinity]);
      const note = openEndNote('q', fractions, 5000, p);
      const isOpen = e.ci95[1] === Infinity || e.ci95[0] === 0;
      expect(note !== null, `${fractions.join(', ')} at ${p}: ${e.ci95.join(', ')}`).toBe(isOpen);
      if (isOpen) open++;
    }
    expect(open).toBeGreaterThan(0);
  });
});
