import { describe, expect, it } from 'vitest';
import { pairStatistics, parseSwim, TraceFormatError, traceStatistics } from '../../src/traces/index.ts';
import { readTraceText } from '../../src/traces/load.ts';
import { FB2010, HAVE_TRACES, MISSING_REASON } from './paths.ts';

describe('parseSwim on synthetic text', () => {
  it('parseSwim(text, { size }) reads the 6 columns and builds B = m + s + r and D = m + 5s + r', () => {
    const text = 'job0\t9\t9\t100\t20\t3\njob1\t18\t9\t0\t0\t0\n';
    const b = parseSwim(text, { source: 'toy.tsv', size: 'B' });
    expect(b.jobs[0]).toMatchObject({
      id: 'job0',
      index: 0,
      line: 1,
      submitTime: 9,
      gap: 9,
      mapInputBytes: 100,
      shuffleBytes: 20,
      outputBytes: 3,
      size: 123,
    });
    expect(b.jobs[1].size).toBe(0);
    expect(traceStatistics(b.jobs).zeroSizeJobs).toBe(1);
    expect(b.jobs[0].userEstimate).toBeUndefined();
    expect(parseSwim(text, { source: 'toy.tsv', size: 'D' }).jobs[0].size).toBe(100 + 5 * 20 + 3);
    expect(parseSwim(text, { source: 'toy.tsv' }).size.kind).toBe('B');
  });

  it('parseSwim(text) throws a TraceFormatError naming the line on a wrong field count or a non-numeric field', () => {
    expect(() => parseSwim('job0\t1\t1\t1\t1\t1\njob1\t2\t1\t1\t1', { source: 'x.tsv' })).toThrow(TraceFormatError);
    expect(() => parseSwim('job0\t1\t1\t1\t1\t1\njob1\t2\t1\t1\t1', { source: 'x.tsv' })).toThrow(
      'x.tsv:2: expected 6 tab-separated fields (SWIM), found 5',
    );
    expect(() => parseSwim('job0\t1\t1\tNaN\t1\t1', { source: 'x.tsv' })).toThrow(
      'x.tsv:1: expected a number ≥ 0 in field 4 (map input bytes), found "NaN"',
    );
    expect(() => parseSwim('job0\t1\t1\t1\t-1\t1', { source: 'x.tsv' })).toThrow('field 5 (shuffle bytes)');
  });

  it('parseSwim(text) counts gaps that disagree with the submit-time differences by more than 1.5 s, as warnings', () => {
    // gaps: 9 (= 9 − 0), 9 (= 18 − 9), 5 (≠ 30 − 18 = 12), 2 (= 31 − 30 + 1: within rounding), 0 (≠ 40 − 31 = 9)
    const text = [
      'job0\t9\t9\t1\t1\t1',
      'job1\t18\t9\t1\t1\t1',
      'job2\t30\t5\t1\t1\t1',
      'job3\t31\t2\t1\t1\t1',
      'job4\t40\t0\t1\t1\t1',
    ].join('\n');
    const t = parseSwim(text, { source: 'toy.tsv' });
    expect(t.jobs).toHaveLength(5);
    expect(t.warnings).toEqual({ count: 2, reasons: { 'gap ≠ submit-time difference': 2 } });
    // after a skipped record the next gap is not checked (its predecessor is unknown)
    const skipped = parseSwim(['job0\t9\t9\t1\t1\t1', 'bad', 'job2\t30\t5\t1\t1\t1'].join('\n'), {
      source: 'toy.tsv',
      onMalformed: 'skip',
    });
    expect(skipped.warnings.count).toBe(0);
  });

  it('parseSwim(text, { onMalformed: "skip" }) counts the skipped records', () => {
    const t = parseSwim('job0\t1\t1\t1\t1\t1\nbad\njob2\t3\t1\tx\t1\t1\n', { source: 'x.tsv', onMalformed: 'skip' });
    expect(t.jobs).toHaveLength(1);
    expect(t.skipped).toEqual({ count: 2, reasons: { 'malformed: wrong field count': 1, 'malformed: bad field value': 1 } });
  });
});

describe.skipIf(!HAVE_TRACES)(`parseSwim on FB-2010${HAVE_TRACES ? '' : ` (skipped: ${MISSING_REASON})`}`, () => {
  const text = HAVE_TRACES ? readTraceText(FB2010) : '';
  const m = (t: ReturnType<typeof parseSwim>) => t.jobs.map((j) => j.mapInputBytes);
  const sizes = (t: ReturnType<typeof parseSwim>) => t.jobs.map((j) => j.size);

  it('parseSwim(FB-2010) finds every gap equal to the submit-time difference (no warning)', () => {
    expect(parseSwim(readTraceText(FB2010), { source: 'FB-2010' }).warnings.count).toBe(0);
  });

  it('parseSwim(FB-2010, { size: "B" }) matches the README: 24,442 jobs, mean 7.61e10 B, SCV 120.0, corr(ln m, ln B) 0.917', () => {
    const t = parseSwim(text, { source: 'FB', size: 'B' });
    expect(t.jobs).toHaveLength(24442);
    const s = traceStatistics(t.jobs);
    expect(s.meanSize / 1e10).toBeCloseTo(7.61, 2);
    expect(s.scvSize).toBeCloseTo(120.0, 1);
    expect(s.medianSize / 1e7).toBeCloseTo(3.35, 2);
    expect(s.meanInterArrival).toBeCloseTo(3.535, 3);
    expect(s.scvInterArrival).toBeCloseTo(44.5, 1);
    expect(s.userEstimate).toBeUndefined();
    const f = pairStatistics(sizes(t), m(t));
    expect(f.count).toBe(24024);
    expect(f.logCorrelation).toBeCloseTo(0.917, 3);
    expect(f.spearman).toBeCloseTo(0.914, 3);
    expect(f.over).toBe(0); // m ≤ B always
    expect(f.equal).toBeCloseTo(0.011, 3);
    expect(t.jobs.filter((j) => j.size === 0)).toHaveLength(127);
    expect(t.jobs.filter((j) => j.shuffleBytes === 0)).toHaveLength(8324);
  });

  it('parseSwim(FB-2010, { size: "D" }) matches the README: mean 1.48e11 B, SCV 198.1, corr(ln m, ln D) 0.914', () => {
    const t = parseSwim(text, { source: 'FB', size: 'D' });
    const s = traceStatistics(t.jobs);
    expect(s.meanSize / 1e11).toBeCloseTo(1.48, 2);
    expect(s.scvSize).toBeCloseTo(198.1, 1);
    expect(s.medianSize / 1e7).toBeCloseTo(6.48, 2);
    const f = pairStatistics(sizes(t), m(t));
    expect(f.logCorrelation).toBeCloseTo(0.914, 3);
    expect(f.spearman).toBeCloseTo(0.914, 3);
  });
});
