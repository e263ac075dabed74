import { describe, expect, it } from 'vitest';
import {
  describeClock,
  parseSwf,
  swfClock,
  TraceFormatError,
  traceStatistics,
  wallClock,
  type TraceStatistics,
} from '../../src/traces/index.ts';
import { buildFeatures } from '../../src/learn/index.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadTrace, readTraceText } from '../../src/traces/load.ts';
import { SupermarketError } from '../../src/errors.ts';
import { HAVE_TRACES, HPC2N, KTH, MISSING_REASON } from './paths.ts';

const rec = (f: Partial<Record<number, number | string>>) =>
  Array.from({ length: 18 }, (_, i) => f[i + 1] ?? (i === 0 ? 1 : i === 1 ? 0 : i === 3 ? 10 : -1)).join(' ');

describe('parseSwf on synthetic text', () => {
  const text = [
    '; Version: 2.2',
    '; Note: first',
    ';       continuation without key',
    '; Note: second',
    '',
    rec({ 1: 7, 2: 100, 3: 5, 4: 60, 5: 4, 8: 4, 9: 120, 11: 1, 12: 3, 13: 2 }),
    rec({ 1: 8, 2: 110, 4: -1 }),
    rec({ 1: 9, 2: 120, 4: 30, 11: 0 }),
  ].join('\n');

  it('parseSwf(text) reads the 18 fields, maps −1 to undefined, and keeps the header', () => {
    const t = parseSwf(text, { source: 'toy.swf' });
    expect(t.records).toBe(3);
    expect(t.jobs).toHaveLength(2);
    const j = t.jobs[0];
    expect(j).toMatchObject({
      index: 0,
      line: 6,
      id: 7,
      submitTime: 100,
      waitTime: 5,
      runTime: 60,
      size: 60,
      allocatedProcessors: 4,
      requestedProcessors: 4,
      requestedTime: 120,
      userEstimate: 120,
      status: 1,
      user: 3,
      group: 2,
    });
    expect(j.queue).toBeUndefined();
    expect(j.averageCpuTime).toBeUndefined();
    expect(t.jobs[1]).toMatchObject({ index: 1, line: 8, requestedTime: undefined, userEstimate: undefined, status: 0 });
    expect(t.header).toEqual({ Version: '2.2', Note: 'first\nsecond' });
  });

  it('parseSwf(text) skips and counts records with missing run time', () => {
    const t = parseSwf(text, { source: 'toy.swf' });
    expect(t.skipped).toEqual({ count: 1, reasons: { 'missing run time': 1 } });
    expect(t.filter).toEqual({ status: null });
  });

  it('parseSwf(text, { status: [1] }) keeps only completed jobs and states the filter', () => {
    const t = parseSwf(text, { source: 'toy.swf', status: [1] });
    expect(t.jobs.map((j) => j.id)).toEqual([7]);
    expect(t.skipped.reasons).toEqual({ 'missing run time': 1, 'status not in [1]': 1 });
    expect(t.filter).toEqual({ status: [1] });
  });

  it('parseSwf(text) throws a TraceFormatError naming file, line and expected field count on a short line', () => {
    const bad = `${rec({})}\n; c\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n`;
    expect(() => parseSwf(bad, { source: 'bad.swf' })).toThrow(TraceFormatError);
    expect(() => parseSwf(bad, { source: 'bad.swf' })).toThrow('bad.swf:3: expected 18 whitespace-separated fields (SWF), found 17');
    try {
      parseSwf(bad, { source: 'bad.swf' });
    } catch (e) {
      expect(e).toBeInstanceOf(SupermarketError);
      expect((e as TraceFormatError).line).toBe(3);
    }
  });

  it('parseSwf(text) names the line and the field of a non-numeric value', () => {
    const bad = `${rec({})}\n${rec({ 9: 'abc' })}`;
    expect(() => parseSwf(bad, { source: 'bad.swf' })).toThrow('bad.swf:2: expected a number in field 9 (requested time), found "abc"');
  });

  it('parseSwf(text, { onMalformed: "skip" }) skips malformed records and counts them by reason', () => {
    const bad = [rec({}), '1 2 3', rec({ 4: 'x' }), rec({ 4: -5 }), rec({ 2: 9 })].join('\n');
    const t = parseSwf(bad, { source: 'bad.swf', onMalformed: 'skip' });
    expect(t.jobs).toHaveLength(2);
    expect(t.skipped).toEqual({ count: 3, reasons: { 'malformed: wrong field count': 1, 'malformed: bad field value': 2 } });
  });
});

// Oracle: the statistics table of ../shared/data/README.md (computed there independently of this code).
describe('swfClock and wallClock', () => {
  const stockholm = { kind: 'local', unixStartTime: 843480031, timeZone: 'Europe/Stockholm' } as const; // Mon Sep 23 14:00:31 CEST 1996

  it('swfClock(header) reads UnixStartTime and TimeZoneString, falls back to TimeZone, else is log-relative', () => {
    expect(swfClock({ UnixStartTime: '843480031', TimeZone: '3600', TimeZoneString: 'Europe/Stockholm' })).toEqual(stockholm);
    expect(swfClock({ UnixStartTime: '843480031', TimeZone: '3600', TimeZoneString: 'Nowhere/Atlantis' })).toEqual({
      kind: 'fixed-offset',
      unixStartTime: 843480031,
      offsetSeconds: 3600,
    });
    expect(swfClock({ TimeZoneString: 'Europe/Stockholm' })).toEqual({ kind: 'log-relative' });
    expect(swfClock({ UnixStartTime: '843480031' })).toEqual({ kind: 'log-relative' });
    expect(describeClock({ kind: 'log-relative' })).toMatch(/^log-relative/);
  });

  it('wallClock(local clock, t) applies daylight saving: 14:00 CEST at t = 0, Sunday 13:00 CET 90 days later', () => {
    expect(wallClock(stockholm, 0)).toEqual({ hour: 14, weekday: 0 });
    expect(wallClock(stockholm, 90 * 86400)).toEqual({ hour: 13, weekday: 6 }); // Sun Dec 22 1996, CET = UTC+1
    // a fixed offset has no daylight saving: 13:00 both times (UTC+1)
    const fixed = { kind: 'fixed-offset', unixStartTime: 843480031, offsetSeconds: 3600 } as const;
    expect(wallClock(fixed, 0)).toEqual({ hour: 13, weekday: 0 });
    expect(wallClock(fixed, 90 * 86400)).toEqual({ hour: 13, weekday: 6 });
    expect(wallClock({ kind: 'log-relative' }, 599850)).toEqual({ hour: 22, weekday: 6 });
  });
});

/** Digits to which the README's trace table prints each statistic (the median size is an integer, checked exactly). */
const SIZE_DIGITS = { meanSize: 1, scvSize: 2, meanInterArrival: 1, scvInterArrival: 1 } as const;
const ESTIMATE_DIGITS = { logCorrelation: 3, spearman: 3, over: 3, equal: 4, under: 4, medianRatio: 2 } as const;
type ReadmeRow = Partial<Record<keyof typeof SIZE_DIGITS | keyof typeof ESTIMATE_DIGITS | 'medianSize', number>>;

/** `s` agrees with the README's row to the printed digits, for each statistic the row gives. */
function expectReadmeRow(s: TraceStatistics, row: ReadmeRow): void {
  for (const [key, value] of Object.entries(row) as [keyof ReadmeRow, number][]) {
    if (key === 'medianSize') expect(s.medianSize, key).toBe(value);
    else if (key in SIZE_DIGITS) {
      const k = key as keyof typeof SIZE_DIGITS;
      expect(s[k], k).toBeCloseTo(value, SIZE_DIGITS[k]);
    } else {
      const k = key as keyof typeof ESTIMATE_DIGITS;
      expect(s.userEstimate![k], k).toBeCloseTo(value, ESTIMATE_DIGITS[k]);
    }
  }
}

describe.skipIf(!HAVE_TRACES)(`parseSwf on the real logs${HAVE_TRACES ? '' : ` (skipped: ${MISSING_REASON})`}`, () => {
  it('parseSwf(KTH-SP2) + traceStatistics match the README: 28,476 jobs, mean S 8,871.9 s, SCV 5.49, corr 0.745', () => {
    const text = readTraceText(KTH);
    const t = parseSwf(text, { source: 'KTH' });
    expect(t.jobs).toHaveLength(28476);
    expect(t.header.MaxRecords).toBe('28476');
    expect(t.skipped.count).toBe(0);
    const s = traceStatistics(t.jobs);
    expectReadmeRow(s, { meanSize: 8871.9, scvSize: 5.49, medianSize: 847, meanInterArrival: 1010.1, scvInterArrival: 10.9 });
    expect(s.span / 86400).toBeCloseTo(332.9, 1);
    expectReadmeRow(s, { logCorrelation: 0.745, spearman: 0.748, over: 0.982, equal: 0.0013, under: 0.0167, medianRatio: 2.42 });
    // completed only (status 1)
    const c = parseSwf(text, { source: 'KTH', status: [1] });
    expect(c.jobs).toHaveLength(20530);
    expect(c.skipped.count).toBe(7946);
    const sc = traceStatistics(c.jobs);
    expectReadmeRow(sc, { meanSize: 6135.7, scvSize: 5.56, medianSize: 582 });
    expectReadmeRow(sc, { logCorrelation: 0.67, spearman: 0.666, over: 0.998, medianRatio: 4.04 });
    expect(sc.userEstimate!.equal).toBe(0);
  });

  it('parseSwf(HPC2N) + traceStatistics match the README: 202,871 jobs, mean S 17,024.2 s, SCV 6.78, corr 0.517', () => {
    const t = parseSwf(readTraceText(HPC2N), { source: 'HPC2N' });
    expect(t.jobs).toHaveLength(202871);
    const s = traceStatistics(t.jobs);
    expectReadmeRow(s, { meanSize: 17024.2, scvSize: 6.78, medianSize: 2873, meanInterArrival: 538.5, scvInterArrival: 31.7 });
    expectReadmeRow(s, { logCorrelation: 0.517, spearman: 0.545, over: 0.926, equal: 0.001, under: 0.073, medianRatio: 2.11 });
    // completed only: filter the parsed jobs (parsing once keeps the test fast; parseSwf's filter is tested on KTH)
    const done = t.jobs.filter((j) => j.status === 1);
    expect(done).toHaveLength(201993);
    expect(t.jobs.filter((j) => j.status === undefined)).toHaveLength(878);
    expectReadmeRow(traceStatistics(done), { meanSize: 16931.5, medianSize: 2871, logCorrelation: 0.516, under: 0.0733 });
  });
});

describe.skipIf(!HAVE_TRACES)(`time-of-day features of KTH-SP2${HAVE_TRACES ? '' : ` (skipped: ${MISSING_REASON})`}`, () => {
  it('buildFeatures(KTH jobs, m, trace.clock) puts the job submitted at 599 850 s on Monday 12:38 local time (hour 12, day 0)', () => {
    const trace = parseSwf(readTraceText(KTH), { source: 'KTH' });
    expect(trace.clock).toEqual({ kind: 'local', unixStartTime: 843480031, timeZone: 'Europe/Stockholm' });
    const i = trace.jobs.findIndex((j) => j.submitTime === 599850);
    expect(trace.jobs[i].id).toBe(15);
    const local = buildFeatures(trace.jobs, trace.jobs.length, trace.clock);
    expect(local.timeOfDay).toMatch(/^local time in Europe\/Stockholm/);
    expect(local.rows[i][local.names.indexOf('hour of day')]).toBe(12);
    expect(local.rows[i][local.names.indexOf('day of week')]).toBe(0);
    // without the header's clock the features count from the log's first second, and say so
    const relative = buildFeatures(trace.jobs, trace.jobs.length);
    expect(relative.timeOfDay).toMatch(/^log-relative/);
    expect(relative.rows[i][relative.names.indexOf('hour of day (log-relative)')]).toBe(22);
    expect(relative.rows[i][relative.names.indexOf('day of week (log-relative)')]).toBe(6);
  });
});

describe('loadTrace on a broken .gz', () => {
  // trial M3: a truncated download surfaced as "internal error: unexpected end of file" (zlib's), naming no file
  it('a truncated or non-gzip .gz is one SupermarketError naming the file, not zlib internals', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trace-gz-'));
    try {
      const whole = gzipSync(Buffer.from('1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n'.repeat(50)));
      const truncated = path.join(dir, 'cut.swf.gz');
      writeFileSync(truncated, whole.subarray(0, whole.length - 12));
      expect(() => loadTrace(truncated)).toThrow(SupermarketError);
      expect(() => loadTrace(truncated)).toThrow(
        /^cannot gunzip .*cut\.swf\.gz: unexpected end of file \(a truncated download, or not gzip\)$/,
      );
      const plain = path.join(dir, 'plain.swf.gz');
      writeFileSync(plain, 'not gzip at all\n');
      expect(() => readTraceText(plain)).toThrow(/cannot gunzip .*plain\.swf\.gz: incorrect header check/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('loadTrace refusals name the fault a user can fix', () => {
  // trial s14: `replay /nonexist.csv` said "cannot tell the trace format … give format 'swf' or 'swim'" (no such
  // option on the command line) before saying the file is missing
  it('a missing file of an unknown kind is missing first; an unknown kind names --format', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trace-kind-'));
    try {
      expect(() => loadTrace(path.join(dir, 'absent.csv'))).toThrow(/ENOENT/);
      const csv = path.join(dir, 'jobs.csv');
      writeFileSync(csv, '1,2\n');
      expect(() => loadTrace(csv)).toThrow(/cannot tell the trace format of .*jobs\.csv.*\(--format on the command line\)$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
