/**
 * The state space of the n-server supermarket chain with exchangeable servers: sorted occupancy vectors
 * v_1 ≤ … ≤ v_n (v_j = jobs at the j-th least loaded server), each level in 0..K, ordered by total jobs.
 * A vector's colex rank Σ_j C(v_j + j − 1, j) (j = 1..n, combinatorial number system) does not depend on K, so
 * the states of level cap K are exactly the ranks below C(n + K, n), and a solution at K warm-starts one at K' > K.
 * Source: theory.md §1–§2 (the model); the rank is the combinatorial number system (Knuth, TAOCP 4A, §7.2.1.3).
 */
import { StateSpaceTooLargeError } from '../../errors.ts';
import type { ColumnGenerator } from '../../numerics/stationary.ts';

/** Binomial coefficients C(m, j), m ≤ mMax, j ≤ jMax, as doubles (exact below 2^53). */
export function binomialTable(mMax: number, jMax: number): Float64Array[] {
  const C: Float64Array[] = [];
  for (let m = 0; m <= mMax; m++) {
    const row = new Float64Array(jMax + 1);
    row[0] = 1;
    for (let j = 1; j <= jMax; j++) row[j] = m === 0 ? 0 : C[m - 1][j - 1] + C[m - 1][j];
    C.push(row);
  }
  return C;
}

/** Number of sorted occupancy vectors of n servers with levels 0..K: C(n + K, n). */
export function stateCount(n: number, K: number): number {
  let c = 1;
  for (let j = 1; j <= n; j++) c = (c * (K + j)) / j;
  return Math.round(c);
}

/** Bytes the exact solver needs at (n, K): states, the column generator (≤ 2·min(n, K + 1) entries per state). */
export function stateSpaceBytes(n: number, K: number): { states: number; nonZeros: number; bytes: number } {
  const states = stateCount(n, K);
  const nonZeros = states * 2 * Math.min(n, K + 1);
  // per state: vector (n bytes), π and a warm start (16), outRate (8), inStart (4), rank → index (4); per entry 12
  return { states, nonZeros, bytes: states * (n + 32) + nonZeros * 12 };
}

/**
 * The size of the chain with levels 0..K (`stateSpaceBytes`), or a refusal when it exceeds the limits.
 * @param why what asks for level K, when it is not a chain about to be built (put after the size in the message).
 * @throws {StateSpaceTooLargeError} if C(n + K, n) > maxStates or the estimated memory > maxBytes.
 */
export function requireStateSpace(
  n: number,
  K: number,
  limits: { maxStates: number; maxBytes: number },
  why = '',
): { states: number; nonZeros: number; bytes: number } {
  const size = stateSpaceBytes(n, K);
  if (size.states > limits.maxStates || size.bytes > limits.maxBytes) {
    throw new StateSpaceTooLargeError(
      `state space too large: ${size.states.toExponential(3)} states (n = ${n}, levels 0..${K}), about ` +
        `${(size.bytes / 2 ** 30).toFixed(2)} GiB; limits ${limits.maxStates.toExponential(1)} states, ` +
        `${(limits.maxBytes / 2 ** 30).toFixed(2)} GiB${why}`,
      size.states,
      size.bytes,
    );
  }
  return size;
}

/** The enumerated chain: states, generator by columns, and what the observables need. */
export interface ExactChain {
  n: number;
  K: number;
  /** S×n bytes: state s is v = vectors[s·n .. s·n + n), non-decreasing. */
  vectors: Uint8Array;
  /** rank (colex, < C(n + K, n)) → state index. */
  rankToIndex: Int32Array;
  /** Total jobs of each state (non-decreasing in the state index): the birth–death levels of the chain. */
  levels: Int32Array;
  generator: ColumnGenerator;
  /** Probability that an arrival in state s is lost (it would join a server at level K). */
  lossProbability: Float64Array;
  /** Mean level q of the server an (accepted or lost) arrival in state s picks, Σ_q p_q·q, for E[T] by PASTA. */
  meanJoinLevel: Float64Array;
}

/**
 * Builds the truncated chain: arrivals at rate ρn, each joining a server at level q with probability
 * g(a_q) − g(a_{q+1}) (a_q = servers with ≥ q jobs; `joinAtLeast[a]` = g(a) = P(chosen server has ≥ q jobs) when
 * a servers have ≥ q), lost at level K; departures at rate 1 per busy server (service-time units).
 * @param n servers ≥ 1. @param K level cap, 1..255. @param rho arrival rate per server in service-time units.
 * @param joinAtLeast g(0..n), g(0) = 0, g(n) = 1, non-decreasing.
 * @param limits `maxStates`, `maxBytes`.
 * @throws {StateSpaceTooLargeError} if C(n + K, n) > maxStates or the estimated memory > maxBytes.
 */
export function buildExactChain(
  n: number,
  K: number,
  rho: number,
  joinAtLeast: Float64Array,
  limits: { maxStates: number; maxBytes: number },
): ExactChain {
  const size = requireStateSpace(n, K, limits);
  const S = size.states;
  const C = binomialTable(n + K, n);
  const vectors = new Uint8Array(S * n);
  const totals = new Int32Array(S);

  // Enumerate non-decreasing vectors in colex order (the rank is then the loop counter).
  const v = new Uint8Array(n);
  const ranked = new Uint8Array(S * n);
  let count = 0;
  const recurse = (j: number, max: number): void => {
    // fills v[j] for j = n−1 down to 0 with v[j] ≤ max; colex order = increasing in (v[n−1], …, v[0])
    if (j < 0) {
      ranked.set(v, count * n);
      count++;
      return;
    }
    for (let x = 0; x <= max; x++) {
      v[j] = x;
      recurse(j - 1, x);
    }
  };
  recurse(n - 1, K);
  // order by total jobs (counting sort, stable)
  const maxTotal = n * K;
  const bucket = new Int32Array(maxTotal + 2);
  for (let r = 0; r < S; r++) {
    let t = 0;
    for (let j = 0; j < n; j++) t += ranked[r * n + j];
    totals[r] = t;
    bucket[t + 1]++;
  }
  for (let t = 0; t <= maxTotal; t++) bucket[t + 1] += bucket[t];
  const rankToIndex = new Int32Array(S);
  const levels = new Int32Array(S);
  for (let r = 0; r < S; r++) {
    const index = bucket[totals[r]]++;
    rankToIndex[r] = index;
    levels[index] = totals[r];
    vectors.set(ranked.subarray(r * n, r * n + n), index * n);
  }

  const outRate = new Float64Array(S);
  const lossProbability = new Float64Array(S);
  const meanJoinLevel = new Float64Array(S);
  const inCount = new Int32Array(S + 1);
  const arrivalRate = rho * n;

  // Visits every transition s → t (t ≠ s) with its rate.
  const visit = (s: number, emit: (t: number, rate: number) => void): void => {
    const base = s * n;
    let rank = 0;
    for (let j = 0; j < n; j++) rank += C[vectors[base + j] + j][j + 1];
    let first = 0;
    while (first < n) {
      const q = vectors[base + first];
      let last = first;
      while (last + 1 < n && vectors[base + last + 1] === q) last++;
      const atLeast = n - first;
      const above = n - last - 1;
      const pJoin = joinAtLeast[atLeast] - joinAtLeast[above];
      if (q < K && pJoin > 0) {
        // v[last] + 1: rank changes by C(v + last + 1, last + 1) − C(v + last, last + 1) = C(v + last, last)
        emit(rankToIndex[rank + C[q + last][last]], arrivalRate * pJoin);
      }
      if (q > 0) {
        // v[first] − 1: rank changes by −C(v + first − 1, first)
        emit(rankToIndex[rank - C[q + first - 1][first]], last - first + 1);
      }
      first = last + 1;
    }
  };

  for (let s = 0; s < S; s++) {
    let out = 0;
    visit(s, (t, rate) => {
      inCount[t + 1]++;
      out += rate;
    });
    outRate[s] = out;
    const base = s * n;
    let first = 0;
    let join = 0;
    while (first < n) {
      const q = vectors[base + first];
      let last = first;
      while (last + 1 < n && vectors[base + last + 1] === q) last++;
      const p = joinAtLeast[n - first] - joinAtLeast[n - last - 1];
      join += p * q;
      if (q === K) lossProbability[s] = p;
      first = last + 1;
    }
    meanJoinLevel[s] = join;
  }
  const inStart = new Int32Array(S + 1);
  for (let s = 0; s < S; s++) inStart[s + 1] = inStart[s] + inCount[s + 1];
  const fill = inStart.slice(0, S);
  const nnz = inStart[S];
  const inFrom = new Int32Array(nnz);
  const inRate = new Float64Array(nnz);
  for (let s = 0; s < S; s++) {
    visit(s, (t, rate) => {
      const k = fill[t]++;
      inFrom[k] = s;
      inRate[k] = rate;
    });
  }
  return { n, K, vectors, rankToIndex, levels, generator: { inStart, inFrom, inRate, outRate }, lossProbability, meanJoinLevel };
}

/** Colex rank of the sorted vector v (length n), independent of K. */
export function vectorRank(v: ArrayLike<number>, C: Float64Array[]): number {
  let rank = 0;
  for (let j = 0; j < v.length; j++) rank += C[v[j] + j][j + 1];
  return rank;
}
