/**
 * Standard Workload Format reader (Parallel Workloads Archive; format v2.2,
 * https://www.cs.huji.ac.il/labs/parallel/workload/swf.html; data/README.md §1–2). Pure: takes the file text.
 */
import { InvalidModelError } from '../errors.ts';
import { TraceFormatError } from './errors.ts';
import { addSkip, type OnMalformed, type SkipReport, type SwfJob } from './job.ts';

/** Names of the 18 SWF fields, index i = field i + 1. */
export const SWF_FIELDS = [
  'job number',
  'submit time',
  'wait time',
  'run time',
  'allocated processors',
  'average CPU time',
  'used memory',
  'requested processors',
  'requested time',
  'requested memory',
  'status',
  'user id',
  'group id',
  'executable number',
  'queue',
  'partition',
  'preceding job',
  'think time',
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
  /** How submit times map to the wall clock (from the header; `swfClock`). */
  clock: TraceClock;
}

/**
 * How a trace's submit times (seconds from the log start) map to local wall-clock time, for time-of-day features.
 * - 'local': the header's `UnixStartTime` and IANA `TimeZoneString` (daylight saving applied through
 *   Intl.DateTimeFormat); - 'fixed-offset': `UnixStartTime` with only the header's `TimeZone` (seconds east of UTC, no
 *   daylight saving; SWF v2.2 deprecates it for TimeZoneString); - 'log-relative': no `UnixStartTime`, so hours
 *   and days count from the log's first second, not from midnight or Monday.
 */
export type TraceClock =
  | { kind: 'local'; unixStartTime: number; timeZone: string }
  | { kind: 'fixed-offset'; unixStartTime: number; offsetSeconds: number }
  | { kind: 'log-relative' };

/**
 * The clock an SWF header declares (format v2.2 header fields UnixStartTime, TimeZoneString, TimeZone).
 * A TimeZoneString that Intl does not know falls back to TimeZone; without a usable zone (no UTC is assumed) or
 * without UnixStartTime the clock is 'log-relative'.
 * @example swfClock({ UnixStartTime: '843480031', TimeZoneString: 'Europe/Stockholm' }).kind // 'local'
 */
export function swfClock(header: Readonly<Record<string, string>>): TraceClock {
  const start = Number(header.UnixStartTime);
  if (header.UnixStartTime === undefined || !Number.isFinite(start)) return { kind: 'log-relative' };
  const zone = header.TimeZoneString?.trim();
  if (zone) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return { kind: 'local', unixStartTime: start, timeZone: zone };
    } catch {
      /* unknown zone name: try the numeric offset */
    }
  }
  const offset = Number(header.TimeZone);
  if (header.TimeZone !== undefined && Number.isFinite(offset))
    return { kind: 'fixed-offset', unixStartTime: start, offsetSeconds: offset };
  return { kind: 'log-relative' };
}

const WEEKDAYS: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };
/**
 * Per zone: its formatter and the answers per UTC quarter-hour (every zone offset and daylight-saving switch since
 * 1970 is a multiple of 15 minutes, so hour and weekday are constant within one; formatToParts costs ~50 µs).
 */
const zones = new Map<string, { format: Intl.DateTimeFormat; quarters: Map<number, { hour: number; weekday: number }> }>();

/**
 * Hour of day (0–23) and day of week (0 = Monday … 6 = Sunday) of a submit time under a trace clock; with a
 * 'log-relative' clock, hours and days since the log's first second (hour ⌊(t mod 86400)/3600⌋, day ⌊t/86400⌋ mod 7).
 * @param submitTime seconds from the log start. @example
 *   wallClock({ kind: 'local', unixStartTime: 843480031, timeZone: 'Europe/Stockholm' }, 599850) // { hour: 12, weekday: 0 } (Monday 12:38 CEST)
 */
export function wallClock(clock: TraceClock, submitTime: number): { hour: number; weekday: number } {
  if (clock.kind === 'log-relative') {
    return { hour: Math.floor((submitTime % 86400) / 3600), weekday: Math.floor(submitTime / 86400) % 7 };
  }
  if (clock.kind === 'fixed-offset') {
    const t = clock.unixStartTime + submitTime + clock.offsetSeconds;
    const day = Math.floor(t / 86400);
    return { hour: Math.floor((t - 86400 * day) / 3600), weekday: (((day + 3) % 7) + 7) % 7 }; // 1970-01-01 was a Thursday
  }
  let zone = zones.get(clock.timeZone);
  if (!zone) {
    zone = {
      format: new Intl.DateTimeFormat('en-US', { timeZone: clock.timeZone, hourCycle: 'h23', hour: 'numeric', weekday: 'short' }),
      quarters: new Map(),
    };
    zones.set(clock.timeZone, zone);
  }
  const quarter = Math.floor((clock.unixStartTime + submitTime) / 900);
  const known = zone.quarters.get(quarter);
  if (known) return { ...known };
  let hour = 0;
  let weekday = 0;
  for (const part of zone.format.formatToParts(new Date(quarter * 900_000))) {
    if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'weekday') weekday = WEEKDAYS[part.value] ?? 0;
  }
  zone.quarters.set(quarter, { hour, weekday });
  return { hour, weekday };
}

/** One line saying what hour-of-day and day-of-week mean under a clock, for results and printed output. */
export function describeClock(clock: TraceClock): string {
  switch (clock.kind) {
    case 'local':
      return `local time in ${clock.timeZone} (header UnixStartTime ${clock.unixStartTime}, daylight saving applied)`;
    case 'fixed-offset':
      return `local time at UTC${clock.offsetSeconds >= 0 ? '+' : '−'}${Math.abs(clock.offsetSeconds) / 3600} h (header UnixStartTime and TimeZone; no daylight saving)`;
    default:
      return "log-relative: hours and days count from the log's first second (no UnixStartTime in the header)";
  }
}

const opt = (x: number): number | undefined => (x === -1 ? undefined : x);

/**
 * Parses an SWF log. Lines starting with ';' are header comments, blank lines are ignored; every other line must
 * hold 18 whitespace-separated numbers (−1 = missing). Records with run time −1 (or submit time −1) are skipped
 * and counted; so are records outside the `status` filter.
 * @param text the whole (decompressed) file.
 * @param options `source` (for messages), `onMalformed`, `status`.
 * @returns jobs in file order (`index` 0..jobs.length−1; `size` = run time s, `userEstimate` = requested time s),
 *   header, skipped counts, the filter, the record count and the `clock` the header declares.
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
    if (values[3] === -1) {
      addSkip(skipped, 'missing run time');
      continue;
    }
    if (values[1] < 0) {
      addSkip(skipped, 'missing submit time');
      continue;
    }
    const status = opt(values[10]);
    if (statusFilter && (status === undefined || !statusFilter.includes(status))) {
      addSkip(skipped, `status not in [${statusFilter.join(', ')}]`);
      continue;
    }
    const requestedTime = opt(values[8]);
    jobs.push({
      format: 'swf',
      index: jobs.length,
      line: lineNo,
      id: values[0],
      submitTime: values[1],
      waitTime: opt(values[2]),
      runTime: values[3],
      size: values[3],
      allocatedProcessors: opt(values[4]),
      averageCpuTime: opt(values[5]),
      usedMemory: opt(values[6]),
      requestedProcessors: opt(values[7]),
      requestedTime,
      userEstimate: requestedTime,
      requestedMemory: opt(values[9]),
      status,
      user: opt(values[11]),
      group: opt(values[12]),
      executable: opt(values[13]),
      queue: opt(values[14]),
      partition: opt(values[15]),
      precedingJob: opt(values[16]),
      thinkTime: opt(values[17]),
    });
  }
  return { format: 'swf', source, jobs, header, skipped, filter: { status: statusFilter }, records, clock: swfClock(header) };
}
