/**
 * Per-job features known at submission time, as a dense row-major matrix for the regression models.
 * SWF: ln requested time, ln requested processors, ln requested memory, hour of day and day of week (local wall-clock
 * time from the header's UnixStartTime and TimeZoneString when present, else log-relative: `TraceClock`), target
 * encodings of user / group / queue / executable / partition (smoothed mean ln size in the training part), and
 * the "user history" predictors (Tsafrir, Etsion, Feitelson, IEEE TPDS 18(6), 2007): ln run time of the user's
 * last job, and the mean of the last two, among jobs that had *finished* before this one was submitted.
 * SWIM: ln(1 + map input bytes), an indicator m = 0, ln(1 + inter-arrival gap).
 * The target is ln max(S, 1) (S in s or bytes), so zero sizes stay finite.
 */
import type { SwfJob, SwimJob, TraceJob } from '../traces/job.ts';
import { describeClock, wallClock, type TraceClock } from '../traces/swf.ts';

export interface FeatureMatrix {
  /** Column names, length p. */
  names: string[];
  /** Row i = job i, p columns; no NaN (missing values are filled, see `buildFeatures`). */
  rows: number[][];
  /** ln max(S_i, 1), length = rows.length. */
  target: Float64Array;
  /** What the hour-of-day and day-of-week columns count from (`describeClock`); '' for SWIM (no such columns). */
  timeOfDay: string;
}

/** Smoothing weight of the target encoding: a category seen k times gets (Σ ln S + K·μ)/(k + K). */
const SMOOTHING = 20;

export function logTarget(size: number): number {
  return Math.log(Math.max(size, 1));
}

/** Smoothed mean of `target` per category over the training rows [0, trainCount); unseen categories → μ. */
function targetEncoding(keys: readonly (number | undefined)[], target: Float64Array, trainCount: number, mu: number): Float64Array {
  const sum = new Map<number, number>();
  const cnt = new Map<number, number>();
  for (let i = 0; i < trainCount; i++) {
    const k = keys[i];
    if (k === undefined) continue;
    sum.set(k, (sum.get(k) ?? 0) + target[i]);
    cnt.set(k, (cnt.get(k) ?? 0) + 1);
  }
  const out = new Float64Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const c = k === undefined ? 0 : (cnt.get(k) ?? 0);
    out[i] = c === 0 ? mu : ((sum.get(k as number) as number) + SMOOTHING * mu) / (c + SMOOTHING);
  }
  return out;
}

/**
 * User-history features: for job i, ln run time of the user's most recent job (by end time) that ended at or
 * before submit_i, and the mean of the last two; `fallback[i]` when the user has none yet.
 */
function userHistory(jobs: readonly SwfJob[], target: Float64Array, fallback: Float64Array): [Float64Array, Float64Array] {
  const m = jobs.length;
  const end = new Float64Array(m);
  for (let i = 0; i < m; i++) end[i] = jobs[i].submitTime + (jobs[i].waitTime ?? 0) + jobs[i].runTime;
  const byEnd = Array.from({ length: m }, (_, i) => i).sort((a, b) => end[a] - end[b] || a - b);
  const last = new Map<number, number>();
  const prev = new Map<number, number>();
  const lastF = new Float64Array(m);
  const mean2F = new Float64Array(m);
  const bySubmit = Array.from({ length: m }, (_, i) => i).sort((a, b) => jobs[a].submitTime - jobs[b].submitTime || a - b);
  let e = 0;
  for (const i of bySubmit) {
    while (e < m && end[byEnd[e]] <= jobs[i].submitTime) {
      const j = byEnd[e++];
      const u = jobs[j].user;
      if (u === undefined) continue;
      const l = last.get(u);
      if (l !== undefined) prev.set(u, l);
      last.set(u, target[j]);
    }
    const u = jobs[i].user;
    const l = u === undefined ? undefined : last.get(u);
    const p = u === undefined ? undefined : prev.get(u);
    lastF[i] = l ?? fallback[i];
    mean2F[i] = l === undefined ? fallback[i] : p === undefined ? l : (l + p) / 2;
  }
  return [lastF, mean2F];
}

function logOr(x: number | undefined): number {
  return x === undefined || !(x > 0) ? NaN : Math.log(x);
}

/** Replaces NaN in a column by the median of its finite training values (0 if none). */
function fillMissing(col: Float64Array, trainCount: number): void {
  const vals: number[] = [];
  for (let i = 0; i < trainCount; i++) if (Number.isFinite(col[i])) vals.push(col[i]);
  vals.sort((a, b) => a - b);
  const fill = vals.length ? vals[vals.length >> 1] : 0;
  for (let i = 0; i < col.length; i++) if (!Number.isFinite(col[i])) col[i] = fill;
}

function isConstant(col: Float64Array, trainCount: number): boolean {
  for (let i = 1; i < trainCount; i++) if (col[i] !== col[0]) return false;
  return true;
}

/**
 * Builds the feature matrix of a trace. Encodings and fill values use only the first `trainCount` jobs, and
 * user history only jobs that ended before each submission, so nothing of the test part leaks into its features.
 * Columns constant over the training part are dropped.
 * @param jobs jobs in chronological order (all SWF or all SWIM).
 * @param trainCount number of leading jobs that form the training part, 1 ≤ trainCount ≤ jobs.length.
 * @param clock SWF: how submit times map to the wall clock (the trace's `clock`); default log-relative.
 */
export function buildFeatures(jobs: readonly TraceJob[], trainCount: number, clock: TraceClock = { kind: 'log-relative' }): FeatureMatrix {
  const m = jobs.length;
  const target = new Float64Array(m);
  for (let i = 0; i < m; i++) target[i] = logTarget(jobs[i].size);
  let mu = 0;
  for (let i = 0; i < trainCount; i++) mu += target[i];
  mu /= trainCount;
  const cols: [string, Float64Array][] = [];
  let timeOfDay = '';
  const column = (name: string, f: (i: number) => number) => {
    const c = new Float64Array(m);
    for (let i = 0; i < m; i++) c[i] = f(i);
    cols.push([name, c]);
  };
  if (m > 0 && (jobs[0] as SwfJob).format === 'swf') {
    const swf = jobs as readonly SwfJob[];
    column('ln requested time', (i) => logOr(swf[i].requestedTime));
    column('ln requested processors', (i) => logOr(swf[i].requestedProcessors ?? swf[i].allocatedProcessors));
    column('ln requested memory', (i) => logOr(swf[i].requestedMemory));
    const when = swf.map((j) => wallClock(clock, j.submitTime));
    const relative = clock.kind === 'log-relative' ? ' (log-relative)' : '';
    column(`hour of day${relative}`, (i) => when[i].hour);
    column(`day of week${relative}`, (i) => when[i].weekday);
    timeOfDay = describeClock(clock);
    const user = targetEncoding(
      swf.map((j) => j.user),
      target,
      trainCount,
      mu,
    );
    cols.push(['user (mean ln size)', user]);
    cols.push([
      'group (mean ln size)',
      targetEncoding(
        swf.map((j) => j.group),
        target,
        trainCount,
        mu,
      ),
    ]);
    cols.push([
      'queue (mean ln size)',
      targetEncoding(
        swf.map((j) => j.queue),
        target,
        trainCount,
        mu,
      ),
    ]);
    cols.push([
      'executable (mean ln size)',
      targetEncoding(
        swf.map((j) => j.executable),
        target,
        trainCount,
        mu,
      ),
    ]);
    cols.push([
      'partition (mean ln size)',
      targetEncoding(
        swf.map((j) => j.partition),
        target,
        trainCount,
        mu,
      ),
    ]);
    const [last, mean2] = userHistory(swf, target, user);
    cols.push(['user last ln run time', last], ['user mean ln run time, last 2', mean2]);
  } else {
    const swim = jobs as readonly SwimJob[];
    column('ln(1 + map input bytes)', (i) => Math.log1p(swim[i].mapInputBytes));
    column('map input = 0', (i) => (swim[i].mapInputBytes === 0 ? 1 : 0));
    column('ln(1 + gap s)', (i) => Math.log1p(swim[i].gap));
  }
  const kept = cols.filter(([, c]) => {
    fillMissing(c, trainCount);
    return !isConstant(c, trainCount);
  });
  const rows: number[][] = new Array(m);
  for (let i = 0; i < m; i++) rows[i] = kept.map(([, c]) => c[i]);
  return { names: kept.map(([n]) => n), rows, target, timeOfDay };
}
