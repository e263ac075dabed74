/**
 * Models that are another model to the bit get that model's mean field, exact where it is exact (a new user's trial,
 * 2026-12-02):
 * - LPW(d) with exact predictions reads the true work left (work rule 'clip' or 'signed'): it is LWL(d). The capability
 *   query answered it with the LPW cavity (an estimate, ±0.6–2 %) where LWL's closed form and FPE are exact, and
 *   `meanFieldFiniteness` called it finite where LWL's limit is ∞ (pareto α ≤ 1 + 1/d).
 * - JSQ(d) with LAS and exponential sizes: LAS is size-blind and work-conserving, so the queue lengths are FIFO's and
 *   E[T] = E[Q]/λ is the SQ(d) closed form (as for PS); it got a cavity estimate (and did, with memory, get the exact value).
 * - A misspelt model field was dropped and its default run (`disipline: 'srpt'` ran FIFO).
 */
import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { meanFieldFiniteness, parseModel, type ModelInput } from '../../src/model/index.ts';
import { modelSchema } from '../../src/model/schema.ts';
import { meanFieldCapabilities, solveMeanField, solveMeanFieldTransient, solveResponseTime } from '../../src/meanfield/index.ts';
import { simulate, type SimulateOptions } from '../../src/sim/index.ts';

const lpw = (extra: Partial<ModelInput> = {}) => parseModel({ lambda: 0.9, d: 2, selection: 'lpw', ...extra } as ModelInput);
const lwl = (extra: Partial<ModelInput> = {}) => parseModel({ lambda: 0.9, d: 2, selection: 'lwl', ...extra } as ModelInput);

/** The SQ(d) fixed point's E[T] (Vvedenskaya et al. 1996): (1/λ) Σ_{i≥1} λ^((d^i − 1)/(d − 1)), unit mean sizes. */
function sqdMeanResponseTime(lambda: number, d: number): number {
  let sum = 0;
  for (let i = 1; i < 60; i++) sum += Math.pow(lambda, (Math.pow(d, i) - 1) / (d - 1));
  return sum / lambda;
}

describe('LPW(d) with exact predictions is LWL(d)', () => {
  it('the simulator dispatches both alike: the same runs to the bit (what the mean-field rule rests on)', () => {
    const options = { n: 20, jobs: 4000, replications: 2, warmupTime: 20, seed: 3 } as SimulateOptions;
    for (const extra of [{}, { service: 'weibull:0.5', discipline: 'srpt' }, { conventions: { lpwWork: 'signed' } }] as const) {
      const a = simulate(lpw(extra as Partial<ModelInput>), options);
      const b = simulate(
        lwl({
          service: (extra as { service?: string }).service,
          discipline: (extra as { discipline?: string }).discipline,
        } as Partial<ModelInput>),
        options,
      );
      expect(a.meanResponseTime).toEqual(b.meanResponseTime);
      expect(a.responseTimePercentiles).toEqual(b.responseTimePercentiles);
    }
  });

  it('gets LWL’s exact solvers, named as such: closed form, FPE, transient and the response-time law', () => {
    const closed = solveMeanField(lpw());
    expect(closed.kind).toBe('exact');
    expect(closed.meanResponseTime).toBe(solveMeanField(lwl()).meanResponseTime);
    expect(closed.meanResponseTime).toBeCloseTo(2.050285, 6); // 1 + ∫ F̄(w)² dw (Hellemans & Van Houdt 2018)
    expect(closed.solver).toMatch(/LWL\(d\) closed form .*LPW with exact predictions/);
    const fpe = solveMeanField(lpw({ service: 'weibull:0.5' }));
    expect(fpe.kind).toBe('exact');
    expect(fpe.meanResponseTime).toBe(solveMeanField(lwl({ service: 'weibull:0.5' })).meanResponseTime);
    const times = [0, 1, 5, 20];
    const transient = solveMeanFieldTransient(lpw(), times);
    expect(transient.solver).toBe('lwl-pide');
    expect(transient.result).toEqual(solveMeanFieldTransient(lwl(), times).result);
    const law = solveResponseTime(lpw(), { quantiles: [0.5, 0.99] });
    expect(law.kind).toBe('exact');
    expect(law.quantiles).toEqual(solveResponseTime(lwl(), { quantiles: [0.5, 0.99] }).quantiles);
  });

  it('has LWL’s infinite limit where E[S^{1+1/d}] = ∞, never a cavity number', () => {
    const heavy = lpw({ lambda: 0.7, service: 'pareto:1.5' });
    expect(meanFieldFiniteness(heavy).finite).toBe(false);
    expect(solveMeanField(heavy).meanResponseTime).toBe(Number.POSITIVE_INFINITY);
    expect(meanFieldFiniteness(lpw({ lambda: 0.7, d: 3, service: 'pareto:1.3' })).finite).toBe(false);
  });

  it('but not with noisy predictions nor the static work rule ΣY_j, which counts the served part', () => {
    expect(meanFieldCapabilities(lpw({ prediction: 'uniform:0.5' })).fixedPoint).toMatchObject({ id: 'lpw-cavity' });
    expect(meanFieldCapabilities(lpw({ conventions: { lpwWork: 'static' } })).fixedPoint).toMatchObject({ id: 'lpw-cavity' });
    expect(meanFieldCapabilities(lpw({ conventions: { lpwWork: 'signed' } })).fixedPoint).toMatchObject({ id: 'lwl-closed-form' });
  });
});

describe('JSQ(d) with LAS and exponential sizes has FIFO’s queue lengths', () => {
  it('gets the SQ(d) closed form, exact, at every d and λ (was a cavity estimate)', () => {
    for (const d of [2, 3])
      for (const lambda of [0.5, 0.9]) {
        const s = solveMeanField(parseModel({ lambda, d, discipline: 'las' }));
        expect(s.kind).toBe('exact');
        expect(s.meanResponseTime).toBeCloseTo(sqdMeanResponseTime(lambda, d), 10);
      }
    // the law of T is LAS's, not FIFO's: still the cavity's sample
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, discipline: 'las' })).responseTime).toMatchObject({ kind: 'estimate' });
  });

  it('other size laws keep the cavity (LAS is not insensitive)', () => {
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, discipline: 'las', service: 'weibull:0.5' })).fixedPoint).toMatchObject({
      id: 'jsq-cavity',
      kind: 'estimate',
    });
  });
});

describe('parseModel refuses a field it does not know', () => {
  it('names the field and every field it knows, instead of running the default', () => {
    expect(() => parseModel({ lambda: 0.9, d: 2, disipline: 'srpt' } as unknown as ModelInput)).toThrow(InvalidModelError);
    expect(() => parseModel({ lambda: 0.9, d: 2, disipline: 'srpt' } as unknown as ModelInput)).toThrow(
      /^unknown key "disipline" \(did you mean "discipline"\?\); allowed keys: /,
    );
    let message = '';
    try {
      parseModel({ lambda: 0.5, d: 2, lamda: 3 } as unknown as ModelInput);
    } catch (e) {
      message = (e as Error).message;
    }
    const listed = message.replace(/.*allowed keys: /, '').split(', ');
    expect(listed).toEqual(Object.keys(modelSchema.shape));
  });

  it('still reads back every model it writes', () => {
    for (const input of [
      { lambda: 0.9, d: 2 },
      { lambda: 0.5, d: 3, batch: 'geom:2', batchDispatch: 'whole' },
      { lambda: 0.5, d: 2, servers: { speeds: [1, 2], fractions: [0.5, 0.5] } },
      { lambda: 0.5, d: 2, redundancy: 'cancel-on-complete', replicas: 'independent' },
      { lambda: 0.5, d: 2, memory: 'ism:3' },
    ]) {
      const model = parseModel(input as ModelInput);
      expect(parseModel(JSON.parse(JSON.stringify(model)) as ModelInput)).toEqual(model);
    }
  });
});

describe('parseModel refuses a nested field it does not know', () => {
  it('in a service law or a prediction (a misspelt mean ran mean 1: half or twice the load)', () => {
    expect(() => parseModel({ lambda: 0.45, d: 2, service: { kind: 'exponential', maen: 2 } } as unknown as ModelInput)).toThrow(
      /^service: unknown key "maen" \(did you mean "mean"\?\); allowed keys: kind, mean$/,
    );
    expect(() =>
      parseModel({ lambda: 0.5, d: 2, selection: 'lpw', prediction: { kind: 'uniform', alpha: 0.5, junk: 1 } } as unknown as ModelInput),
    ).toThrow(/^prediction: unknown key "junk"; allowed keys: kind, alpha$/);
  });
});
