/**
 * Non-Poisson arrivals (model/arrivals.ts; theory.md §14): one server (n = 1, d = 1) fed a renewal stream is the
 * GI/M/1 queue, whose FIFO response time is exponential with rate μ(1 − σ), σ the root in (0, 1) of σ = A*(μ(1 − σ))
 * (A* the inter-arrival Laplace transform): E[T] = 1/(μ(1 − σ)). With exponential sizes the number in system does not
 * depend on a work-conserving discipline that ignores sizes, so PS (sharing engine) has the same mean. A two-state
 * MMPP feeding one server is checked against its (phase, queue length) chain solved directly. Each check uses the
 * 95% Student-t CI of 8 replications widened for the 6 comparisons of the file (Bonferroni, familywise 5%).
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { describe, expect, it } from 'vitest';
import { balancedH2 } from '../../src/model/service/index.ts';
import { formatArrivals, parseModel, validateModel, type ArrivalSpec } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/index.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { solveExact } from '../../src/meanfield/exact/index.ts';
import { occupancyChainSpec } from '../../src/sim/occupancyChain.ts';
import { cellKey, modelLabel, withoutVReason } from '../../src/compare/comparison.ts';
import { expandGrid } from '../../src/experiments/grid.ts';
import { parseExperiment } from '../../src/experiments/schema.ts';

const REPLICATIONS = 8;
const CASES = 6;
const widen = tQuantile(1 - 0.05 / (2 * CASES), REPLICATIONS - 1) / tQuantile(0.975, REPLICATIONS - 1);

/** σ of GI/M/1 (μ = 1): the root in (0, 1) of σ = A*(1 − σ), by the monotone iteration from 0. */
function gim1Sigma(laplace: (s: number) => number): number {
  let sigma = 0;
  for (let i = 0; i < 10_000; i++) {
    const next = laplace(1 - sigma);
    if (Math.abs(next - sigma) < 1e-14) return next;
    sigma = next;
  }
  return sigma;
}

/** Inter-arrival Laplace transforms A*(s) at rate λ (mean 1/λ). */
const LAPLACE: Record<string, (lambda: number) => (s: number) => number> = {
  det: (lambda) => (s) => Math.exp(-s / lambda),
  'erlang:2': (lambda) => (s) => ((2 * lambda) / (2 * lambda + s)) ** 2,
  'hyperexp:4': (lambda) => {
    const h = balancedH2(1 / lambda, 4);
    return (s) => (h.p1 * h.mu1) / (h.mu1 + s) + (h.p2 * h.mu2) / (h.mu2 + s);
  },
};

/** E[T] of the MMPP/M/1 FIFO queue (μ = 1) from its (phase, level) chain truncated at `levels`, by Gauss–Seidel. */
function mmppM1(rates: readonly [number, number], switching: readonly [number, number], levels = 400): number {
  const p = [new Float64Array(levels + 1).fill(1), new Float64Array(levels + 1).fill(1)];
  for (let sweep = 0; sweep < 20_000; sweep++) {
    let change = 0;
    for (let k = 0; k <= levels; k++) {
      for (let i = 0; i < 2; i++) {
        const out = (k < levels ? rates[i] : 0) + (k > 0 ? 1 : 0) + switching[i];
        const inflow = (k > 0 ? rates[i] * p[i][k - 1] : 0) + (k < levels ? p[i][k + 1] : 0) + switching[1 - i] * p[1 - i][k];
        const v = inflow / out;
        change = Math.max(change, Math.abs(v - p[i][k]) / Math.max(v, 1e-300));
        p[i][k] = v;
      }
    }
    if (change < 1e-12) break;
  }
  let mass = 0;
  let q = 0;
  for (let k = 0; k <= levels; k++) {
    const m = p[0][k] + p[1][k];
    mass += m;
    q += k * m;
  }
  const lambda = (rates[0] * switching[1] + rates[1] * switching[0]) / (switching[0] + switching[1]);
  return q / mass / lambda;
}

describe('renewal arrivals at n = 1, d = 1 match the GI/M/1 closed forms (σ = A*(1 − σ), E[T] = 1/(1 − σ))', () => {
  const lambda = 0.7;
  const cases: [string, 'fifo' | 'ps', 'event' | 'priority' | undefined][] = [
    ['det', 'fifo', undefined],
    ['erlang:2', 'fifo', 'priority'],
    ['hyperexp:4', 'fifo', undefined],
    ['det', 'ps', undefined],
  ];
  for (const [arrivals, discipline, engine] of cases) {
    it(`${arrivals}/M/1 ${discipline.toUpperCase()}${engine ? ` (${engine} engine)` : ''} at λ = ${lambda}`, () => {
      const model = parseModel({ lambda, d: 1, selection: 'random', discipline, arrivals });
      const sigma = gim1Sigma(LAPLACE[arrivals](lambda));
      const exact = 1 / (1 - sigma);
      const r = simulate(model, { n: 1, jobs: 60_000, replications: REPLICATIONS, seed: 11, warmupTime: 200, engine });
      const e = r.meanResponseTime;
      expect(Math.abs(e.mean - exact), `E[T] simulated ${e.mean} ± ${e.halfWidth}, GI/M/1 ${exact}`).toBeLessThanOrEqual(
        widen * e.halfWidth,
      );
      // the check can fail: M/M/1's 1/(1 − λ) lies outside the CI (the arrival law matters at n = 1)
      expect(Math.abs(e.mean - 1 / (1 - lambda))).toBeGreaterThan(widen * e.halfWidth);
    });
  }

  it('σ of D/M/1 at λ = 0.7 solves σ = exp(−(1 − σ)/λ) (the closed form used above)', () => {
    const sigma = gim1Sigma(LAPLACE.det(0.7));
    expect(Math.abs(sigma - Math.exp(-(1 - sigma) / 0.7))).toBeLessThan(1e-12);
    expect(sigma).toBeGreaterThan(0);
    expect(sigma).toBeLessThan(0.7); // D/M/1 waits less than M/M/1 (σ = ρ)
  });
});

describe('MMPP arrivals', () => {
  it('one server fed mmpp:1,4,0.05,0.1 matches its (phase, level) chain', () => {
    const spec = { kind: 'mmpp', rates: [1, 4], switching: [0.05, 0.1] } as const;
    const lambda = 0.6;
    const model = parseModel({ lambda, d: 1, selection: 'random', arrivals: spec });
    // normalised phase rates: r̄ = (1·0.1 + 4·0.05)/0.15 = 2, so λ·rᵢ/r̄ = 0.3 and 1.2 (phase 2 overloads the server)
    const exact = mmppM1([0.3, 1.2], [0.05, 0.1]);
    const r = simulate(model, { n: 1, jobs: 150_000, replications: REPLICATIONS, seed: 5, warmupTime: 500 });
    const e = r.meanResponseTime;
    expect(Math.abs(e.mean - exact), `E[T] simulated ${e.mean} ± ${e.halfWidth}, chain ${exact}`).toBeLessThanOrEqual(widen * e.halfWidth);
    expect(exact).toBeGreaterThan(2 / (1 - lambda)); // far from M/M/1: the bursts matter
  });

  it('has no mean-field fixed point; one line naming the reason', () => {
    const model = parseModel({ lambda: 0.6, d: 2, arrivals: 'mmpp:1,4,0.05,0.1' });
    const cap = meanFieldCapabilities(model).fixedPoint;
    expect(cap.available).toBe(false);
    expect(() => solveMeanField(model)).toThrow(/mmpp:1,4,0.05,0.1: the phase switches at O\(1\) rates/);
    // the same reason refuses ode, so it must not read "not a fixed point" as if the ODE were what is missing
    const transient = meanFieldCapabilities(model).transient;
    expect(transient.available).toBe(false);
    expect(transient.available ? '' : transient.reason).toMatch(/driven ODE is not solved here/);
  });
});

describe('arrivals in the model and the mean field', () => {
  it('parses short and object forms, formats them back, refuses bad input in one line', () => {
    const forms: [string, ArrivalSpec][] = [
      ['exp', { kind: 'exponential' }],
      ['det', { kind: 'deterministic' }],
      ['erlang:3', { kind: 'erlang', k: 3 }],
      ['hyperexp:4', { kind: 'hyperexponential', scv: 4 }],
      ['mmpp:1,3,0.1,0.2', { kind: 'mmpp', rates: [1, 3], switching: [0.1, 0.2] }],
    ];
    for (const [text, spec] of forms) {
      const model = validateModel({ lambda: 0.5, d: 2, arrivals: text });
      expect(model.arrivals).toEqual(spec);
      expect(formatArrivals(model.arrivals)).toBe(text);
    }
    expect(validateModel({ lambda: 0.5, d: 2 }).arrivals).toEqual({ kind: 'exponential' });
    for (const [bad, message] of [
      ['erlang:0', 'arrivals erlang k must be an integer in [1, 1000] (a larger k is det to within SCV 1/k: use det), got 0'],
      ['hyperexp:0.5', 'arrivals hyperexponential scv must be in (1, 1e6] (use erlang or exp for scv ≤ 1), got 0.5'],
      ['mmpp:1,2', 'expected mmpp:R1,R2,Q12,Q21'],
      ['mmpp:0,0,1,1', 'mmpp rates must not both be 0'],
      ['mmpp:1,2,0,1', 'mmpp switching rate must be in (0, 1000] per time unit'],
      ['weekly', 'unknown arrivals "weekly"'],
    ]) {
      expect(() => validateModel({ lambda: 0.5, d: 2, arrivals: bad })).toThrow(message);
    }
  });

  it('a renewal model has the Poisson fixed point, said so, and no refined term or exact chain', () => {
    const poisson = solveMeanField(parseModel({ lambda: 0.9, d: 2 }));
    const model = parseModel({ lambda: 0.9, d: 2, arrivals: 'erlang:2' });
    const caps = meanFieldCapabilities(model);
    expect(caps.arrivalsNote).toMatch(/Poisson fluid limit/);
    expect(caps.refined.firstOrder.available).toBe(false);
    expect(caps.exactChain.available).toBe(false);
    const s = solveMeanField(model);
    expect(s.meanResponseTime).toBe(poisson.meanResponseTime);
    expect(s.solver).toMatch(/Poisson limit of arrivals erlang:2/);
    // memory moves on the arrivals' time scale: no reduction theorem for renewal arrivals
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, memory: 'ip', arrivals: 'det' })).fixedPoint.available).toBe(false);
  });

  it('the race fast path is refused for non-Poisson arrivals (auto falls back to the event engine)', () => {
    const model = parseModel({ lambda: 0.5, d: 2, arrivals: 'det' });
    expect(() => simulate(model, { n: 10, jobs: 1000, replications: 2, warmupTime: 10, engine: 'race' })).toThrow(/Poisson arrivals/);
    expect(simulate(model, { n: 10, jobs: 1000, replications: 2, warmupTime: 10 }).provenance.method).toMatch(/discrete-event, FIFO/);
  });
});

describe('arrivals through the finite-n chains, compare and experiment files', () => {
  it('the exact chain and the occupancy-chain engine refuse non-Poisson arrivals in one line', () => {
    const model = parseModel({ lambda: 0.5, d: 2, arrivals: 'det' });
    expect(() => solveExact(model, { n: 3 })).toThrow('the exact solver is the Markov chain of Poisson arrivals, not arrivals det');
    expect(() => occupancyChainSpec(model, 3)).toThrow('the occupancy-chain engine is the Markov chain of Poisson arrivals');
  });

  it('compare keys and labels a renewal model apart from the Poisson one', () => {
    const poisson = parseModel({ lambda: 0.9, d: 2 });
    const det = parseModel({ lambda: 0.9, d: 2, arrivals: 'det' });
    expect(cellKey(poisson, 100)).toBe('d2-lambda0.9-n100');
    expect(cellKey(det, 100)).toBe('jsq-fifo-arrivals-det-d2-lambda0.9-n100');
    expect(modelLabel(det)).toMatch(/, arrivals det$/);
  });

  it("compare's method says what a renewal model is judged by: the Poisson limit and the slope, not a known c₁", () => {
    expect(withoutVReason(undefined)).toMatch(/known only for JSQ\(d\), FIFO, exponential sizes/);
    const text = withoutVReason(parseModel({ lambda: 0.9, d: 2, arrivals: 'erlang:2' }).arrivals);
    expect(text).toMatch(/derived for Poisson arrivals.*arrivals erlang:2 the n → ∞ limit is still the Poisson one/);
    expect(text).toMatch(/1\/n coefficient .* is not known.*slope of log\|gap\| against log n.*no claim on the value of c₁/);
  });

  it('experiment files cross an arrivals axis with the cells; Poisson cells keep their keys', () => {
    const base = {
      name: 'a',
      lambda: [0.5],
      d: [2],
      n: [10],
      selections: ['jsq'],
      disciplines: ['fifo'],
      service: ['exp'],
      jobs: 100,
      replications: 2,
    };
    const plain = expandGrid(parseExperiment(base));
    const cells = expandGrid(parseExperiment({ ...base, arrivals: ['exp', 'erlang:2', 'mmpp:1,3,0.1,0.2'] }));
    expect(cells.map((c) => c.model.arrivals.kind)).toEqual(['exponential', 'erlang', 'mmpp']);
    expect(cells[0].key).toBe(plain[0].key);
    expect(new Set(cells.map((c) => c.key)).size).toBe(3);
    expect(cells[1].policy).toBe('JSQ+FIFO (arrivals erlang:2)');
    expect(() => expandGrid(parseExperiment({ ...base, arrivals: ['erlang:0'] }))).toThrow(
      /arrivals\[0\] = "erlang:0": arrivals erlang k must be an integer in \[1, 1000\]/,
    );
  });
});
