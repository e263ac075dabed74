/**
 * Issue 21 item 1 in the mean-field room: E[T] in the limit n → ∞ is ∞ where theory says so (model/moments.ts
 * `meanFieldFiniteness`, theory.md §8 "Heavy tails, in the limit"), never a finite number from a truncated grid or a
 * cavity run; and the LWL FPE's error bar includes the tail its grid leaves out.
 *
 * The failing case this keeps: `fixed-point --selection lwl --d 2 --service pareto:1.5 --lambda 0.9` printed
 * E[T] = 2.916882 (numerical error ≈ 4.4e-6) although ∫ F̄² dw diverges like ln W (the FPE gives 2.917, 3.114, 3.283
 * at horizons W = 600, 3000, 12000); JSQ(2) FIFO with the same sizes was refused with exit 2 while d = 1 printed ∞.
 */
import { describe, expect, it } from 'vitest';
import { infiniteMeanWords, meanFieldFiniteness, meanFieldLimit, meanFieldUnsettled, parseModel } from '../../src/model/index.ts';
import { referenceText } from '../../src/report/comparisonReport.ts';
import { meanFieldCapabilities, solveMeanField } from '../../src/meanfield/index.ts';
import { lwlFixedPoint } from '../../src/meanfield/lwl/index.ts';
import { tailBeyondHorizon } from '../../src/meanfield/lwl/workload.ts';
import { runComparison } from '../../src/compare/index.ts';

const model = (selection: 'jsq' | 'lwl' | 'random', d: number, service: string, discipline = 'fifo') =>
  parseModel({ lambda: 0.9, d, selection, service, discipline });

describe('meanFieldFiniteness: E[T] in the limit (theory.md §8)', () => {
  it('JSQ(d) with a residual wait and E[S²] = ∞: never ∞; FIFO finite for α ≥ d/(d − 1) (BLP 2013), else not settled', () => {
    // it said ∞ for all of these, "a job waits the residual of the job in service": JSQ(d) thins a server held by a
    // long job, and Bramson, Lu & Prabhakar 2013 prove JSQ(3) FIFO pareto:1.9 finite (queue tail doubly exponential)
    expect(meanFieldLimit(model('jsq', 3, 'pareto:1.9'))).toBe('finite');
    expect(meanFieldLimit(model('jsq', 3, 'pareto:1.5'))).toBe('finite'); // α = d/(d − 1): exponential tail
    expect(meanFieldLimit(model('jsq', 2, 'pareto:2'))).toBe('finite'); // E[S²] = ∞ at α = 2, d/(d − 1) = 2
    expect(meanFieldLimit(model('jsq', 4, 'pareto:1.4'))).toBe('finite');
    expect(meanFieldLimit(model('jsq', 2, 'pareto:1.5'))).toBe('unsettled');
    expect(meanFieldLimit(model('jsq', 2, 'pareto:1.99'))).toBe('unsettled');
    expect(meanFieldLimit(model('jsq', 3, 'pareto:1.45'))).toBe('unsettled');
    expect(meanFieldUnsettled(model('jsq', 2, 'pareto:1.5'))).toMatch(/^E\[T\]∞ not settled: .*finite for α ≥ d\/\(d − 1\) = 2 only/);
    // SJF, SPJF: not covered by the FIFO theorem, at any α ≤ 2
    expect(meanFieldLimit(model('jsq', 3, 'pareto:1.9', 'sjf'))).toBe('unsettled');
    expect(meanFieldUnsettled(model('jsq', 3, 'pareto:1.9', 'sjf'))).toMatch(/does not cover JSQ\(3\) with SJF/);
    const predicted = (discipline: string) => parseModel({ lambda: 0.9, d: 3, service: 'pareto:1.9', discipline, prediction: 'exp' });
    expect(meanFieldLimit(predicted('spjf'))).toBe('unsettled');
    // SPRPT with predictions that fall short: a job run past its prediction keeps the server (it said ∞ too)
    expect(meanFieldUnsettled(predicted('sprpt'))).toMatch(/not settled: .*keeps the server \(SPRPT\)/);
    expect(meanFieldLimit(parseModel({ lambda: 0.9, d: 3, service: 'pareto:1.9', discipline: 'sprpt', prediction: 'exact' }))).toBe(
      'finite',
    );
    expect(meanFieldLimit(model('jsq', 2, 'pareto:2.1'))).toBe('finite');
    expect(meanFieldLimit(model('jsq', 2, 'pareto:1.5', 'srpt'))).toBe('finite');
    expect(meanFieldLimit(model('jsq', 2, 'pareto:1.5', 'ps'))).toBe('finite');
    for (const m of [model('jsq', 2, 'pareto:1.5'), model('jsq', 3, 'pareto:1.9', 'sjf')]) {
      expect(meanFieldFiniteness(m).finite).toBe(true); // not proven ∞ …
      const cap = meanFieldCapabilities(m).fixedPoint; // … and no number: the capability query refuses with the reason
      expect(cap.available ? cap.id : cap.reason).toMatch(/^E\[T\]∞ not settled/);
      expect(() => solveMeanField(m)).toThrow(/not settled/);
    }
    // proven finite, but the cavity's E[T] drifts with its horizon there (theory.md §8): refused, said finite
    const cap = meanFieldCapabilities(model('jsq', 3, 'pareto:1.9')).fixedPoint;
    expect(cap.available ? cap.id : cap.reason).toMatch(/^E\[T\]∞ is finite .* drifts up with the horizon/);
    expect(() => solveMeanField(model('jsq', 3, 'pareto:1.9'))).toThrow(/E\[T\]∞ is finite/);
    // E[S²] < ∞: the cavity as before
    const light = meanFieldCapabilities(model('jsq', 3, 'pareto:2.5')).fixedPoint;
    expect(light.available && light.id).toBe('jsq-cavity');
  });

  it('LWL(d) FIFO: ∞ iff E[S^{1+1/d}] = ∞ (pareto α ≤ 1 + 1/d), so finite where M/G/1 is not', () => {
    expect(meanFieldFiniteness(model('lwl', 2, 'pareto:1.5')).finite).toBe(false);
    expect(meanFieldFiniteness(model('lwl', 2, 'pareto:1.6')).finite).toBe(true);
    expect(meanFieldFiniteness(model('lwl', 3, 'pareto:1.3')).finite).toBe(false);
    expect(meanFieldFiniteness(model('lwl', 3, 'pareto:1.5')).finite).toBe(true);
    // d = 1 is M/G/1: E[S²] = ∞ makes E[T] = ∞ whatever the rule's name
    expect(meanFieldFiniteness(model('lwl', 1, 'pareto:1.8')).finite).toBe(false);
    expect(meanFieldFiniteness(model('random', 1, 'pareto:1.8')).finite).toBe(false);
  });

  it('server speeds change no moment: the same rule, answered ∞ at once (it hung in the per-class cavity), no law', () => {
    // fixed-point --speeds 1,2 --d 2 --lambda 0.6 --service pareto:1.5 ran 4 CPU-minutes with no output (trial, 2026-12-02)
    const speeds = (selection: 'jsq' | 'sed' | 'lwl' | 'random', d: number, service: string, discipline = 'fifo') =>
      parseModel({ lambda: 0.6, d, selection, service, discipline, servers: { speeds: [1, 2] } });
    // JSQ and SED with speeds and E[S²] = ∞: not settled (no theorem covers speeds), refused at once with the reason
    for (const m of [speeds('jsq', 2, 'pareto:1.5'), speeds('sed', 2, 'pareto:1.5'), speeds('jsq', 3, 'pareto:1.9')]) {
      expect(meanFieldLimit(m)).toBe('unsettled');
      const caps = meanFieldCapabilities(m);
      expect(caps.fixedPoint.available ? caps.fixedPoint.id : caps.fixedPoint.reason).toMatch(/not settled/);
      expect(() => solveMeanField(m)).toThrow(/not settled/);
      expect(caps.responseTime.available).toBe(false);
    }
    for (const m of [speeds('lwl', 2, 'pareto:1.2'), speeds('random', 1, 'pareto:1.5')]) {
      expect(meanFieldFiniteness(m).finite).toBe(false);
      const caps = meanFieldCapabilities(m);
      expect(caps.fixedPoint.available && caps.fixedPoint.id).toBe('infinite-mean');
      expect(solveMeanField(m).meanResponseTime).toBe(Infinity);
      // the identical-server cavity or FPE would answer another model's law: refused with its reason
      expect(caps.responseTime.available).toBe(false);
    }
    expect(meanFieldFiniteness(speeds('jsq', 2, 'pareto:2.5')).finite).toBe(true);
    expect(meanFieldFiniteness(speeds('lwl', 2, 'pareto:1.6')).finite).toBe(true);
    expect(meanFieldFiniteness(speeds('jsq', 2, 'pareto:1.5', 'srpt')).finite).toBe(true);
  });

  it('the rule is what the FPE shows: E[T] grows without bound with the horizon at d(α − 1) = 1, settles at 1.5', () => {
    // coarse grids (Δ = 0.05) keep this fast; the growth per ×4 of W is about (2λx_m^{1.5})²·ln 4 ≈ 0.17 at d = 2
    const at = (d: number, alpha: number, horizon: number) =>
      lwlFixedPoint(model('lwl', d, `pareto:${alpha}`), { step: 0.05, horizon, gridCheck: false, trimHorizon: false }).meanResponseTime;
    const growth2 = at(2, 1.5, 2400) - at(2, 1.5, 600);
    expect(growth2).toBeGreaterThan(0.12);
    expect(growth2).toBeLessThan(0.22);
    const growth3 = at(3, 1.5, 2400) - at(3, 1.5, 600);
    expect(growth3).toBeGreaterThan(0);
    expect(growth3).toBeLessThan(0.003);
  });

  it('solveMeanField answers ∞ (kind exact, the rule as solver) instead of a number or a refusal', () => {
    for (const m of [model('lwl', 2, 'pareto:1.5'), model('lwl', 3, 'pareto:1.3')]) {
      const cap = meanFieldCapabilities(m).fixedPoint;
      expect(cap.available && cap.id).toBe('infinite-mean');
      const s = solveMeanField(m);
      expect(s.meanResponseTime).toBe(Infinity);
      expect(s.meanQueueLength).toBe(Infinity);
      expect(s.kind).toBe('exact');
    }
    expect(Number.isFinite(solveMeanField(model('lwl', 3, 'pareto:1.5')).meanResponseTime)).toBe(true);
  });
});

describe('LWL FPE: the error bar includes the tail beyond the horizon', () => {
  it('tailBeyondHorizon is the integral of a power tail, 0 for a grid that reaches 0, ∞ when it diverges', () => {
    // F̄(w) = (1 + w)^{-1}: ∫_W^∞ F̄² = 1/(1 + W); the tangent power law through W/2 and W gives about that
    const step = 0.5;
    const cells = 2000;
    const ccdf = Array.from({ length: cells + 1 }, (_, j) => 1 / (1 + j * step));
    const tail = tailBeyondHorizon(ccdf, cells, step, 2, 1);
    expect(tail).toBeGreaterThan(0.9 / (1 + cells * step));
    expect(tail).toBeLessThan(1.1 / (1 + cells * step));
    expect(tailBeyondHorizon(ccdf, cells, step, 1, 1)).toBe(Infinity);
    expect(tailBeyondHorizon([1, 0.5, 0], 2, 1, 2)).toBe(0);
    // without a known index: the tangent through W/2 and W when steep, one horizon of decay when flat
    const steep = Array.from({ length: cells + 1 }, (_, j) => (1 + j * step) ** -3);
    const t3 = tailBeyondHorizon(steep, cells, step, 2);
    expect(t3).toBeGreaterThan((0.9 * cells * step * steep[cells] ** 2) / 5);
    expect(t3).toBeLessThan((1.1 * cells * step * steep[cells] ** 2) / 5);
    expect(tailBeyondHorizon([1, 1e-7, 1e-7], 2, 1, 2)).toBeCloseTo(2e-14, 20);
  });

  it('pareto:1.5 at d = 3: the stated error covers what a horizon 4× longer adds', () => {
    const m = model('lwl', 3, 'pareto:1.5');
    const short = lwlFixedPoint(m, { step: 0.05, horizon: 600 });
    const long = lwlFixedPoint(m, { step: 0.05, horizon: 2400 });
    const added = long.meanResponseTime - short.meanResponseTime;
    expect(added).toBeGreaterThan(0);
    expect(short.diagnostics.meanResponseTimeTailError).toBeGreaterThan(added);
    expect(short.diagnostics.meanResponseTimeErrorBound).toBeGreaterThanOrEqual(short.diagnostics.meanResponseTimeTailError);
  });
});

describe('compare: a limit that is ∞ while finite n is unsettled gives "undefined (infinite)"', () => {
  it('LWL(2) FIFO pareto:1.5: reference ∞ with the reason "in the limit", every cell undefined', () => {
    const r = runComparison({
      lambdas: [0.5],
      ds: [2],
      ns: [10, 20],
      sampling: 'without-replacement',
      model: { selection: 'lwl', discipline: 'fifo', service: 'pareto:1.5' },
      jobs: 800,
      replications: 2,
      seed: 3,
      warmupTolerance: 1e-3,
      warmupSafetyFactor: 2,
      maxLevel: 10,
      trajectory: null,
    });
    expect(r.models[0].reference.meanResponseTime).toBe(Infinity);
    expect(r.models[0].reference.infinite).toMatch(/in the limit: E\[S\^\{1\+1\/d\}\] = ∞/);
    expect(r.cells.every((c) => c.verdict.status === 'undefined')).toBe(true);
  }, 600_000);
});

describe('infiniteMeanWords: outputs call the limit ∞ only where it is proven (tails2 item 1)', () => {
  const words = (o: Record<string, unknown>) => infiniteMeanWords(parseModel({ lambda: 0.5, ...o } as never));
  it('JSQ(2) FIFO pareto:1.5 with replacement: E[T]_n = ∞, the limit not settled (was "E[T]∞ = ∞ and E[T]_n = ∞")', () => {
    expect(words({ d: 2, service: 'pareto:1.5' })).toBe('E[T]_n = ∞ at every n in theory, E[T]∞ not settled');
    expect(words({ d: 2, service: 'pareto:1.5', sampling: 'without-replacement' })).toBe('E[T]∞ not settled');
    // the limit ∞ (LWL(2) FIFO needs E[S^{3/2}] < ∞) while E[T]_n with distinct servers is not settled: not "E[T]_n = ∞"
    expect(words({ d: 2, selection: 'lwl', service: 'pareto:1.5' })).toBe('E[T]∞ = ∞ and E[T]_n = ∞ in theory');
    expect(words({ d: 2, selection: 'lwl', service: 'pareto:1.5', sampling: 'without-replacement' })).toBe(
      'E[T]∞ = ∞ in theory, E[T]_n not settled',
    );
  });
  it('proven ∞ (d = 1 FIFO pareto:1.5) and proven finite limit (LWL(3) pareto:1.5 with replacement) keep their words', () => {
    expect(words({ d: 1, service: 'pareto:1.5' })).toBe('E[T]∞ = ∞ and E[T]_n = ∞ in theory');
    expect(words({ d: 3, selection: 'lwl', service: 'pareto:1.5' })).toBe('E[T]_n = ∞ at every n in theory');
  });
  it("compare's reference column: 'not settled', never '∞ (infinite in theory)', for JSQ(2) FIFO pareto:1.5", () => {
    const model = parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5' });
    // as compare/plan.ts prepares it: the limit's status from the start (no ∞ to translate back)
    const text = referenceText({ model, reference: { meanResponseTime: Number.NaN, unsettled: 'y', infiniteAtEveryN: 'x' } } as never);
    expect(text).toBe('not settled (E[T]∞ unproven, E[T]_n = ∞ at every n: not compared)');
    const d1 = parseModel({ lambda: 0.5, d: 1, service: 'pareto:1.5' });
    expect(referenceText({ model: d1, reference: { meanResponseTime: Infinity, infinite: 'x' } } as never)).toBe('∞ (infinite in theory)');
  });
});
