/**
 * The transient of SQ(d) with dispatcher memory, exponential sizes, FIFO: the cavity ODE of T. Hellemans' thesis
 * (Univ. Antwerp 2021, ch. 6, Prop. "trans"), in service-time units (μ = 1, ρ = λ·E[S]):
 *   du_1/dt = ρπ₀(t)(1 − u_1^d) + ρ(1 − π₀(t)) − (u_1 − u_2),
 *   du_k/dt = ρπ₀(t)(u_{k−1}^d − u_k^d) − (u_k − u_{k+1}),   k ≥ 2,
 * u_k(t) the fraction of servers with ≥ k jobs. The memory moves on the fast time scale, so π₀(t) is its stationary
 * law given the servers' state at t: for the probing schemes (IP, CP, BCP) the formulas of pi0.ts at the fraction of
 * busy servers u_1(t); for ISM the birth–death chain with birth rate u_1 − u_2 (servers becoming idle) and death rate
 * ρ (arrivals): r = (u_1 − u_2)/ρ, π₀ = (1 − r)/(1 − r^{A+1}) (1/(A + 1) at r = 1; max(0, 1 − r) unbounded). At the
 * fixed point u_1 = ρ and r = 1 − π₀ρ^d, which gives back the stationary π₀ of pi0.ts and the tail of the reduction:
 * u_k = (ρπ₀^{1/d})^{(d^k − 1)/(d − 1)}/π₀^{1/d} (thesis Theorem closed_SQd). Truncated at K (u_{K+1} = 0).
 */
import { InvalidModelError } from '../../errors.ts';
import { effectiveMemory, isJiq, type EffectiveMemory } from '../../model/memory.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { checkTimeGrid } from '../../model/timeGrid.ts';
import { integrateOdex, sampleTrajectory } from '../../numerics/odex.ts';
import { requireBaseModel, truncatedTransient, type ArrivalRouting, type TruncatedTransient } from '../support.ts';
import { memoryEmptyProbability } from './pi0.ts';

/**
 * The fixed point of the cavity ODE with memory, u_0..u_K (theory.md §12, the reduction's tail): u_k =
 * (ρπ₀^{1/d})^{(d^k−1)/(d−1)}/π₀^{1/d} (d ≥ 2), (ρπ₀)^k/π₀ (d = 1), (1, ρ, 0) when π₀ = 0; K the first level below 1e−12.
 */
export function memoryFixedPointTail(memory: EffectiveMemory, rho: number, d: number): number[] {
  const pi0 = memoryEmptyProbability(memory, rho, d);
  if (pi0 === 0) return [1, rho, 0];
  const s = pi0 ** (1 / d);
  const tail = [1];
  for (let k = 1; k <= 100_000; k++) {
    const v = d === 1 ? (rho * pi0) ** k : (rho * s) ** ((d ** k - 1) / (d - 1));
    tail.push(v / s);
    if (v / s < 1e-12) break;
  }
  return tail;
}

/**
 * π₀ on the fast time scale given the servers' state: u1 the fraction busy, u2 the fraction with ≥ 2 jobs.
 * @param rho load ρ (the dispatcher's arrival rate per server in service-time units).
 */
export function quasiStationaryPi0(memory: EffectiveMemory, rho: number, d: number, u1: number, u2: number): number {
  return quasiStationaryPi0FromFlows(memory, d, u1, Math.max(0, u1 - u2) / rho);
}

/**
 * π₀ on the fast time scale from flows: `busy` the fraction of busy servers, `emptying` the rate at which servers
 * become idle divided by the arrival rate (per server; exponential sizes in service-time units: (u_1 − u_2)/ρ). Probing
 * schemes (IP, CP, BCP): the formulas of pi0.ts at the busy fraction; ISM: the birth–death chain of the held ids,
 * r = emptying, π₀ = (1 − r)/(1 − r^{A+1}) (1/(A + 1) at r = 1; max(0, 1 − r) unbounded).
 */
export function quasiStationaryPi0FromFlows(memory: EffectiveMemory, d: number, busy: number, emptying: number): number {
  if (memory.kind === 'ism') {
    const r = Math.max(0, emptying);
    if (memory.capacity === Infinity) return Math.max(0, 1 - r);
    if (Math.abs(r - 1) < 1e-9) return 1 / (memory.capacity + 1);
    // (1 − r)/(1 − r^{A+1}), written to avoid overflow for r > 1
    if (r > 1) {
      const s = 1 / r;
      return (s ** memory.capacity - s ** (memory.capacity + 1)) / (1 - s ** (memory.capacity + 1));
    }
    return (1 - r) / (1 - r ** (memory.capacity + 1));
  }
  return memoryEmptyProbability(memory, Math.min(Math.max(busy, 0), 1 - 1e-12), d);
}

/** The arrival routing (support.ts) of a memory: its quasi-stationary π₀ from the busy fraction and the emptying flow. */
export function memoryRouting(memory: EffectiveMemory, d: number): ArrivalRouting {
  return { pi0: (busy, emptying) => quasiStationaryPi0FromFlows(memory, d, busy, emptying) };
}

/**
 * Drift of the truncated cavity ODE (module comment) at u = u_1..u_K.
 * @returns du/dt (length K) in `out` (allocated when absent).
 */
export function memorySqdDrift(rho: number, d: number, memory: EffectiveMemory, u: ArrayLike<number>, out?: Float64Array): Float64Array {
  const K = u.length;
  const f = out ?? new Float64Array(K);
  const pi0 = quasiStationaryPi0(memory, rho, d, u[0], K > 1 ? u[1] : 0);
  let prevPow = 1;
  for (let i = 0; i < K; i++) {
    const ui = u[i];
    const pow = ui ** d;
    const next = i + 1 < K ? u[i + 1] : 0;
    f[i] = rho * pi0 * (prevPow - pow) - (ui - next) + (i === 0 ? rho * (1 - pi0) : 0);
    prevPow = pow;
  }
  return f;
}

/** Whether `solveMemoryTransient` covers the model: SQ(d) (jsq or jiq), FIFO, exponential sizes. */
export function hasMemoryTransient(model: SupermarketModel): boolean {
  return (model.selection === 'jsq' || isJiq(model.selection)) && model.discipline === 'fifo' && model.service.kind === 'exponential';
}

export interface MemoryTransientOptions {
  /** Output instants, strictly increasing, ≥ 0, model time units; times[0] is the start. */
  readonly times: number[];
  /** Initial tail u_0..u_K' (u_0 = 1); default the empty system. */
  readonly from?: number[];
  /** K (integer ≥ max(1, K')); default max(K*, K') + 10, K* the first level where the fixed point's u_k < 1e−12 (`diagnostics.topLevelMass` reports what reached level K). */
  readonly truncationLevel?: number;
  /** odex tolerance (default 1e−10). */
  readonly tolerance?: number;
  /** odex step budget (default max(10⁴, 50 × horizon in service times)). */
  readonly maxSteps?: number;
  /** Sees the fraction of the horizon integrated after every accepted step (progress output; pure: no output here). */
  readonly onProgress?: (fraction: number) => void;
}

/**
 * The cavity-ODE trajectory of SQ(d) with memory (module comment), sampled at `times`.
 * @param model JSQ (or JIQ) selection, FIFO, exponential sizes, ρ < 1, with a memory.
 * @returns the `TruncatedTransient` shape of `solveTransient` (tail rows u_0..u_K, E[Q] per instant, odex diagnostics).
 * @throws {InvalidModelError} for other models or bad options; {SolverError} if odex fails.
 */
export function solveMemoryTransient(model: SupermarketModel, options: MemoryTransientOptions): TruncatedTransient {
  if (!hasMemoryTransient(model)) {
    throw new InvalidModelError(
      `no transient solver for memory with ${model.selection}, ${model.discipline}, ${model.service.kind} sizes: the cavity ODE covers SQ(d) (jsq or jiq), FIFO, exponential sizes`,
    );
  }
  requireBaseModel(model, 'the memory cavity ODE');
  if (model.arrivals !== undefined && model.arrivals.kind !== 'exponential')
    throw new InvalidModelError(`the memory cavity ODE assumes Poisson arrivals (theory.md §12, §14), got ${model.arrivals.kind}`);
  const memory = effectiveMemory(model.selection, model.d, model.memory);
  const d = isJiq(model.selection) ? 1 : model.d;
  const meanService = model.service.mean;
  const rho = model.lambda * meanService;
  if (!(rho > 0 && rho < 1)) throw new InvalidModelError(`the memory transient needs 0 < ρ < 1, got ρ = ${rho}`);
  const times = checkTimeGrid(options.times);
  const from = options.from ?? [1];
  if (Math.abs(from[0] - 1) > 1e-12 || from.some((v, i) => !(v >= 0 && v <= 1) || (i > 0 && v > from[i - 1]))) {
    throw new InvalidModelError('from must be a tail u_0..u_K with u_0 = 1, non-increasing in [0, 1]');
  }
  const tolerance = options.tolerance ?? 1e-10;
  const taus = times.map((t) => t / meanService);
  const horizon = taus[taus.length - 1] - taus[0];
  const maxSteps = options.maxSteps ?? Math.max(10_000, Math.ceil(50 * horizon));
  const Kfrom = from.length - 1;
  const K = options.truncationLevel ?? Math.max(memoryFixedPointTail(memory, rho, d).length - 1, Kfrom) + 10;
  if (!Number.isInteger(K) || K < Math.max(1, Kfrom)) {
    throw new InvalidModelError(`truncationLevel must be an integer ≥ max(1, ${Kfrom}), got ${K}`);
  }
  const y0 = new Array<number>(K).fill(0);
  for (let i = 1; i <= Kfrom; i++) y0[i - 1] = from[i];
  const tail: number[][] = [[1, ...y0]];
  let top = y0[K - 1];
  const buffer = new Float64Array(K);
  const f = (_t: number, y: number[]): number[] => Array.from(memorySqdDrift(rho, d, memory, y, buffer));
  const stats = sampleTrajectory(
    taus,
    y0,
    (t0, tEnd, observer) => integrateOdex(f, y0, t0, tEnd, { tolerance, maxSteps, label: `SQ(d) with memory (K = ${K})` }, observer),
    (at) => tail.push([1, ...Array.from({ length: K }, (_, i) => at(i))]),
    (y, x) => {
      top = Math.max(top, y[K - 1]);
      options.onProgress?.(horizon > 0 ? (x - taus[0]) / horizon : 1);
    },
  );
  return truncatedTransient(model, times, tail, stats, {
    truncationLevel: K,
    topLevelMass: top,
    tolerance,
    maxSteps,
    equation:
      'du_1/dt = ρ π₀(t)(1 - u_1^d) + ρ(1 - π₀(t)) - (u_1 - u_2); du_k/dt = ρ π₀(t)(u_{k-1}^d - u_k^d) - (u_k - u_{k+1}), k >= 2; π₀(t) quasi-stationary',
    source: 'theory.md §12; Hellemans 2021 (PhD thesis, Univ. Antwerp), ch. 6, Prop. trans; odex',
  });
}
