import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { comparisonMarkdown, writeComparisonReport } from '../../src/report/index.ts';
import { reportComparison, SHORT_TRAJECTORY } from '../compare/config.ts';
import { testMeta } from './meta.ts';
import { comparisonResultsJson, referenceText } from '../../src/report/comparisonReport.ts';
import { jsonText } from '../../src/io/jsonText.ts';
import { PH_FIT_MEASURED_ERROR } from '../../src/meanfield/phaseType/fitError.ts';
import type { ModelSummary } from '../../src/compare/types.ts';

const meta = testMeta();
const tiny = reportComparison({ lambdas: [0.5], ns: [10, 50], jobs: 5_000, replications: 3, seed: 2, trajectory: SHORT_TRAJECTORY });

/** Checks that every figure was written in every format, the PNG is a PNG, and the CSV holds exactly the plotted rows. */
function expectFigures(dir: string, files: string[], names: string[]): void {
  for (const name of names) {
    for (const ext of ['png', 'svg', 'vl.json', 'csv', 'json']) {
      expect(files).toContain(`figures/${name}.${ext}`);
      expect(existsSync(path.join(dir, 'figures', `${name}.${ext}`))).toBe(true);
    }
    const png = readFileSync(path.join(dir, 'figures', `${name}.png`));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(5_000);
    const svg = readFileSync(path.join(dir, 'figures', `${name}.svg`), 'utf8');
    expect(svg).toContain('<svg');
    expect(svg).toContain('<text'); // axis labels survive
    const csv = readFileSync(path.join(dir, 'figures', `${name}.csv`), 'utf8')
      .trim()
      .split('\n');
    expect(csv.length - 1).toBe(JSON.parse(readFileSync(path.join(dir, 'figures', `${name}.json`), 'utf8')).length);
  }
}

describe('writeComparisonReport', () => {
  it('writeComparisonReport(dir, classic result, meta) writes html, markdown, and PNG/SVG/spec/CSV/JSON for each figure', async () => {
    const result = runComparison(tiny);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-report-'));
    const files = await writeComparisonReport(dir, result, meta);
    expectFigures(dir, files, ['tail-fractions', 'convergence', 'scaled-error', 'load', 'response-time', 'transient']);
    expect(files.filter((f) => f.endsWith('.pdf') || f.endsWith('.tex'))).toEqual([]); // the paper export only with latex
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<table>');
    expect(html).toContain('figures/convergence.svg');
    expect(html).not.toMatch(/src="https?:/); // opens offline
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('| d | λ | n |');
    expect(md).toContain('Validation report: SQ(d) mean field');
    expect(md).toContain('| t (ν) | p | p Holm | verdict | confirmatory rerun |');
    expect(md).toMatch(/Holm's step-down adjustment over all judged cells/);
    expect(md).toMatch(/Calibration check/);
    const saved = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
    expect(saved.cells[0].seed).toBe(result.cells[0].seed);
    // a percentile's interval inverts the cdf (asymmetric): results.json gives [lo, hi], no halfWidth (L3, fresh-user trial)
    const p99 = saved.cells[0].simulation.responseTimePercentiles.p99;
    expect(p99.ci95).toEqual(result.cells[0].simulation.responseTimePercentiles!.p99.ci95);
    expect(p99).not.toHaveProperty('halfWidth');
    expect(saved.models[0].quantiles.cells.length).toBeGreaterThan(0);
    for (const q of saved.models[0].quantiles.cells) expect(q.simulated).not.toHaveProperty('halfWidth');
    expect(saved.cells[0].simulation.meanResponseTime.halfWidth).toBe(result.cells[0].simulation.meanResponseTime.halfWidth);
    // y axes titled after layering; a tick label at every n of the sweep (the largest included)
    const svg = (name: string) => readFileSync(path.join(dir, 'figures', `${name}.svg`), 'utf8');
    expect(svg('tail-fractions')).toContain('s_i (servers with ≥ i jobs)');
    expect(svg('convergence')).toContain('E[T]_n − E[T]_∞ (mean service times)');
    expect(svg('scaled-error')).toContain('n · (E[T]_n − E[T]_∞) (mean service times)');
    expect(svg('response-time')).toContain('P(T &gt; t)');
    // the finite-n empirical ccdf of every n (P = 1 − p at the pooled quantiles), beside the judged percentiles
    const rt = JSON.parse(readFileSync(path.join(dir, 'figures', 'response-time.json'), 'utf8')) as {
      series: string;
      t: number;
      value: number;
    }[];
    for (const n of tiny.ns) {
      const curve = rt.filter((r) => r.series === `empirical ccdf, n = ${n}`);
      expect(curve).toHaveLength(52);
      for (let k = 1; k < curve.length; k++) {
        expect(curve[k].t).toBeGreaterThanOrEqual(curve[k - 1].t);
        expect(curve[k].value).toBeLessThan(curve[k - 1].value);
      }
      const cell = result.cells.find((c) => c.n === n)!;
      expect(curve[24].value).toBeCloseTo(0.5, 12); // p = 0.5: the pooled median, the judged p50
      expect(curve[24].t).toBe(cell.simulation.responseTimePercentiles!.p50.mean);
    }
    expect(svg('load')).toContain('arrival rate λ per server');
    const ticks = (svg('convergence').match(/<g class="mark-text role-axis-label"[^]*?<\/g>/g) ?? []).join('');
    for (const n of tiny.ns) expect(ticks).toMatch(new RegExp(`<text[^>]*>${n}</text>`));
    expect(ticks).not.toContain('opacity="0"');
    // the data beside the tail plot is the raw estimate: every level, lower CI ends unclamped
    const tail = JSON.parse(readFileSync(path.join(dir, 'figures', 'tail-fractions.json'), 'utf8')) as {
      series: string;
      n: number;
      i: number;
      value: number;
      lo: number;
    }[];
    const cell = result.cells.find((c) => c.n === 10)!;
    const sim = tail.filter((r) => r.series === 'simulation, n = 10');
    expect(sim.map((r) => r.i)).toEqual(cell.simulation.tail.map((_, i) => i).slice(1));
    expect(sim.map((r) => r.lo)).toEqual(cell.simulation.tail.slice(1).map((e) => e.ci95[0]));
    expect(tail.some((r) => r.value < 1e-6)).toBe(true);
    expect(saved.family.rule).toMatch(/Holm/);
  });

  it('writeComparisonReport(dir, LWL result, meta) names the solver and its kind, and writes convergence, workload-ccdf and transient figures', async () => {
    const result = runComparison({ ...tiny, model: { selection: 'lwl' } });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-general-report-'));
    const files = await writeComparisonReport(dir, result, meta);
    expectFigures(dir, files, ['convergence', 'scaled-error', 'workload-ccdf', 'transient']);
    expect(files).not.toContain('figures/tail-fractions.svg'); // the LWL solver gives no occupancy tails
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('LWL(d) closed form');
    expect(md).toContain('(exact)');
    expect(md).toMatch(/Without V/);
    expect(md).toContain('| d | λ | n |');
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).not.toMatch(/src="https?:/);
    expect(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')).judgedBy).toBe('without-v');
  });
});

describe('a renewal-arrival comparison (theory.md §14)', () => {
  it('is judged against the Poisson limit, and its method says the 1/n coefficient is fitted, not known', () => {
    const result = runComparison(
      reportComparison({ lambdas: [0.7], ns: [10, 40], jobs: 5_000, replications: 3, seed: 2, model: { arrivals: 'det' } }),
    );
    const poisson = runComparison(reportComparison({ lambdas: [0.7], ns: [10], jobs: 1_000, replications: 2, seed: 2 }));
    expect(result.judgedBy).toBe('without-v');
    expect(result.models[0].reference.meanResponseTime).toBe(poisson.models[0].reference.meanResponseTime);
    expect(result.models[0].reference.solver).toMatch(/Poisson limit of arrivals det/);
    const md = comparisonMarkdown(result, [], meta);
    expect(md).toMatch(/\*\*No refined term\*\*: the 1\/n term V is derived for Poisson arrivals/);
    expect(md).toMatch(/it makes no claim on the value of c₁, which is measured, not predicted/);
  });
});

describe('referenceText', () => {
  const reference = {
    meanResponseTime: 4.6168,
    meanQueueLength: null,
    halfWidth: 0,
    numericalError: 0,
    solver: 'phase-type SQ(d) ODE on a two-moment PH fit',
    kind: 'approximation',
    source: 'theory.md §3',
    convergence: { converged: true },
  };
  it('an approximation with a measured error (the PH fit) states it and the E[T]∞ range it allows; without one, "not bounded"', () => {
    const fit = { reference: { ...reference, measuredError: PH_FIT_MEASURED_ERROR.weibull } } as unknown as ModelSummary;
    expect(referenceText(fit)).toMatch(
      /^4\.6168 \(approximation, measured error −18 % to \+0 % of E\[T\] .*E\[T\] in \[4\.6168, 5\.6302\]\)$/,
    );
    expect(referenceText({ reference } as unknown as ModelSummary)).toBe('4.6168 (approximation, error not bounded)');
  });
});

describe('the report title names the model compared', () => {
  it('a redundancy-d sweep is titled RED(d), not JSQ(d), and names its replicas', () => {
    const result = runComparison(
      reportComparison({
        lambdas: [0.5],
        ns: [10, 20],
        jobs: 1_000,
        replications: 2,
        seed: 2,
        model: { redundancy: 'cancel-on-complete', replicas: 'identical' },
      }),
    );
    const md = comparisonMarkdown(result, [], meta);
    const head = md.split('\n').slice(0, 3).join('\n');
    expect(head).toMatch(/^# Convergence report: RED\(d\) FIFO mean field/);
    expect(head).toMatch(/cancel-on-complete \(identical replicas\)/);
    expect(head).not.toMatch(/JSQ/);
  });

  it('a sweep with server speeds names them in the title line', () => {
    const result = runComparison(
      reportComparison({
        lambdas: [0.6],
        ns: [10, 20],
        jobs: 1_000,
        replications: 2,
        seed: 2,
        model: { servers: { speeds: [1, 2], fractions: [0.5, 0.5] } },
      }),
    );
    const head = comparisonMarkdown(result, [], meta).split('\n').slice(0, 3).join('\n');
    expect(head).toMatch(/speeds 1,2 fractions 0\.5,0\.5/);
  });
});

describe('the Method says which check reads which degrees of freedom', () => {
  // it named "ν = R − 1" and "Welch's ν" without saying which check used which (the per-n verdict uses R − 1 against an
  // exact reference and Welch only where the reference has its own error: compare/verdict.ts)
  it('refined (classic) and Without-V (renewal arrivals) reports each list the per-n, calibration and fit checks', () => {
    const classic = comparisonMarkdown(
      runComparison(reportComparison({ lambdas: [0.7], ns: [10, 20], jobs: 1_000, replications: 2, seed: 2 })),
      [],
      meta,
    );
    expect(classic).toMatch(
      /\*\*Degrees of freedom, check by check\*\*: the per-n t and the calibration check read Student t with ν = R − 1/,
    );
    expect(classic).toMatch(/the c₁ check reads Welch–Satterthwaite's ν/);
    expect(classic).not.toMatch(/Welch ν/); // the multiplicity rule said "Student t, Welch ν" right after "ν = R − 1"
    expect(classic).toMatch(/Student t: ν = R − 1 against an exact reference, Welch–Satterthwaite's ν against one with its own error/);
    const renewal = comparisonMarkdown(
      runComparison(reportComparison({ lambdas: [0.7], ns: [10, 20], jobs: 1_000, replications: 2, seed: 2, model: { arrivals: 'det' } })),
      [],
      meta,
    );
    expect(renewal).not.toMatch(/Welch's ν/);
    expect(renewal).toMatch(/a judged per-n t reads ν = R − 1 against an exact reference \(σ_ref = 0\) and\s+Welch–Satterthwaite's ν/);
    expect(renewal).toMatch(/the calibration check reads ν = R − 1; the limit verdict's h_â reads Welch–Satterthwaite's ν/);
  });
});

describe("the Method's verdict line states the sweep's rule, not the first (exact) cell's", () => {
  // the default report's Method gave the exact rule ("|x̂_n − E[T]_n exact| ≤ h_n + ε_trunc …") as the verdict of every
  // cell, because its first cell is the exact point at n = 2 (fresh-user trial, 2026-12-03); and it gave t as
  // (|sim − refined| − δ_n)/σ_n, unsigned, while the t column is signed (compare/verdict.ts `cellVerdict`)
  it('a refined report with exact points names the refined rule, then the exact one, and a signed t', () => {
    const exact = { ns: [2], truncationBound: 1e-4, maxStates: 2e5, jobs: 1_000, replications: 2 };
    const md = comparisonMarkdown(
      runComparison(reportComparison({ lambdas: [0.7], ns: [10, 20], jobs: 1_000, replications: 2, seed: 2, exact })),
      [],
      meta,
    );
    const line = md.split('\n').find((l) => l.startsWith('- **Verdict**:'))!;
    expect(line).toMatch(/^- \*\*Verdict\*\*: \|sim − refined\| ≤ h_n \+ δ_n, δ_n = /);
    expect(line).toMatch(/; a cell at an n with an exact value: \|x̂_n − E\[T\]_n exact\| ≤ h_n \+ ε_trunc/);
    expect(line).toMatch(/The t column is sign\(sim − refined\)·\(\|sim − refined\| − δ_n\)\/σ_n/);
    // the exact point's cell is named beside the grid: "Of 3 cells" under "n ∈ {10, 20}" counted it unsaid (trial, 2026-12-03)
    expect(md).toContain(
      '- Grid: d ∈ {2}, λ ∈ {0.7}, n ∈ {10, 20}; and 1 cell at n ∈ {2} checked against the exact n-server chain (3 cells in all).',
    );
    expect(md).toMatch(/Of 3 cells/);
  });
});

describe('an exact point that is ∞ in theory is the ∞ object in results.json', () => {
  // d = 1, pareto:1.5: the M/G/1 exact points have E[T]_n = ∞; results.json and `compare --json` wrote them as a bare
  // null beside an `infinite` string, the form README "JSON formats of ∞" reserves for "no such value" (trial, 2026-12-03)
  it('comparisonResultsJson: models[].exact.points[] and cells[].exact give E[T]_n and E[Q]_n as { mean: null, infinite: true, reason }', () => {
    const exact = { ns: [10], truncationBound: 1e-4, maxStates: 2e5, jobs: 1_000, replications: 2 };
    const result = runComparison(
      reportComparison({
        lambdas: [0.5],
        ds: [1],
        ns: [10],
        jobs: 1_000,
        replications: 2,
        seed: 2,
        exact,
        model: { service: 'pareto:1.5' },
      }),
    );
    expect(result.models[0].exact!.points[0].meanResponseTime).toBe(Infinity);
    const saved = JSON.parse(jsonText(comparisonResultsJson(result))) as {
      models: { exact: { points: { meanResponseTime: unknown; meanQueueLength: unknown }[] } }[];
      cells: { exact?: { meanResponseTime: unknown } }[];
    };
    const infinite = { mean: null, infinite: true, reason: expect.stringContaining('E[S²] = ∞ (pareto α = 1.5 ≤ 2)') };
    expect(saved.models[0].exact.points[0].meanResponseTime).toEqual(infinite);
    expect(saved.models[0].exact.points[0].meanQueueLength).toEqual(infinite);
    const cell = saved.cells.find((c) => c.exact)!;
    expect(cell.exact!.meanResponseTime).toEqual(infinite);
    // each model carries the policy name simulate, exact, ode, replay and run --json give (it had none)
    expect((saved.models[0] as unknown as { policy: string }).policy).toMatch(/^RANDOM \(d = 1\) \+ FIFO/);
  });
});
