import { describe, expect, it } from 'vitest';
import { parseSwf, traceWorkload, type TraceJob } from '../../src/traces/index.ts';
import { readTraceText } from '../../src/traces/load.ts';
import { InvalidModelError } from '../../src/errors.ts';
import { HAVE_TRACES, KTH, MISSING_REASON } from './paths.ts';

const job = (index: number, submitTime: number, size: number, userEstimate?: number): TraceJob => ({
  index,
  line: index + 1,
  submitTime,
  size,
  userEstimate,
});

describe('traceWorkload', () => {
  const jobs = [job(0, 100, 10, 20), job(1, 102, 30, 30), job(2, 110, 0, 5), job(3, 120, 40, 10)];

  it('traceWorkload(jobs, { targetLoad, servers }) gives sizes of mean 1 and arrivals at rate ρn from 0', () => {
    const w = traceWorkload(jobs, { targetLoad: 0.8, servers: 5, rescale: 'sizes' });
    expect(Array.from(w.sizes)).toEqual([0.5, 1.5, 0, 2]); // mean size 20
    expect(w.arrivals[0]).toBe(0);
    // 3 gaps over a span of 20 s → mean gap 1/(ρn) = 0.25: arrivals = (t − 100)·(0.25·3/20)
    expect(Array.from(w.arrivals)).toEqual([0, 2, 10, 20].map((t) => t * 0.0375));
    // offered load per server: (mean size)/(n · mean gap) = 1/(5·0.25) = 0.8
    const lambdaPerServer = (w.arrivals.length - 1) / w.arrivals[w.arrivals.length - 1] / 5;
    expect(lambdaPerServer).toBeCloseTo(0.8, 14);
    expect(w.predictions).toBeUndefined();
    expect(w.meta.meanSize).toBe(20);
    expect(w.meta.originalLoad).toBeCloseTo(20 / ((5 * 20) / 3), 14);
    expect(w.meta.factor).toBeCloseTo(0.8 / w.meta.originalLoad, 14);
  });

  it('traceWorkload(jobs, { rescale }) gives the same arrays for "sizes" and "arrivals" (time-unit invariance); the factors are reciprocal', () => {
    const a = traceWorkload(jobs, { targetLoad: 0.9, servers: 3, rescale: 'sizes' });
    const b = traceWorkload(jobs, { targetLoad: 0.9, servers: 3, rescale: 'arrivals' });
    expect(b.arrivals).toEqual(a.arrivals);
    expect(b.sizes).toEqual(a.sizes);
    expect(a.meta.factor * b.meta.factor).toBeCloseTo(1, 14);
  });

  it('traceWorkload(jobs, { predictions }) scales predictions like sizes; "user-estimate" uses the trace column', () => {
    const w = traceWorkload(jobs, { targetLoad: 0.5, servers: 1, rescale: 'sizes', predictions: 'user-estimate' });
    expect(Array.from(w.predictions!)).toEqual([1, 1.5, 0.25, 0.5]);
    expect(w.meta.predictionSource).toBe('user-estimate');
    const g = traceWorkload(jobs, { targetLoad: 0.5, servers: 1, rescale: 'sizes', predictions: [20, 40, 60, 80] });
    expect(Array.from(g.predictions!)).toEqual([1, 2, 3, 4]);
  });

  it('traceWorkload(jobs) sorts jobs by submit time (stably) and says so', () => {
    const w = traceWorkload([job(0, 5, 1), job(1, 0, 3), job(2, 10, 2)], {
      targetLoad: 0.5,
      servers: 1,
      rescale: 'sizes',
      predictions: [10, 30, 20],
    });
    expect(w.meta.sorted).toBe(true);
    expect(Array.from(w.sizes)).toEqual([1.5, 0.5, 1]);
    expect(Array.from(w.predictions!)).toEqual([15, 5, 10]);
    expect(Array.from(w.arrivals)).toEqual([0, 2, 4]); // mean gap 1/(ρn) = 2
  });

  it('traceWorkload(jobs, bad options) throws InvalidModelError naming the value', () => {
    const o = { targetLoad: 0.5, servers: 2, rescale: 'sizes' as const };
    expect(() => traceWorkload(jobs, { ...o, targetLoad: 0 })).toThrow(InvalidModelError);
    expect(() => traceWorkload(jobs, { ...o, servers: 1.5 })).toThrow('servers must be an integer ≥ 1, got 1.5');
    expect(() => traceWorkload(jobs.slice(0, 1), o)).toThrow('at least 2 jobs');
    expect(() => traceWorkload([job(0, 1, 1), job(1, 1, 1)], o)).toThrow('same submit time');
    expect(() => traceWorkload(jobs, { ...o, predictions: [1, 2] })).toThrow('one value per job (4), got 2');
    expect(() => traceWorkload([job(0, 1, 1), job(1, 2, 1)], { ...o, predictions: 'user-estimate' })).toThrow('has no user estimate');
  });

  it.skipIf(!HAVE_TRACES)(
    `traceWorkload(KTH jobs) has mean size 1 and offered load ρ·m/(m−1) over the replay${HAVE_TRACES ? '' : ` (skipped: ${MISSING_REASON})`}`,
    () => {
      const { jobs: kth } = parseSwf(readTraceText(KTH), { source: 'KTH' });
      const n = 100;
      const w = traceWorkload(kth, { targetLoad: 0.9, servers: n, rescale: 'arrivals', predictions: 'user-estimate' });
      const m = kth.length;
      let total = 0;
      for (const s of w.sizes) total += s;
      expect(total / m).toBeCloseTo(1, 12);
      // work offered per server per unit time over [0, last arrival]
      expect(total / (n * w.arrivals[m - 1])).toBeCloseTo((0.9 * m) / (m - 1), 10);
      // original machine: 100 processors, but one server per job: load = E[S]/(n·E[gap]) = 8871.9/(100·1010.1)
      expect(w.meta.originalLoad).toBeCloseTo(8871.85 / (100 * 1010.141), 4);
      expect(w.predictions![0]).toBeCloseTo(kth[0].requestedTime! / w.meta.meanSize, 12);
    },
  );
});
