/**
 * Standard Workload Format reader (Parallel Workloads Archive; format v2.2,
 * https://www.cs.huji.ac.il/labs/parallel/workload/swf.html; data/README.md §1–2). Pure: takes the file text.
 */
import { InvalidModelError } from '../errors.ts';
import { TraceFormatError } from './errors.ts';
import { addSkip, type OnMalformed, type SkipReport, type SwfJob } from './job.ts';

/** Names of the 18 SWF fields, index i = field i + 1. */
export const SWF_FIELDS = [
  'job number', 'submit time', 'wait time', 'run time', 'allocated processors', 'average CPU time', 'used memory',
  'requested processors', 'requested time', 'requested memory', 'status', 'user id', 'group id', 'executable number',
  'queue', 'partition', 'preceding job', 'think time',
] as const;

export interface SwfOptions {
  /** File name used in error messages and results. */
  source: string;
  /** 'error' (default): a malformed record throws; 'skip': it is counted in `skipped` under its reason. */
  onMalformed?: OnMalformed;
  /** Keep only jobs whose status (field 11) is in this list, e.g. [1] for completed jobs; default: keep all. */
  status?: readonly number[];
}

export interface SwfTrace {
  format: 'swf';
  source: string;
  jobs: SwfJob[];
  /** Header comments `; Key: value`; repeated keys are joined with a newline. */
  header: Record<string, string>;
  /** Records left out: missing run time, missing submit time, status filter, malformed (when skipped). */
  skipped: SkipReport;
  /** The filter applied, as stated in results: `status` list or null for none. */
  filter: { status: number[] | null };
  /** Number of job records read (kept + skipped). */
  records: number;
}

const opt = (x: number): number | undefined => (x === -1 ? undefined : x);

/**
 * Parses an SWF log. Lines starting with ';' are header comments, blank lines are ignored; every other line must
 * hold 18 whitespace-separated numbers (−1 = missing). Records with run time −1 (or submit time −1) are skipped
 * and counted; so are records outside the `status` filter.
 * @param text the whole (decompressed) file.
 * @param options `source` (for messages), `onMalformed`, `status`.
 * @returns jobs in file order (`index` 0..jobs.length−1; `size` = run time s, `userEstimate` = requested time s),
 *   header, skipped counts, the filter and the record count.
 * @throws {TraceFormatError} on a line with ≠ 18 fields, a non-numeric field or a negative run time other than −1
 *   (unless `onMalformed` is 'skip').  @throws {InvalidModelError} if `status` holds a non-integer.
 * @example parseSwf('1 0 0 10 1 -1 -1 1 60 -1 1 3 1 -1 -1 -1 -1 -1', { source: 'x' }).jobs[0].runTime // 10
 */
export function parseSwf(text: string, options: SwfOptions): SwfTrace {
  const { source } = options;
  const onMalformed = options.onMalformed ?? 'error';
  const statusFilter = options.status ? [...options.status] : null;
  if (statusFilter?.some((s) => !Number.isInteger(s))) {
    throw new InvalidModelError(`status filter must hold integers, got ${JSON.stringify(statusFilter)}`);
  }
  const header: Record<string, string> = {};
  const skipped: SkipReport = { count: 0, reasons: {} };
  const jobs: SwfJob[] = [];
  const values = new Float64Array(18);
  let records = 0;
  const lines = text.split('\n');
  for (let l = 0; l < lines.length; l++) {
    const raw = lines[l];
    const line = raw.trim();
    if (line === '') continue;
    if (line[0] === ';') {
      const m = /^;\s*([A-Za-z][\w ]*?):\s*(.*)$/.exec(line);
      if (m) header[m[1]] = header[m[1]] === undefined ? m[2] : `${header[m[1]]}\n${m[2]}`;
      continue;
    }
    records++;
    const lineNo = l + 1;
    const fields = line.split(/\s+/);
    let problem: TraceFormatError | undefined;
    if (fields.length !== 18) {
      problem = new TraceFormatError(source, lineNo, '18 whitespace-separated fields (SWF)', `${fields.length}`);
    } else {
      for (let f = 0; f < 18; f++) {
        const x = Number(fields[f]);
        if (!Number.isFinite(x)) {
          problem = new TraceFormatError(source, lineNo, `a number in field ${f + 1} (${SWF_FIELDS[f]})`, JSON.stringify(fields[f]));
          break;
        }
        values[f] = x;
      }
      if (!problem && values[3] < 0 && values[3] !== -1) {
        problem = new TraceFormatError(source, lineNo, 'run time (field 4) ≥ 0 or −1 (missing)', `${values[3]}`);
      }
    }
    if (problem) {
      if (onMalformed === 'error') throw problem;
      addSkip(skipped, problem.expected.startsWith('18') ? 'malformed: wrong field count' : 'malformed: bad field value');
      continue;
    }
    if (values[3] === -1) { addSkip(skipped, 'missing run time'); continue; }
    if (values[1] < 0) { addSkip(skipped, 'missing submit time'); continue; }
    const status = opt(values[10]);
    if (statusFilter && (status === undefined || !statusFilter.includes(status))) {
      addSkip(skipped, `status not in [${statusFilter.join(', ')}]`);
      continue;
    }
    const requestedTime = opt(values[8]);
    jobs.push({
      format: 'swf', index: jobs.length, line: lineNo, id: values[0], submitTime: values[1], waitTime: opt(values[2]),
      runTime: values[3], size: values[3], allocatedProcessors: opt(values[4]), averageCpuTime: opt(values[5]),
      usedMemory: opt(values[6]), requestedProcessors: opt(values[7]), requestedTime, userEstimate: requestedTime,
      requestedMemory: opt(values[9]), status, user: opt(values[11]), group: opt(values[12]),
      executable: opt(values[13]), queue: opt(values[14]), partition: opt(values[15]),
      precedingJob: opt(values[16]), thinkTime: opt(values[17]),
    });
  }
  return { format: 'swf', source, jobs, header, skipped, filter: { status: statusFilter }, records };
}
