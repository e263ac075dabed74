/**
 * Heterogeneous servers in the simulator (theory.md §13): the servers laid out class by class (class c holds ids
 * start_c … start_c + n_c − 1, n_c = f_c·n), a speed per server, the speed-weighted class law, and the per-class
 * tallies of a measurement window (busy time, response times, jobs). Engines that serve speeds take a job of size
 * S as S/speed of service at its server.
 */
import { InvalidModelError } from '../errors.ts';
import { classSamplingProbabilities, describeClass, type ServerClasses } from '../model/servers.ts';

/** Tolerance on n·f_c being an integer. */
const COUNT_TOLERANCE = 1e-6;

/** The class layout of n servers (typed arrays, read by the engines' loops). */
export interface ServerLayout {
  /** Number of classes C. */
  readonly classes: number;
  /** Class of each server (0-based). */
  readonly classOf: Int32Array;
  /** 1/speed of each server (time per unit of work). */
  readonly invSpeed: Float64Array;
  /** First server id of each class, and the servers in it. */
  readonly start: Int32Array;
  readonly count: Int32Array;
  /** Speed-weighted sampling: the cumulative class probabilities (last = 1); empty for uniform sampling. */
  readonly cumulative: Float64Array;
  /** The classes as modelled (speeds, fractions, sampling). */
  readonly spec: ServerClasses;
}

/**
 * Lays out n servers by class: n_c = n·f_c, which must be an integer (so the finite system has the model's fractions).
 * @throws {InvalidModelError} one line naming the class whose n·f_c is not an integer ≥ 1.
 */
export function serverLayout(spec: ServerClasses, n: number): ServerLayout {
  const C = spec.speeds.length;
  const start = new Int32Array(C);
  const count = new Int32Array(C);
  let next = 0;
  for (let c = 0; c < C; c++) {
    const exact = n * spec.fractions[c];
    const k = Math.round(exact);
    if (Math.abs(exact - k) > COUNT_TOLERANCE * Math.max(1, exact) || k < 1)
      throw new InvalidModelError(
        `${describeClass(spec, c)} would hold n·fraction = ${exact} servers at n = ${n}: choose n with an integer ≥ 1 for every class`,
      );
    start[c] = next;
    count[c] = k;
    next += k;
  }
  if (next !== n) throw new InvalidModelError(`the classes hold ${next} servers, not n = ${n}: fractions must sum to 1`);
  const classOf = new Int32Array(n);
  const invSpeed = new Float64Array(n);
  for (let c = 0; c < C; c++)
    for (let j = start[c]; j < start[c] + count[c]; j++) {
      classOf[j] = c;
      invSpeed[j] = 1 / spec.speeds[c];
    }
  let cumulative = new Float64Array(0);
  if (spec.sampling === 'speed') {
    const p = classSamplingProbabilities(spec);
    cumulative = new Float64Array(C);
    let acc = 0;
    for (let c = 0; c < C; c++) cumulative[c] = acc += p[c];
    cumulative[C - 1] = 1;
  }
  return { classes: C, classOf, invSpeed, start, count, cumulative, spec };
}

/**
 * Per-class tallies of one measurement window: ∫ busy servers dt (B_c servers of class c busy), and over the measured
 * jobs that joined class c: their number, ΣT and Σ S/speed.
 */
export class ClassTally {
  readonly busy: Int32Array;
  readonly busyArea: Float64Array;
  readonly busyLast: Float64Array;
  readonly jobs: Float64Array;
  readonly sumResponse: Float64Array;
  /** The measurement object the tallies belong to (a new one — the next batch — resets them). */
  owner: object | undefined = undefined;
  /** Whether the busy integral is open (from the window's start until its end). */
  open = false;

  constructor(readonly layout: ServerLayout) {
    const C = layout.classes;
    this.busy = new Int32Array(C);
    this.busyArea = new Float64Array(C);
    this.busyLast = new Float64Array(C);
    this.jobs = new Float64Array(C);
    this.sumResponse = new Float64Array(C);
  }

  /** Counts the busy servers of each class from the queue lengths. */
  recount(len: Int32Array): void {
    this.busy.fill(0);
    for (let j = 0; j < len.length; j++) if (len[j] > 0) this.busy[this.layout.classOf[j]]++;
  }

  /** Starts a window at t for the measurement `owner` (tallies reset). */
  begin(owner: object, t: number): void {
    this.owner = owner;
    this.open = true;
    this.busyArea.fill(0);
    this.busyLast.fill(t);
    this.jobs.fill(0);
    this.sumResponse.fill(0);
  }

  /** Server of class c becomes busy (+1) or idle (−1) at t; integrates while the window is open. */
  change(c: number, t: number, delta: number): void {
    if (this.open) {
      this.busyArea[c] += this.busy[c] * (t - this.busyLast[c]);
      this.busyLast[c] = t;
    }
    this.busy[c] += delta;
  }

  /** Closes the busy integral at t (the window's end). */
  close(t: number): void {
    if (!this.open) return;
    for (let c = 0; c < this.layout.classes; c++) {
      this.busyArea[c] += this.busy[c] * (t - this.busyLast[c]);
      this.busyLast[c] = t;
    }
    this.open = false;
  }

  /** The window's per-class summary. @param window its length (time units). */
  summary(window: number): ClassSummary[] {
    const { spec, count } = this.layout;
    return Array.from({ length: this.layout.classes }, (_, c) => ({
      speed: spec.speeds[c],
      fraction: spec.fractions[c],
      busyFraction: this.busyArea[c] / (count[c] * window),
      meanResponseTime: this.sumResponse[c] / this.jobs[c],
      jobs: this.jobs[c],
    }));
  }
}

/** One class's results over one window. */
export interface ClassSummary {
  readonly speed: number;
  readonly fraction: number;
  /** Time-average fraction of the class's servers that are busy. */
  readonly busyFraction: number;
  /** Mean response time of the measured jobs that joined the class (NaN when none did). */
  readonly meanResponseTime: number;
  /** Measured jobs served by the class. */
  readonly jobs: number;
}
