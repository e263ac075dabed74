/**
 * Stationary law π of a finite continuous-time Markov chain, πQ = 0, Σπ = 1, by Gauss–Seidel (optionally SOR)
 * sweeps on the transposed generator, with a true residual check.
 * With `levels` (a partition into levels between which the chain moves only to neighbouring levels, e.g. total
 * jobs), each sweep is preceded by an aggregation–disaggregation step: the level process is a birth–death chain
 * whose rates are averaged with the current conditional law inside each level; its exact solution rescales the
 * levels. This removes the slow level mode that plain Gauss–Seidel propagates one level per sweep.
 * Source: W. J. Stewart, Introduction to the Numerical Solution of Markov Chains, Princeton 1994, §3.2
 * (Gauss–Seidel for πQ = 0: π_j ← Σ_{i≠j} π_i q_ij / q_j, sweeping j in order, then normalising) and §6.3
 * (iterative aggregation–disaggregation, Koury, McAllister and Stewart 1984).
 */
import { ConvergenceError, InvalidModelError } from '../errors.ts';

/**
 * A generator Q stored by columns (the in-transitions of each state), the layout Gauss–Seidel for πQ = 0 reads.
 * For state j, the entries k in [inStart[j], inStart[j + 1]) give q_{inFrom[k], j} = inRate[k] (i ≠ j, rates > 0);
 * outRate[j] = −q_jj = Σ_{i≠j} q_ji. States: S = outRate.length; inStart has length S + 1.
 */
export interface ColumnGenerator {
  inStart: Int32Array | Uint32Array;
  inFrom: Int32Array | Uint32Array;
  inRate: Float64Array;
  outRate: Float64Array;
}

export interface StationaryOptions {
  /** Starting vector (length S, ≥ 0, not all 0); default uniform. Normalised, not mutated. */
  initial?: Float64Array;
  /** Stop when ‖πQ‖₁ / max_j q_j ≤ tolerance (π normalised); default 1e−13. */
  tolerance?: number;
  /** Sweeps before a ConvergenceError; default 100000. */
  maxIterations?: number;
  /** Over-relaxation ω in (0, 2); default 1 (plain Gauss–Seidel). */
  omega?: number;
  /** Compute the true residual every this many sweeps; default 10. */
  checkEvery?: number;
  /** Alternate forward and backward sweeps (symmetric Gauss–Seidel); default true. */
  symmetric?: boolean;
  /**
   * Level of each state (length S, integers 0..L−1) such that every transition changes the level by −1, 0 or +1;
   * turns on aggregation–disaggregation over the levels. Every level must be non-empty.
   */
  levels?: Int32Array;
  /**
   * With `levels`: the aggregation step runs before every this many-th sweep (an integer ≥ 1; default 1, before each).
   * A step costs about a sweep (one pass over the generator's entries); on the exact chains it is needed only now and
   * then, as the slow level mode it removes comes back slowly (solveExact.ts `AGGREGATE_EVERY`).
   */
  aggregateEvery?: number;
  /** Sees the residual after every check (the start's included) and the sweeps so far: for progress output. */
  onCheck?: (residual: number, iterations: number) => void;
}

export interface StationaryResult {
  /** π, length S, Σπ = 1, π ≥ 0. */
  pi: Float64Array;
  /** ‖πQ‖₁ / max_j q_j at the returned π. */
  residual: number;
  /** Sweeps done. */
  iterations: number;
}

/** ‖πQ‖₁ / max_j q_j, for π summing to 1. */
export function generatorResidual(Q: ColumnGenerator, pi: Float64Array): number {
  const { inStart, inFrom, inRate, outRate } = Q;
  let sum = 0;
  let maxOut = 0;
  for (let j = 0; j < outRate.length; j++) {
    let acc = -pi[j] * outRate[j];
    for (let k = inStart[j]; k < inStart[j + 1]; k++) acc += pi[inFrom[k]] * inRate[k];
    sum += Math.abs(acc);
    if (outRate[j] > maxOut) maxOut = outRate[j];
  }
  return sum / Math.max(maxOut, 1e-300);
}

/** One Gauss–Seidel (ω = 1) or SOR sweep, forward or backward, in place. */
function sweepOnce(
  inStart: Int32Array | Uint32Array,
  inFrom: Int32Array | Uint32Array,
  inRate: Float64Array,
  outRate: Float64Array,
  pi: Float64Array,
  omega: number,
  backward: boolean,
): void {
  const S = outRate.length;
  const step = backward ? -1 : 1;
  for (let m = 0, j = backward ? S - 1 : 0; m < S; m++, j += step) {
    let acc = 0;
    const end = inStart[j + 1];
    for (let k = inStart[j]; k < end; k++) acc += pi[inFrom[k]] * inRate[k];
    const gs = acc / outRate[j];
    pi[j] = omega === 1 ? gs : Math.max(0, (1 - omega) * pi[j] + omega * gs);
  }
}

function normalise(pi: Float64Array): void {
  let total = 0;
  for (let j = 0; j < pi.length; j++) total += pi[j];
  const scale = 1 / total;
  for (let j = 0; j < pi.length; j++) pi[j] *= scale;
}

/**
 * Solves πQ = 0, Σπ = 1 for an irreducible generator by (symmetric) Gauss–Seidel / SOR.
 * @param Q generator by columns (`ColumnGenerator`); every state must have outRate > 0 (no absorbing state).
 * @param options `initial`, `tolerance`, `maxIterations`, `omega`, `checkEvery`, `symmetric`, `levels`, `aggregateEvery`,
 *   `onCheck`.
 * @returns `pi` (length S), `residual` ‖πQ‖₁/max q_j (≤ tolerance), `iterations`.
 * @throws {InvalidModelError} on an absorbing state, a bad initial vector or bad options.
 * @throws {ConvergenceError} if the residual is still above tolerance after maxIterations sweeps.
 * @example stationaryGaussSeidel(twoStateChain).pi // [μ/(λ+μ), λ/(λ+μ)]
 */
export function stationaryGaussSeidel(Q: ColumnGenerator, options: StationaryOptions = {}): StationaryResult {
  const { inStart, inFrom, inRate, outRate } = Q;
  const S = outRate.length;
  const tolerance = options.tolerance ?? 1e-13;
  const maxIterations = options.maxIterations ?? 100000;
  const omega = options.omega ?? 1;
  const checkEvery = options.checkEvery ?? 10;
  const symmetric = options.symmetric ?? true;
  const aggregateEvery = options.aggregateEvery ?? 1;
  if (!(tolerance > 0)) throw new InvalidModelError(`tolerance must be > 0, got ${tolerance}`);
  if (!(omega > 0 && omega < 2)) throw new InvalidModelError(`omega must lie in (0, 2), got ${omega}`);
  if (!Number.isInteger(checkEvery) || checkEvery < 1) throw new InvalidModelError(`checkEvery must be an integer ≥ 1, got ${checkEvery}`);
  if (!Number.isInteger(aggregateEvery) || aggregateEvery < 1)
    throw new InvalidModelError(`aggregateEvery must be an integer ≥ 1, got ${aggregateEvery}`);
  if (inStart.length !== S + 1) throw new InvalidModelError(`inStart has length ${inStart.length}, expected ${S + 1}`);
  for (let j = 0; j < S; j++) {
    if (!(outRate[j] > 0)) throw new InvalidModelError(`state ${j} is absorbing (outRate ${outRate[j]}): no unique stationary law`);
  }
  const pi = new Float64Array(S);
  if (options.initial) {
    if (options.initial.length !== S) throw new InvalidModelError(`initial has length ${options.initial.length}, expected ${S}`);
    let total = 0;
    for (let j = 0; j < S; j++) {
      const v = options.initial[j];
      if (!(v >= 0)) throw new InvalidModelError(`initial[${j}] must be ≥ 0, got ${v}`);
      pi[j] = v;
      total += v;
    }
    if (!(total > 0)) throw new InvalidModelError('initial must have a positive entry');
  } else pi.fill(1);
  normalise(pi);

  const aggregate = options.levels ? levelAggregator(Q, options.levels) : undefined;
  let residual = generatorResidual(Q, pi);
  let iterations = 0;
  options.onCheck?.(residual, iterations);
  while (!(residual <= tolerance)) {
    if (iterations >= maxIterations) {
      throw new ConvergenceError(`Gauss–Seidel for πQ = 0 on ${S} states did not reach ‖πQ‖₁/max q ≤ ${tolerance}`, residual, iterations);
    }
    for (let sweep = 0; sweep < checkEvery && iterations < maxIterations; sweep++, iterations++) {
      if (iterations % aggregateEvery === 0) aggregate?.(pi);
      sweepOnce(inStart, inFrom, inRate, outRate, pi, omega, symmetric && iterations % 2 === 1);
      normalise(pi);
    }
    residual = generatorResidual(Q, pi);
    options.onCheck?.(residual, iterations);
  }
  return { pi, residual, iterations };
}

/**
 * Builds the aggregation–disaggregation step over birth–death levels: from π, the level flows up_L = Σ π_s q_st
 * (s in L, t in L + 1) and down_L (s in L + 1, t in L) give the aggregated law P(L) ∝ Π_{k<L} up_k/down_k, and π is
 * rescaled level by level to it (conditional laws kept).
 * @throws {InvalidModelError} if a transition skips a level or a level is empty.
 */
function levelAggregator(Q: ColumnGenerator, levels: Int32Array): (pi: Float64Array) => void {
  const { inStart, inFrom, outRate } = Q;
  const S = outRate.length;
  if (levels.length !== S) throw new InvalidModelError(`levels has length ${levels.length}, expected ${S}`);
  let L = 0;
  for (let j = 0; j < S; j++) {
    if (!(levels[j] >= 0)) throw new InvalidModelError(`levels[${j}] must be ≥ 0, got ${levels[j]}`);
    L = Math.max(L, levels[j] + 1);
    for (let k = inStart[j]; k < inStart[j + 1]; k++) {
      if (Math.abs(levels[inFrom[k]] - levels[j]) > 1) {
        throw new InvalidModelError(`transition ${inFrom[k]} → ${j} skips levels (${levels[inFrom[k]]} → ${levels[j]})`);
      }
    }
  }
  const mass = new Float64Array(L);
  const flow = new Float64Array(3 * L);
  const target = new Float64Array(L);
  for (let j = 0; j < S; j++) mass[levels[j]] = 1;
  for (let l = 0; l < L; l++) if (mass[l] === 0) throw new InvalidModelError(`level ${l} has no state`);
  const slot = flowSlots(Q, levels, L);
  return (pi) => {
    levelMass(levels, pi, mass);
    levelFlows(Q, slot, pi, flow);
    if (levelLaw(mass, flow, target)) rescaleLevels(pi, levels, target);
  };
}

/**
 * The flow each entry k of the generator (column j, from state inFrom[k]) feeds, as a slot of `levelFlows`' array:
 * 2·l_j + l_i + 1 with l_j, l_i the levels of j and of inFrom[k], i.e. 3·l_j (from level l_j − 1: the flow up_{l_j−1}),
 * 3·l_j + 1 (same level: no level flow, a slot never read) or 3·l_j + 2 (from l_j + 1: down_{l_j}). Built once per
 * chain, 2 bytes per entry (4 past 21845 levels), so that each aggregation step is one pass without a test per
 * entry: that data-dependent branch (up, down or neither), mispredicted about every other entry, took most of the
 * step's time.
 */
function flowSlots(Q: ColumnGenerator, levels: Int32Array, L: number): Uint16Array | Int32Array {
  const { inStart, inFrom } = Q;
  const S = levels.length;
  const slot = 3 * L <= 0x10000 ? new Uint16Array(inStart[S]) : new Int32Array(inStart[S]);
  for (let j = 0; j < S; j++) {
    const base = 2 * levels[j] + 1;
    for (let k = inStart[j]; k < inStart[j + 1]; k++) slot[k] = base + levels[inFrom[k]];
  }
  return slot;
}

/*
 * The aggregation step's loops are functions of their own, one long loop each: in a function with two, V8 (Node 20)
 * compiled the first on stack replacement during the first call, before the second had run, and on every later call
 * entered that code again only to deoptimise at the second (the closure's body did so at each of ~10³ calls).
 */

/** mass_l = Σ_{s in l} π_s, into `mass` (zeroed here). */
function levelMass(levels: Int32Array, pi: Float64Array, mass: Float64Array): void {
  mass.fill(0);
  for (let j = 0; j < pi.length; j++) mass[levels[j]] += pi[j];
}

/**
 * The level flows of π into `flow` (zeroed here; slots as `flowSlots`): flow[3(l + 1)] = up_l (l → l + 1),
 * flow[3l + 2] = down_l (l + 1 → l). Each flow adds its terms in the generator's entry order, as a loop testing each
 * entry would: the same sums, bit for bit.
 */
function levelFlows(Q: ColumnGenerator, slot: Uint16Array | Int32Array, pi: Float64Array, flow: Float64Array): void {
  const { inFrom, inRate } = Q;
  flow.fill(0);
  for (let k = 0; k < slot.length; k++) flow[slot[k]] += pi[inFrom[k]] * inRate[k];
}

/**
 * The birth–death law of the levels, P(l + 1)/P(l) = (up_l/mass_l)/(down_l/mass_{l+1}), divided by the current
 * mass: target[l] = P(l)/mass_l. @returns false (target unusable) when a flow or a mass is still 0.
 */
function levelLaw(mass: Float64Array, flow: Float64Array, target: Float64Array): boolean {
  const L = mass.length;
  // work in logs against under/overflow
  let logP = 0;
  let maxLog = 0;
  target[0] = 0;
  for (let l = 0; l + 1 < L; l++) {
    const up = flow[3 * (l + 1)];
    const down = flow[3 * l + 2];
    if (!(up > 0 && down > 0 && mass[l] > 0 && mass[l + 1] > 0)) return false; // no information yet: skip the step
    logP += Math.log(up / mass[l]) - Math.log(down / mass[l + 1]);
    target[l + 1] = logP;
    if (logP > maxLog) maxLog = logP;
  }
  let total = 0;
  for (let l = 0; l < L; l++) {
    target[l] = Math.exp(target[l] - maxLog);
    total += target[l];
  }
  for (let l = 0; l < L; l++) target[l] = target[l] / total / mass[l];
  return true;
}

/** π_s ← π_s · target[level of s]. */
function rescaleLevels(pi: Float64Array, levels: Int32Array, target: Float64Array): void {
  for (let j = 0; j < pi.length; j++) pi[j] *= target[levels[j]];
}
