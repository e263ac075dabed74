/**
 * The mean field of heterogeneous servers with exponential sizes and FIFO (theory.md §13): per-class occupancy ODEs
 * for JSQ(d) (fewest jobs), SED(d) (least (jobs + 1)/speed) and random selection (d = 1), with uniform or
 * speed-weighted sampling. State s_{c,k} = fraction of class-c servers with ≥ k jobs. A sampled server is of type
 * (c, k) with probability q_{c,k} = p_c (s_{c,k} − s_{c,k+1}); the rule joins the sampled server of least value v
 * (JSQ: k; SED: (k + 1)/μ_c), ties uniformly, so with H(≥v), H(>v) the probabilities that one sample has value ≥ v,
 * > v, a class-c server at level k receives jobs at rate
 *   a_{c,k} = λ (p_c/f_c) · (H(≥v)^d − H(>v)^d)/(H(≥v) − H(>v))   (the quotient written as Σ_i H(≥v)^i H(>v)^{d−1−i}),
 *   ds_{c,k}/dt = a_{c,k−1} (s_{c,k−1} − s_{c,k}) − μ_c (s_{c,k} − s_{c,k+1}),   μ_c = speed_c / E[S].
 * One class of speed 1 is the SQ(d) ODE of theory.md §2. Fixed point: the ODE integrated from empty until its drift is
 * below 1e−7, then Newton (finite-difference Jacobian) to ‖drift‖∞ ≤ 1e−12; the truncation level K doubles until
 * every class's s_{c,K} < 1e−14. E[T] = Σ_c f_c Σ_k s_{c,k} / λ (Little); per class busy fraction s_{c,1}, arrival rate
 * per server μ_c s_{c,1}, E[T_c] = Σ_k s_{c,k} / (μ_c s_{c,1}).
 * Source: Mukhopadhyay & Mazumdar, IEEE TCNS 2015 (arXiv 1311.5806), per-class ODEs; Gardner et al., Perf. Eval. 2021
 * (speed-aware sampling); Vvedenskaya et al. 1996 for one class.
 */
import { ConvergenceError, InvalidModelError } from '../../errors.ts';
import { requireStable, type SupermarketModel } from '../../model/model.ts';
import { classSamplingProbabilities } from '../../model/servers.ts';
import { serviceDistribution } from '../../model/service/index.ts';
import { checkTimeGrid } from '../../model/timeGrid.ts';
import { dampedNewton, infNorm } from '../../numerics/newton.ts';
import { integrateOdex, odexIntegration, sampleTrajectory } from '../../numerics/odex.ts';
import { solveDense } from '../../numerics/dense.ts';
import { VERSION } from '../../version.ts';
import { truncatedTransient, type TruncatedTransient } from '../support.ts';

/** Which value the rule minimises over the sampled servers. */
export type HeteroRule = 'jsq' | 'sed' | 'random';

/** The numbers of the per-class ODE. */
export interface HeteroOccupancyProblem {
  readonly lambda: number;
  readonly d: number;
  readonly rule: HeteroRule;
  /** f_c, p_c (sampling law), μ_c = speed_c/E[S] (service rate of a class-c server). */
  readonly fractions: readonly number[];
  readonly sampling: readonly number[];
  readonly rates: readonly number[];
  /**
   * Completion rate of a class-c server while k jobs are present, levelRates[c][k] (k ≥ 1, index 0 unused; past the
   * end the last entry repeats), replacing μ_c in the departure term: the level-crossing balance of any discipline and
   * size law (the cavity of hetero/cavity.ts measures it). Absent: μ_c at every level (FIFO, exponential sizes). SED
   * still ranks by (k + 1)/μ_c.
   */
  readonly levelRates?: readonly ArrayLike<number>[];
}

/** The problem of a parsed heterogeneous model (exponential sizes, FIFO; random selection ⇒ d = 1). */
export function heteroProblem(model: SupermarketModel): HeteroOccupancyProblem {
  const servers = model.servers;
  if (servers === undefined) throw new InvalidModelError('the per-class occupancy ODE needs server classes (--speeds)');
  const rule: HeteroRule = model.selection === 'jsq' ? 'jsq' : model.selection === 'sed' ? 'sed' : 'random';
  if (model.selection !== rule)
    throw new InvalidModelError(`the per-class occupancy ODE covers jsq, sed and random, not ${model.selection}`);
  const mean = serviceDistribution(model.service).mean;
  return {
    lambda: model.lambda,
    d: rule === 'random' ? 1 : model.d,
    rule,
    fractions: servers.fractions,
    sampling: classSamplingProbabilities(servers),
    rates: servers.speeds.map((s) => s / mean),
  };
}

/** Types (c, k), k = 0..K, sorted by the rule's value, grouped by equal value: the order never changes with the state. */
interface TypeOrder {
  /** type index c·(K + 1) + k, ascending by value. */
  readonly order: Int32Array;
  /** groupEnd[g]: one past the last position of group g in `order`; groupOf[type] = its group. */
  readonly groupEnd: Int32Array;
  readonly groupOf: Int32Array;
}

function typeOrder(p: HeteroOccupancyProblem, K: number): TypeOrder {
  const C = p.fractions.length;
  const value = (c: number, k: number) => (p.rule === 'sed' ? (k + 1) / p.rates[c] : k);
  const types = Array.from({ length: C * (K + 1) }, (_, i) => i);
  const v = types.map((i) => value(Math.floor(i / (K + 1)), i % (K + 1)));
  types.sort((a, b) => v[a] - v[b] || a - b);
  const groupOf = new Int32Array(types.length);
  const ends: number[] = [];
  for (let i = 0; i < types.length; i++) {
    if (i > 0 && Math.abs(v[types[i]] - v[types[i - 1]]) > 1e-12 * Math.abs(v[types[i]])) ends.push(i);
    groupOf[types[i]] = ends.length;
  }
  ends.push(types.length);
  return { order: Int32Array.from(types), groupEnd: Int32Array.from(ends), groupOf };
}

/**
 * The arrival rates of the truncated per-class ODE: rates[c·(K + 1) + k] = a_{c,k}, the rate at which a class-c server
 * with k jobs receives jobs (k = 0..K; the ODE loses arrivals at level K). Returns a function of the state that
 * overwrites and returns one buffer.
 * @param x s_{c,k} at x[c·K + k − 1], k = 1..K.
 */
export function heteroArrivalRates(p: HeteroOccupancyProblem, K: number, order: TypeOrder = typeOrder(p, K)) {
  const C = p.fractions.length;
  const T = C * (K + 1);
  const q = new Float64Array(T);
  const groups = order.groupEnd.length;
  const R = new Float64Array(groups);
  const rates = new Float64Array(T);
  const d = p.d;
  return (x: ArrayLike<number>): Float64Array => {
    const s = (c: number, k: number) => (k === 0 ? 1 : k > K ? 0 : x[c * K + k - 1]);
    for (let c = 0; c < C; c++) for (let k = 0; k <= K; k++) q[c * (K + 1) + k] = p.sampling[c] * (s(c, k) - s(c, k + 1));
    // H(>v) from the top group down; R_g = Σ_i H(≥v)^i H(>v)^{d−1−i}
    let above = 0;
    for (let g = groups - 1; g >= 0; g--) {
      const from = g === 0 ? 0 : order.groupEnd[g - 1];
      let Q = 0;
      for (let i = from; i < order.groupEnd[g]; i++) Q += q[order.order[i]];
      const ge = Math.max(0, above + Q);
      const gt = Math.max(0, above);
      let r = 0;
      let a = 1;
      for (let i = 0; i < d; i++) {
        r += a * Math.pow(gt, d - 1 - i);
        a *= ge;
      }
      R[g] = r;
      above = ge;
    }
    for (let c = 0; c < C; c++) {
      const share = (p.lambda * p.sampling[c]) / p.fractions[c];
      for (let k = 0; k <= K; k++) rates[c * (K + 1) + k] = share * R[order.groupOf[c * (K + 1) + k]];
    }
    return rates;
  };
}

/** μ_{c,k}: the level rate where `levelRates` is given, else μ_c. */
function levelRate(p: HeteroOccupancyProblem, c: number, k: number): number {
  const table = p.levelRates?.[c];
  if (table === undefined) return p.rates[c];
  return table[Math.min(k, table.length - 1)];
}

/**
 * The drift of the truncated per-class ODE (arrivals above level K lost).
 * @param x s_{c,k} at x[c·K + k − 1], k = 1..K. @returns dx/dt (same layout).
 */
export function heteroDrift(p: HeteroOccupancyProblem, K: number, order: TypeOrder = typeOrder(p, K)) {
  const C = p.fractions.length;
  const arrivals = heteroArrivalRates(p, K, order);
  const mu = Array.from({ length: C }, (_, c) => Float64Array.from({ length: K + 2 }, (_, k) => (k === 0 ? NaN : levelRate(p, c, k))));
  const out = new Float64Array(C * K);
  return (x: ArrayLike<number>): Float64Array => {
    const s = (c: number, k: number) => (k === 0 ? 1 : k > K ? 0 : x[c * K + k - 1]);
    const a = arrivals(x);
    for (let c = 0; c < C; c++) {
      for (let k = 1; k <= K; k++) {
        const up = a[c * (K + 1) + k - 1] * (s(c, k - 1) - s(c, k));
        out[c * K + k - 1] = up - mu[c][k] * (s(c, k) - s(c, k + 1));
      }
    }
    return out;
  };
}

/** One class at the fixed point. */
export interface HeteroClassResult {
  readonly speed: number;
  readonly fraction: number;
  /** s_{c,0..K}. */
  readonly tail: number[];
  /** s_{c,1}: fraction of the class's servers busy. */
  readonly busyFraction: number;
  /** Jobs per server of the class, Σ_k s_{c,k}. */
  readonly meanQueueLength: number;
  /** Mean response time of the jobs it serves (time units). */
  readonly meanResponseTime: number;
  /** Fraction of all jobs it serves, f_c μ_c s_{c,1} / λ. */
  readonly jobShare: number;
}

export interface HeteroFixedPoint {
  readonly meanResponseTime: number;
  readonly meanQueueLength: number;
  /** The mixture tail Σ_c f_c s_{c,k}: the fraction of all servers with ≥ k jobs. */
  readonly tail: number[];
  readonly classes: HeteroClassResult[];
  readonly truncationLevel: number;
  readonly diagnostics: { readonly residual: number; readonly iterations: number; readonly topLevelMass: number };
}

/** Largest K tried. */
const MAX_K = 4096;

/** Solves the problem's fixed point at truncation K from x0 (the ODE to ‖drift‖ < 1e−9, then Newton). */
function solveAt(
  p: HeteroOccupancyProblem,
  K: number,
  x0: number[],
  warm = false,
): { x: Float64Array; residual: number; iterations: number } {
  const f = heteroDrift(p, K);
  if (warm) {
    // a start near the fixed point (the previous step of the cavity iteration): Newton alone, the ODE if it fails
    const r = newton(f, x0);
    if (r.residual <= 1e-12 && r.x.every((v) => v >= -1e-12)) return r;
  }
  let y = x0;
  let horizon = 20 / Math.min(...p.rates);
  let t = 0;
  // the ODE brings the state near the fixed point (‖drift‖ < 1e−7), Newton finishes
  for (let round = 0; round < 10; round++) {
    const r = integrateOdex((_t, yy) => Array.from(f(yy)), y, t, t + horizon, {
      tolerance: 1e-10,
      maxSteps: 200_000,
      label: 'the per-class occupancy ODE',
    });
    y = r.y;
    t += horizon;
    if (infNorm(f(y)) < 1e-7) break;
    horizon *= 2;
  }
  return newton(f, y);
}

/** Damped Newton (finite-difference Jacobian) on the drift f from x0 to ‖f‖∞ ≤ 1e−12. */
function newton(f: (x: ArrayLike<number>) => Float64Array, x0: number[]): { x: Float64Array; residual: number; iterations: number } {
  const dim = x0.length;
  const h = 1e-7;
  const r = dampedNewton(
    {
      residual: (x) => Float64Array.from(f(x)),
      step: (x, rhs) => {
        const base = Float64Array.from(f(x));
        const J: number[][] = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
        const xp = Float64Array.from(x);
        for (let j = 0; j < dim; j++) {
          const old = xp[j];
          xp[j] = old + h;
          const fp = f(xp);
          for (let i = 0; i < dim; i++) J[i][j] = (fp[i] - base[i]) / h;
          xp[j] = old;
        }
        return solveDense(J, rhs, 'the per-class occupancy Newton step');
      },
    },
    x0,
    1e-12,
    30,
  );
  return { x: r.x, residual: r.residual, iterations: r.iterations };
}

/**
 * The fixed point of the per-class occupancy ODE (module comment).
 * @throws {ConvergenceError} if K would pass MAX_K or the drift does not reach 1e−10, and at once if `levelRates` past
 *   their tables give a capacity Σ_c f_c μ_{c,∞} ≤ λ (no fixed point exists).
 */
export function heteroFixedPointOf(p: HeteroOccupancyProblem, start?: HeteroFixedPoint): HeteroFixedPoint {
  const C = p.fractions.length;
  // past their tables the level rates repeat their last entry: with Σ_c f_c μ_{c,∞} ≤ λ the high levels drain slower
  // than jobs arrive, so there is no fixed point (mass piles at the truncation level whatever K) and doubling K to
  // MAX_K took hours; say so at once
  if (p.levelRates !== undefined) {
    const capacity = p.fractions.reduce((sum, f, c) => sum + f * levelRate(p, c, Number.MAX_SAFE_INTEGER), 0);
    if (!(capacity > p.lambda))
      throw new ConvergenceError(
        `the per-class occupancy ODE has no fixed point: its level rates past their tables give a capacity Σ_c f_c μ_c,∞ = ${capacity.toPrecision(4)} ≤ λ = ${p.lambda}`,
        capacity - p.lambda,
        0,
      );
  }
  let K = start?.truncationLevel ?? 16;
  let x: number[] = new Array<number>(C * K).fill(0);
  if (start !== undefined) for (let c = 0; c < C; c++) for (let k = 1; k <= K; k++) x[c * K + k - 1] = start.classes[c].tail[k];
  let warm = start !== undefined;
  for (;;) {
    const r = solveAt(p, K, x, warm);
    warm = false;
    let top = 0;
    for (let c = 0; c < C; c++) top = Math.max(top, r.x[c * K + K - 1]);
    if (top < 1e-14 || K >= MAX_K) {
      if (!(r.residual <= 1e-10) || top >= 1e-10)
        throw new ConvergenceError(
          `the per-class occupancy ODE did not settle: top level mass ${top.toExponential(2)} at K = ${K}`,
          r.residual,
          r.iterations,
        );
      return assemble(p, K, r.x, r.residual, r.iterations, top);
    }
    const next = 2 * K;
    const y = new Array<number>(C * next).fill(0);
    for (let c = 0; c < C; c++) for (let k = 0; k < K; k++) y[c * next + k] = Math.max(0, r.x[c * K + k]);
    x = y;
    K = next;
  }
}

function assemble(
  p: HeteroOccupancyProblem,
  K: number,
  x: Float64Array,
  residual: number,
  iterations: number,
  top: number,
): HeteroFixedPoint {
  const C = p.fractions.length;
  const classes: HeteroClassResult[] = [];
  const tail = new Array<number>(K + 1).fill(0);
  let meanQ = 0;
  for (let c = 0; c < C; c++) {
    const t = [1];
    for (let k = 1; k <= K; k++) t.push(Math.min(1, Math.max(0, x[c * K + k - 1])));
    const q = t.slice(1).reduce((a, b) => a + b, 0);
    let rate = 0; // jobs per class-c server per time unit: Σ_k μ_{c,k}(s_{c,k} − s_{c,k+1}) (μ_c s_{c,1} for constant rates)
    if (p.levelRates === undefined) rate = p.rates[c] * t[1];
    else for (let k = 1; k <= K; k++) rate += levelRate(p, c, k) * (t[k] - (k < K ? t[k + 1] : 0));
    const f = p.fractions[c];
    for (let k = 0; k <= K; k++) tail[k] += f * t[k];
    meanQ += f * q;
    classes.push({
      speed: p.rates[c],
      fraction: f,
      tail: t,
      busyFraction: t[1],
      meanQueueLength: q,
      meanResponseTime: q / rate,
      jobShare: (f * rate) / p.lambda,
    });
  }
  return {
    meanResponseTime: meanQ / p.lambda,
    meanQueueLength: meanQ,
    tail,
    classes,
    truncationLevel: K,
    diagnostics: { residual, iterations, topLevelMass: top },
  };
}

/**
 * The fixed point of a heterogeneous model (exponential sizes, FIFO; jsq, sed or random). Class speeds are reported
 * as given (not divided by E[S]).
 * @throws {UnstableModelError} for an overloaded class (model.ts `requireStable`). @throws {ConvergenceError}.
 */
export function heteroFixedPoint(model: SupermarketModel): HeteroFixedPoint {
  requireStable(model);
  const fp = heteroFixedPointOf(heteroProblem(model));
  const speeds = model.servers!.speeds;
  return { ...fp, classes: fp.classes.map((c, k) => ({ ...c, speed: speeds[k] })) };
}

/**
 * Exact d = 1 answer: random selection makes class c an M/M/1 queue with arrival rate λp_c/f_c and service rate μ_c,
 * so E[T] = Σ_c p_c / (μ_c − λp_c/f_c) (uniform sampling: Σ_c f_c/(μ_c − λ)). The check of the ODE at d = 1.
 */
export function randomMixtureMeanResponseTime(p: HeteroOccupancyProblem): number {
  let sum = 0;
  for (let c = 0; c < p.fractions.length; c++) sum += p.sampling[c] / (p.rates[c] - (p.lambda * p.sampling[c]) / p.fractions[c]);
  return sum;
}

/** The transient of the per-class ODE: the mixture tail per instant (a TruncatedTransient) and each class's tails. */
export interface HeteroTransient extends TruncatedTransient {
  /** classTail[j][c] = s_{c,0..K} at times[j]. */
  readonly classTail: number[][][];
}

/**
 * The per-class occupancy ODE from an empty system, sampled at `times` (any load: a finite horizon needs no steady
 * state). K is sized from the horizon: a server receives at most λ·max_c(p_c/f_c)·d jobs per time unit, so K is that
 * Poisson law's 1e−14 reach (capped at 2048).
 */
export function heteroTransient(
  model: SupermarketModel,
  options: { times: number[]; tolerance?: number; onProgress?: (fraction: number) => void },
): HeteroTransient {
  const p = heteroProblem(model);
  const times = checkTimeGrid(options.times);
  const tolerance = options.tolerance ?? 1e-10;
  const C = p.fractions.length;
  const horizon = times[times.length - 1] - times[0];
  const maxRate = p.lambda * p.d * Math.max(...p.sampling.map((q, c) => q / p.fractions[c]));
  const mu = maxRate * horizon;
  const K = Math.max(8, Math.min(2048, Math.ceil(mu + 8 * Math.sqrt(mu) + 30)));
  const f = heteroDrift(p, K);
  const maxSteps = Math.max(10_000, Math.ceil(50 * horizon * Math.max(1, maxRate)));
  const tail: number[][] = [];
  const classTail: number[][][] = [];
  let topLevelMass = 0;
  const take = (at: (i: number) => number) => {
    const mix = new Array<number>(K + 1).fill(0);
    const rows: number[][] = [];
    for (let c = 0; c < C; c++) {
      const row = [1];
      for (let k = 1; k <= K; k++) row.push(Math.min(1, Math.max(0, at(c * K + k - 1))));
      rows.push(row);
      for (let k = 0; k <= K; k++) mix[k] += p.fractions[c] * row[k];
      topLevelMass = Math.max(topLevelMass, row[K]);
    }
    tail.push(mix);
    classTail.push(rows);
  };
  const y0 = new Array<number>(C * K).fill(0);
  take((i) => y0[i]);
  const stats = sampleTrajectory(
    times,
    y0,
    odexIntegration((_t, y) => Array.from(f(y)), y0, { tolerance, maxSteps, label: 'the per-class occupancy ODE' }),
    take,
    (_y, x) => options.onProgress?.(horizon > 0 ? (x - times[0]) / horizon : 1),
  );
  const base = truncatedTransient(model, times, tail, stats, {
    truncationLevel: K,
    topLevelMass,
    tolerance,
    maxSteps,
    equation: 'ds_{c,k}/dt = a_{c,k−1}(s_{c,k−1} − s_{c,k}) − μ_c(s_{c,k} − s_{c,k+1}) (theory.md §13)',
    source: HETERO_SOURCE,
  });
  return { ...base, classTail };
}

/** The source line of the per-class solvers. */
export const HETERO_SOURCE = 'theory.md §13 (Mukhopadhyay & Mazumdar, IEEE TCNS 2015, arXiv 1311.5806; Gardner et al., Perf. Eval. 2021)';

export { VERSION as HETERO_VERSION };
