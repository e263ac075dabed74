import { describe, expect, it } from 'vitest';
import { learnPredictions, predictionQuality } from '../../src/learn/index.ts';
import { pairStatistics, parseSwf, parseSwim, type SwfJob, type SwimJob } from '../../src/traces/index.ts';
import { readTraceText } from '../../src/traces/load.ts';
import { InvalidModelError } from '../../src/errors.ts';
import { FB2010, HAVE_TRACES, KTH, MISSING_REASON } from '../traces/paths.ts';

/** A small deterministic SWF-like trace where run time = requested time / 4 exactly (an exact log-linear law). */
function synthetic(m: number): SwfJob[] {
  const jobs: SwfJob[] = [];
  let u = 12345;
  const rand = () => (u = (Math.imul(u, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let i = 0; i < m; i++) {
    const requestedTime = Math.round(60 * Math.exp(7 * rand()));
    const procs = 1 + Math.floor(16 * rand());
    const runTime = requestedTime / 4;
    jobs.push({
      format: 'swf',
      index: i,
      line: i + 1,
      id: i + 1,
      submitTime: 100 * i,
      waitTime: 0,
      runTime,
      size: runTime,
      allocatedProcessors: procs,
      averageCpuTime: undefined,
      usedMemory: undefined,
      requestedProcessors: procs,
      requestedTime,
      userEstimate: requestedTime,
      requestedMemory: undefined,
      status: 1,
      user: Math.floor(20 * rand()),
      group: 1,
      executable: undefined,
      queue: undefined,
      partition: undefined,
      precedingJob: undefined,
      thinkTime: undefined,
    });
  }
  return jobs;
}

describe('learnPredictions on a synthetic trace with an exact law', () => {
  const jobs = synthetic(600);

  it('learnPredictions(jobs, { model: "linear" }) recovers S = R/4 exactly (OLS on ln features)', () => {
    const r = learnPredictions(jobs, { model: 'linear' });
    expect(r.trainCount).toBe(300);
    expect(r.testCount).toBe(300);
    expect(r.predictions).toHaveLength(300);
    for (let i = 0; i < 300; i++) expect(r.predictions[i]).toBeCloseTo(jobs[300 + i].runTime, 6);
    expect(r.quality.learned.medianAbsLogError).toBeLessThan(1e-9);
    // the user estimate is exactly 4× the size: every job over-estimated by ln 4
    expect(r.quality.userEstimate!.over).toBe(1);
    expect(r.quality.userEstimate!.medianAbsLogError).toBeCloseTo(Math.log(4), 12);
  });

  it('learnPredictions(jobs, { model: "random-forest" }) ranks the test jobs almost perfectly and is deterministic per seed', () => {
    const o = { model: 'random-forest' as const, trees: 4, maxTrainSamples: 200, seed: 7 };
    const a = learnPredictions(jobs, o);
    expect(a.fitCount).toBe(200);
    expect(a.quality.learned.spearman).toBeGreaterThan(0.97);
    // a depth-8 tree is a step function of ln R: within a factor e^0.5 of the truth for most jobs
    expect(a.quality.learned.medianAbsLogError).toBeLessThan(0.5);
    const b = learnPredictions(jobs, o);
    expect(b.predictions).toEqual(a.predictions);
    const c = learnPredictions(jobs, { ...o, seed: 8 });
    expect(c.predictions).not.toEqual(a.predictions);
  });

  it('learnPredictions(jobs) does not leak the future: changing the last job’s run time changes no prediction', () => {
    const changed = jobs.map((j, i) => (i === jobs.length - 1 ? { ...j, runTime: 1e6, size: 1e6 } : j));
    for (const model of ['linear', 'random-forest'] as const) {
      const o = { model, trees: 4, maxTrainSamples: 200 };
      expect(learnPredictions(changed, o).predictions).toEqual(learnPredictions(jobs, o).predictions);
    }
  });

  it('learnPredictions(jobs, bad options) throws InvalidModelError naming the option', () => {
    expect(() => learnPredictions(jobs, { trainFraction: 1 })).toThrow('trainFraction must lie in (0, 1), got 1');
    expect(() => learnPredictions(jobs, { trees: 0 })).toThrow('trees must be an integer ≥ 1, got 0');
    expect(() => learnPredictions(jobs.slice(0, 3))).toThrow(InvalidModelError);
    expect(() => learnPredictions(jobs, { model: 'svm' as never })).toThrow("model must be 'random-forest' or 'linear'");
  });
});

describe.skipIf(!HAVE_TRACES)(`learnPredictions on the real traces${HAVE_TRACES ? '' : ` (skipped: ${MISSING_REASON})`}`, () => {
  it('learnPredictions(FB-2010) changes no prediction when test sizes change (features known at submission only)', () => {
    const { jobs } = parseSwim(readTraceText(FB2010), { source: 'FB', size: 'B' });
    const lin = learnPredictions(jobs, { model: 'linear' });
    const half = lin.trainCount;
    const scrambled: SwimJob[] = jobs.map((j, i) => (i >= half ? { ...j, size: 1, shuffleBytes: 0, outputBytes: 0 } : j));
    expect(learnPredictions(scrambled, { model: 'linear' }).predictions).toEqual(lin.predictions);
    // independent oracle: on the test part, ln m alone ranks B with Spearman ρ_m; the learned predictor, monotone in
    // ln(1+m) up to the m = 0 and gap terms, must rank about as well (and m ≤ B means m alone never over-estimates).
    const test = jobs.slice(half);
    const byM = pairStatistics(
      test.map((j) => j.size),
      test.map((j) => j.mapInputBytes),
    );
    expect(Math.abs(lin.quality.learned.spearman - byM.spearman)).toBeLessThan(0.05);
    expect(lin.quality.learned.logCorrelation).toBeGreaterThan(byM.logCorrelation - 0.05);
    expect(lin.quality.userEstimate).toBeUndefined();
    const rf = learnPredictions(jobs, { trees: 4, maxTrainSamples: 300 });
    expect(rf.quality.learned.spearman).toBeGreaterThan(byM.spearman - 0.05);
  });

  it('learnPredictions(KTH-SP2) reports the user estimate’s quality on exactly the test jobs', () => {
    const { jobs } = parseSwf(readTraceText(KTH), { source: 'KTH' });
    const r = learnPredictions(jobs, { model: 'linear', trainFraction: 0.5 });
    expect(r.trainCount).toBe(14238);
    const test = jobs.slice(14238);
    const expected = predictionQuality(
      test.map((j) => j.runTime),
      test.map((j) => j.requestedTime ?? NaN),
    );
    expect(r.quality.userEstimate).toEqual(expected);
    // a learned predictor from submission-time features ranks run times at least as well as a constant (ρ = 0),
    // and the features include the requested time (README corr 0.745 on all jobs)
    expect(r.quality.learned.spearman).toBeGreaterThan(0.5);
  });
});
