import { describe, expect, it } from 'vitest';
import { expandGrid, parseExperiment, usesPrediction } from '../../src/experiments/index.ts';

const base = {
  name: 'unit',
  lambda: [0.5, 0.9],
  d: [2],
  n: [100],
  selections: ['jsq', 'lpw'],
  disciplines: ['fifo', 'sprpt'],
  service: ['exp', 'weibull:0.5'],
  prediction: ['exact', 'exp'],
  jobs: 1000,
  replications: 2,
  seed: 3,
};

describe('parseExperiment', () => {
  it('parseExperiment(json) fills defaults (sampling, seed, warm-up) and keeps the grid', () => {
    const spec = parseExperiment({ ...base, seed: undefined });
    expect(spec.sampling).toBeUndefined(); // each cell's model: with-replacement, a batch cell without (parseModel)
    expect(spec.seed).toBe(1);
    expect(spec.warmup).toBe('auto');
  });

  it('parseExperiment(json) lists every problem with its JSON path', () => {
    // every problem in one message (λ < 1 is checked after the entries' types, so it comes last)
    const all = () => parseExperiment({ ...base, lambda: [0.5, 1.5], d: ['two'], extra: 1 }, 'x.json');
    // the unknown key first (a misspelt key is the likeliest cause of the rest), with the keys allowed there
    expect(all).toThrow(
      /^x\.json: \(top level\): unknown key "extra"; allowed keys: name, description, lambda, .*d\[0\]: Invalid input: expected number/,
    );
    expect(all).toThrow(/lambda\[1\]: Too big/);
    expect(() => parseExperiment({ ...base, selections: undefined })).toThrow(/give either "policies" or both/);
    expect(() => parseExperiment({ ...base, disciplines: ['lifo'] })).toThrow(/disciplines\[0\]/);
  });
});

describe('expandGrid', () => {
  it('expandGrid(spec) runs prediction-blind policies once and predicted ones once per prediction model', () => {
    const cells = expandGrid(parseExperiment(base));
    // per service: JSQ+FIFO (1) + JSQ+SPRPT (2) + LPW+FIFO (2) + LPW+SPRPT (2) = 7 policies×predictions, × 2 λ
    expect(cells).toHaveLength(2 * 7 * 2);
    expect(cells.filter((c) => c.policy === 'JSQ+FIFO').every((c) => c.prediction === 'none')).toBe(true);
    expect(new Set(cells.map((c) => c.key)).size).toBe(cells.length);
    expect(new Set(cells.map((c) => c.seed)).size).toBe(cells.length);
    expect(usesPrediction('jsq', 'srpt')).toBe(false);
    expect(usesPrediction('lpw', 'fifo')).toBe(true);
  });

  it('expandGrid(spec) gives each cell a validated model and an automatic warm-up that grows with load and SCV', () => {
    const cells = expandGrid(parseExperiment(base));
    const find = (service: string, lambda: number) =>
      cells.find((c) => c.service === service && c.lambda === lambda && c.policy === 'JSQ+FIFO')!;
    expect(find('exp', 0.9).model!.service).toEqual({ kind: 'exponential', mean: 1 });
    expect(find('exp', 0.9).warmupTime).toBeGreaterThan(find('exp', 0.5).warmupTime);
    // Weibull k = 1/2 has SCV 5: three times the exponential warm-up
    expect(find('weibull:0.5', 0.9).warmupTime).toBeCloseTo(3 * find('exp', 0.9).warmupTime, 6);
  });

  it('expandGrid(spec) rejects d > n and malformed services naming the problem', () => {
    expect(() => expandGrid(parseExperiment({ ...base, d: [200] }))).toThrow(/d = 200 exceeds n = 100/);
    expect(() => expandGrid(parseExperiment({ ...base, service: ['exp', 'weibull:-2'] }))).toThrow(
      /service\[1\] = "weibull:-2".*weibull shape must be > 0/,
    );
    expect(() => expandGrid(parseExperiment({ ...base, service: ['gamma:2'] }))).toThrow(/unknown service/);
  });

  it('expandGrid names "servers" (not only service[i]) when the server classes are wrong, and no prediction "none"', () => {
    const bad = { ...base, servers: { speeds: [1, 2], fractions: [0.5, 0.6] } };
    let message = '';
    try {
      expandGrid(parseExperiment(bad));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/servers \{"speeds":\[1,2\],"fractions":\[0\.5,0\.6\]\}: fractions must sum to 1/);
    expect(message).not.toMatch(/prediction "none"/);
  });
});

import { parseConjecture } from '../../src/claims/index.ts';
import { STUDY_CLAIM_FILES, judgeExperimentClaims, type CellOutcome } from '../../src/experiments/index.ts';
import { loadJsonFile } from '../../src/io/index.ts';
import { estimate } from '../stats/estimate.ts';

function outcome(policy: string, prediction: string, lambda: number, mean: number, h = 0.01): CellOutcome {
  const [selection, discipline] = policy.toLowerCase().split('+');
  return {
    cell: {
      key: `${policy}${prediction}${lambda}`,
      policy,
      selection,
      discipline,
      prediction,
      memory: 'none',
      lambda,
      service: 'exp',
      d: 2,
      n: 100,
      jobs: 1000,
      replications: 5,
    } as CellOutcome['cell'],
    result: {
      meanResponseTime: estimate(mean, h),
      meanQueueLength: estimate(mean * lambda, h),
      events: 1,
      eventsPerSecond: 1,
      wallSeconds: 1,
      warmupTime: 1,
      seeds: {},
    },
  };
}

describe('judgeExperimentClaims', () => {
  const claims = STUDY_CLAIM_FILES.map((f) => loadJsonFile(`analysis/${f}`, 'claim', parseConjecture));

  it('judgeExperimentClaims(H1–H3 claim files, cells) judges each claim per grid point with Bonferroni-widened CIs', () => {
    const f = judgeExperimentClaims(claims, [
      outcome('JSQ+FIFO', 'none', 0.5, 1.27),
      outcome('LWL+SRPT', 'none', 0.5, 1.1),
      outcome('JSQ+FIFO', 'none', 0.9, 2.6),
      outcome('LWL+SRPT', 'none', 0.9, 1.5),
      outcome('JSQ+SPRPT', 'exp', 0.9, 2.0, 0.05),
      outcome('LPW+SPRPT', 'exp', 0.9, 2.3, 0.05),
      outcome('JSQ+SPRPT', 'exp', 0.5, 1.3),
      outcome('LPW+SPRPT', 'exp', 0.5, 1.3),
    ]);
    const by = (claim: string, lambda: number) =>
      f.filter((x) => x.claim.startsWith(claim) && x.where.endsWith(`λ = ${lambda}`)).map((x) => x.verdict);
    // H1: T(lwl, srpt)/T(jsq, fifo) < 0.8: 1.1/1.27 = 0.866 fails, 1.5/2.6 = 0.577 holds
    expect(by('h1', 0.5)).toEqual(['fails']);
    expect(by('h1', 0.9)).toEqual(['holds']);
    // H2: T(jsq, sprpt) < 0.9 T(jsq, fifo): 1.3 vs 1.143 fails; 2.0 ± 0.063 vs 2.34 ± 0.011 holds
    expect(by('h2', 0.5)).toEqual(['fails']);
    expect(by('h2', 0.9)).toEqual(['holds']);
    // H3: T(jsq, sprpt) < T(lpw, sprpt): equal means undecided; 2.0 vs 2.3 with half-widths 0.05·1.259 holds
    expect(by('h3', 0.5)).toEqual(['undecided']);
    expect(by('h3', 0.9)).toEqual(['holds']);
    expect(f.find((x) => x.claim.startsWith('h3') && x.where.endsWith('0.9'))!.where).toBe('exp, d = 2, n = 100, prediction exp, λ = 0.9');
  });

  it('the Bonferroni widening decides: half-widths 0.05 (factor t(0.9875, 4)/t(0.975, 4) = 1.259) leave 2.0 vs 2.12 undecided', () => {
    // unwidened the intervals [1.95, 2.05] and [2.07, 2.17] are apart; widened by 1.259 they overlap
    const f = judgeExperimentClaims(
      [claims[2]],
      [outcome('JSQ+SPRPT', 'exp', 0.9, 2.0, 0.05), outcome('LPW+SPRPT', 'exp', 0.9, 2.12, 0.05)],
    );
    expect(f.map((x) => x.verdict)).toEqual(['undecided']);
    expect(judgeExperimentClaims([claims[2]], [outcome('JSQ+SPRPT', 'exp', 0.9, 2.0, 0.05)])).toEqual([]); // a missing cell: no verdict
  });
});

describe('experiment files with server speeds', () => {
  const hetero = { ...base, selections: ['jsq'], disciplines: ['fifo'], service: ['exp'], prediction: ['exact'] };
  it('accept λ ≥ 1 when the capacity Σ f·speed carries it (ρ = λE[S]/Σ f·speed = 1.2/1.5 = 0.8)', () => {
    const cells = expandGrid(parseExperiment({ ...hetero, lambda: [1.2], servers: { speeds: [1, 2] } }));
    expect(cells).toHaveLength(1);
    expect(cells[0].model!.servers!.speeds).toEqual([1, 2]);
  });
  it('refuse λ whose load overloads a class, naming λ and the class; without speeds λ ≥ 1 is refused by path', () => {
    expect(() => expandGrid(parseExperiment({ ...hetero, lambda: [1.6], servers: { speeds: [1, 2] } }))).toThrow(
      /lambda 1\.6, servers .*unstable load: ρ = λ·E\[S\]\/Σ f·speed = 1\.6\/1\.5/,
    );
    // random selection with uniform sampling sends class 1 (speed 1) λ = 1.2 > 1 although ρ = 0.8
    expect(() =>
      expandGrid(parseExperiment({ ...hetero, selections: ['random'], d: [1], lambda: [1.2], servers: { speeds: [1, 2] } })),
    ).toThrow(/unstable class 1 \(speed 1, fraction 0\.5\)/);
    expect(() => parseExperiment({ ...hetero, lambda: [1.2] })).toThrow(/lambda\[0\]: Too big/);
  });
});
