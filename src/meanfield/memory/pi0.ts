/**
 * π₀, the probability that the dispatcher's memory is empty when a job arrives, in the mean-field limit, per memory
 * scheme (theory.md §12; T. Hellemans, PhD thesis, Univ. Antwerp 2021, ch. 6 §"Discovering idle servers"). A probed
 * server is idle with probability 1 − ρ (ρ = λ·E[S] the fraction of busy servers), independently (asymptotic
 * independence), and the memory evolves on the fast time scale, so π₀ is the stationary law of a small chain:
 * - IP: π₀ = 1/(ρ^d + (1 − ρ)d) (eq. pi0IP);
 * - CP: π₀ = (1 − d(1 − ρ))/ρ^d when d < 1/(1 − ρ), else 0 (the chain is transient: the memory never empties);
 * - BCP with memory A: the (A + 1)-state chain M(ρ) of the thesis (define_M_BCP); for d = 2 with q = (1 − ρ)/ρ,
 *   π₀ = (1 − q²)/(1 − q^{2(A+1)}) (1/(A + 1) at q = 1);
 * - ISM with memory A: π₀ = (1 − (1 − ρ^d)^{1/(A+1)})/ρ^d (Props. pi_0_JIQ_SQd_gen, pi_0_JIQ_LLd), 1/(A + 1) as ρ → 0;
 *   unbounded ISM (classic JIQ): π₀ = 0.
 */
import { InvalidModelError } from '../../errors.ts';
import type { EffectiveMemory } from '../../model/memory.ts';

function checkArgs(rho: number, d: number): void {
  if (!(rho >= 0 && rho < 1)) throw new InvalidModelError(`the load ρ must lie in [0, 1), got ρ = ${rho}`);
  if (!Number.isInteger(d) || d < 1) throw new InvalidModelError(`d must be an integer ≥ 1, got ${d}`);
}

/** Binomial probabilities b_ℓ = C(d, ℓ) ρ^{d−ℓ} (1 − ρ)^ℓ, ℓ = 0..d: ℓ of d probed servers idle. */
export function idleProbeLaw(rho: number, d: number): Float64Array {
  const b = new Float64Array(d + 1);
  let c = 1;
  for (let l = 0; l <= d; l++) {
    b[l] = c * rho ** (d - l) * (1 - rho) ** l;
    c = (c * (d - l)) / (l + 1);
  }
  return b;
}

/**
 * π₀ of the probing chains by their cut equations (an independent route to the closed forms). States k = ids held at
 * an arrival, 0..capacity. From 0 the d probes find ℓ idle servers: one gets the job, min(ℓ − 1, capacity) are kept
 * (state max(ℓ − 1, 0)). From k ≥ 1 the job takes one id; with `probeWhenHolding` (CP, BCP) d probes add the ℓ idle
 * ones found (state min(k − 1 + ℓ, capacity)), without (IP) the state becomes k − 1. The chain moves down by at
 * most one, so the flow across the cut {0..k} | {k+1..} balances: π_{k+1}·P(k+1 → k) = Σ_{j≤k} π_j P(j → > k).
 * All terms are positive (no cancellation); the vector is rescaled when it grows (ρ small, large capacity).
 * This is the thesis's matrix M(ρ) (define_M_BCP for BCP; the IP matrix of eq. pi0IP).
 * @param capacity ids the memory holds, integer ≥ 0 (≤ 1e6).
 * @returns the stationary law π_0..π_capacity.
 */
export function probingChainLaw(rho: number, d: number, capacity: number, probeWhenHolding: boolean): Float64Array {
  checkArgs(rho, d);
  if (!Number.isInteger(capacity) || capacity < 0 || capacity > 1e6) {
    throw new InvalidModelError(`memory capacity must be an integer in [0, 1e6], got ${capacity}`);
  }
  const b = idleProbeLaw(rho, d);
  // above[m] = P(ℓ > m), m = −1..d (index m + 1)
  const above = new Float64Array(d + 2);
  for (let m = d - 1; m >= -1; m--) above[m + 1] = above[m + 2] + b[m + 1];
  const tailAbove = (m: number) => (m < -1 ? 1 : m >= d ? 0 : above[m + 1]);
  const pi = new Float64Array(capacity + 1);
  const down = probeWhenHolding ? b[0] : 1;
  if (down === 0 && capacity > 0) {
    // ρ = 0: every probe finds d idle servers, so the memory fills and never drains
    pi[capacity] = 1;
    return pi;
  }
  pi[0] = 1;
  for (let k = 0; k < capacity; k++) {
    // from 0: next state ℓ − 1 > k ⟺ ℓ > k + 1; from j ≥ 1: j − 1 + ℓ > k ⟺ ℓ > k − j + 1 (IP: never upwards)
    let flow = pi[0] * tailAbove(k + 1);
    if (probeWhenHolding) for (let j = Math.max(1, k - d + 1); j <= k; j++) flow += pi[j] * tailAbove(k - j + 1);
    pi[k + 1] = flow / down;
    if (pi[k + 1] > 1e250) {
      const s = pi[k + 1];
      for (let j = 0; j <= k + 1; j++) pi[j] /= s;
    }
  }
  let total = 0;
  for (let k = 0; k <= capacity; k++) total += pi[k];
  for (let k = 0; k <= capacity; k++) pi[k] /= total;
  return pi;
}

/** IP: π₀ = 1/(ρ^d + (1 − ρ)d) (thesis eq. pi0IP). */
export function ipPi0(rho: number, d: number): number {
  checkArgs(rho, d);
  return 1 / (rho ** d + (1 - rho) * d);
}

/** CP (unbounded memory): π₀ = (1 − d(1 − ρ))/ρ^d when d < 1/(1 − ρ), else 0 (thesis eq. pi_0_lots_of_mem). */
export function cpPi0(rho: number, d: number): number {
  checkArgs(rho, d);
  return d * (1 - rho) < 1 ? (1 - d * (1 - rho)) / rho ** d : 0;
}

/**
 * BCP with memory A: d = 2 by the closed form (1 − q²)/(1 − q^{2(A+1)}), q = (1 − ρ)/ρ (1/(A + 1) at q = 1);
 * d ≠ 2 from the (A + 1)-state chain (`probingChainLaw`).
 */
export function bcpPi0(rho: number, d: number, capacity: number): number {
  checkArgs(rho, d);
  if (d === 2 && rho > 0) {
    const q2 = ((1 - rho) / rho) ** 2;
    if (Math.abs(q2 - 1) < 1e-12) return 1 / (capacity + 1);
    if (q2 > 1) {
      // (1 − q²)/(1 − q^{2(A+1)}) = (q^{−2(A+1)} − q^{−2A})/(q^{−2(A+1)} − 1): no overflow for large A
      const r = 1 / q2;
      return (r ** capacity - r ** (capacity + 1)) / (1 - r ** (capacity + 1));
    }
    return (1 - q2) / (1 - q2 ** (capacity + 1));
  }
  return probingChainLaw(rho, d, capacity, true)[0];
}

/** ISM with memory A: π₀ = (1 − (1 − ρ^d)^{1/(A+1)})/ρ^d; 1/(A + 1) at ρ = 0; 0 for unbounded memory (A = +∞). */
export function ismPi0(rho: number, d: number, capacity: number): number {
  checkArgs(rho, d);
  if (capacity === Infinity) return 0;
  const x = rho ** d;
  if (x < 1e-12) return 1 / (capacity + 1); // first-order limit; the closed form cancels catastrophically here
  return -Math.expm1(Math.log1p(-x) / (capacity + 1)) / x;
}

/**
 * π₀ of an effective memory (model/memory.ts) at load ρ with d samples: 1 without memory.
 * @throws {InvalidModelError} on ρ outside [0, 1) or d not an integer ≥ 1.
 */
export function memoryEmptyProbability(memory: EffectiveMemory, rho: number, d: number): number {
  switch (memory.kind) {
    case 'none':
      checkArgs(rho, d);
      return 1;
    case 'ip':
      return ipPi0(rho, d);
    case 'cp':
      return cpPi0(rho, d);
    case 'bcp':
      return bcpPi0(rho, d, memory.capacity);
    case 'ism':
      return ismPi0(rho, d, memory.capacity);
    default:
      return unreachable(memory.kind);
  }
}

/**
 * Probes (and, for ISM, idle messages) per arrival at the fixed point, as the thesis counts them (initiate_mem;
 * Prop. nr_probes): every discovered idle server is stored and the d probes go one at a time, stopping at the first
 * idle server, so (1 − π₀ρ^d)/(1 − ρ) (IP: equals π₀d; BCP); CP always sends d; ISM probes
 * π₀(1 − ρ^d)/(1 − ρ) and adds 1 − π₀ρ^d messages (jobs that reach an idle server); no memory: (1 − ρ^d)/(1 − ρ).
 */
export function probesPerArrival(memory: EffectiveMemory, rho: number, d: number): number {
  const pi0 = memoryEmptyProbability(memory, rho, d);
  switch (memory.kind) {
    case 'none':
      return (1 - rho ** d) / (1 - rho);
    case 'ip':
    case 'bcp':
      return (1 - pi0 * rho ** d) / (1 - rho);
    case 'cp':
      return d;
    case 'ism':
      return (pi0 * (1 - rho ** d)) / (1 - rho) + (1 - pi0 * rho ** d);
    default:
      return unreachable(memory.kind);
  }
}

function unreachable(value: never): never {
  throw new Error(`internal error: no branch for memory ${JSON.stringify(value)}`);
}
