/**
 * SWIM Hadoop workload reader (SWIMProjectUCB/SWIM, FB-2010 TSV; data/README.md §3). Pure: takes the file text.
 * Columns: job id, submit time (s), inter-job submit gap (s), map input bytes m, shuffle bytes s, reduce output
 * bytes r. No service time is recorded: the size is a byte model, B = m + s + r or D = m + (1 + d/n)·s + r with
 * d/n = 4 (Dell'Amico's schedsim `swim_parser.py`), so D = m + 5·s + r.
 */
import { TraceFormatError } from './errors.ts';
import { addSkip, type OnMalformed, type SkipReport, type SwimJob, type SwimSize } from './job.ts';

export const SWIM_FIELDS = [
  'job id',
  'submit time',
  'inter-job submit gap',
  'map input bytes',
  'shuffle bytes',
  'reduce output bytes',
] as const;

export interface SwimOptions {
  /** File name used in error messages and results. */
  source: string;
  /** Size definition: 'B' = m + s + r (default), 'D' = m + 5·s + r. */
  size?: SwimSize;
  /** 'error' (default): a malformed record throws; 'skip': it is counted in `skipped`. */
  onMalformed?: OnMalformed;
}

export interface SwimTrace {
  format: 'swim';
  source: string;
  jobs: SwimJob[];
  /** The size definition used, with its formula. */
  size: { kind: SwimSize; formula: string };
  skipped: SkipReport;
  records: number;
  /**
   * Kept records that disagree with the file without being left out: 'gap ≠ submit-time difference' counts jobs
   * whose gap column differs from submit − previous submit (the first job: from 0) by more than
   * `SWIM_GAP_TOLERANCE` (checked only after a kept record). The replay uses the submit times.
   */
  warnings: SkipReport;
}

/** Seconds the gap column may differ from the submit-time difference: three values each rounded to the second. */
export const SWIM_GAP_TOLERANCE = 1.5;

/** Size of a SWIM job in bytes under definition `kind`. */
export function swimSize(kind: SwimSize, m: number, s: number, r: number): number {
  return kind === 'B' ? m + s + r : m + 5 * s + r;
}

/**
 * Parses a SWIM TSV workload: one job per line, 6 tab-separated fields, the last five non-negative numbers.
 * @param text the whole file.
 * @param options `source`, `size` ('B' | 'D'), `onMalformed`.
 * @returns jobs in file order (`size` in bytes, `userEstimate` undefined), the size definition, skipped counts, and
 *   `warnings`: gap column vs submit-time differences (tolerance `SWIM_GAP_TOLERANCE`).
 * @throws {TraceFormatError} on a line with ≠ 6 fields or a field that is not a number ≥ 0 (unless skipping).
 * @example parseSwim('job0\t9\t9\t10\t2\t3', { source: 'x', size: 'D' }).jobs[0].size // 23
 */
export function parseSwim(text: string, options: SwimOptions): SwimTrace {
  const { source } = options;
  const kind = options.size ?? 'B';
  const onMalformed = options.onMalformed ?? 'error';
  const skipped: SkipReport = { count: 0, reasons: {} };
  const warnings: SkipReport = { count: 0, reasons: {} };
  let previousSubmit: number | undefined = 0; // the first gap counts from the trace start; undefined after a skip
  const jobs: SwimJob[] = [];
  const v = new Float64Array(6);
  let records = 0;
  const lines = text.split('\n');
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l].replace(/\r$/, '');
    if (line.trim() === '') continue;
    records++;
    const fields = line.split('\t');
    let problem: TraceFormatError | undefined;
    if (fields.length !== 6) {
      problem = new TraceFormatError(source, l + 1, '6 tab-separated fields (SWIM)', `${fields.length}`);
    } else {
      for (let f = 1; f < 6; f++) {
        const x = Number(fields[f]);
        if (fields[f].trim() === '' || !Number.isFinite(x) || x < 0) {
          problem = new TraceFormatError(source, l + 1, `a number ≥ 0 in field ${f + 1} (${SWIM_FIELDS[f]})`, JSON.stringify(fields[f]));
          break;
        }
        v[f] = x;
      }
    }
    if (problem) {
      if (onMalformed === 'error') throw problem;
      addSkip(skipped, problem.expected.startsWith('6 ') ? 'malformed: wrong field count' : 'malformed: bad field value');
      previousSubmit = undefined;
      continue;
    }
    if (previousSubmit !== undefined && Math.abs(v[2] - (v[1] - previousSubmit)) > SWIM_GAP_TOLERANCE)
      addSkip(warnings, 'gap ≠ submit-time difference');
    previousSubmit = v[1];
    jobs.push({
      format: 'swim',
      index: jobs.length,
      line: l + 1,
      id: fields[0],
      submitTime: v[1],
      gap: v[2],
      mapInputBytes: v[3],
      shuffleBytes: v[4],
      outputBytes: v[5],
      size: swimSize(kind, v[3], v[4], v[5]),
      userEstimate: undefined,
    });
  }
  const formula = kind === 'B' ? 'B = m + s + r (bytes)' : 'D = m + 5·s + r (bytes; schedsim, d/n = 4)';
  return { format: 'swim', source, jobs, size: { kind, formula }, skipped, records, warnings };
}
