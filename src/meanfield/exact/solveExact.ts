/**
 * Exact stationary solution of the finite-n supermarket model with exponential sizes: JSQ(d) or random selection,
 * sampling with or without replacement, FIFO, on sorted occupancy vectors (servers are exchangeable), truncated at
 * a level cap K that the solver raises until the estimated truncation error of E[T] is below a stated bound. The
 * estimate extrapolates the boundary law geometrically: with m = P(max level = K) and r = m / P(max level = K − 1),
 * the mass beyond the cap is about m·r/(1 − r) at levels averaging K + 1/(1 − r), so
 * |ΔE[T]| ≲ m·r/(1 − r)·(K + 1/(1 − r))/λ (exact in form for n = 1, M/M/1/K against M/M/1). Stationary law by SOR (Gauss–Seidel, ω = 1.6) with aggregation over total jobs (before every 5th sweep) and a residual check (../../numerics/stationary.ts).
 * Source: theory.md §1–§2 (the model), §6 (what the refined mean field approximates); the chain is the n-server
 * CTMC itself, so the only approximations are the truncation (bounded and reported) and the solver residual.
 */
import { InvalidModelError, LevelCapError } from '../../errors.ts';
import { requirePoissonArrivals } from '../../model/arrivals.ts';
import { checkServers, fifoQueueLengthTwin, type SupermarketModel } from '../../model/model.ts';
import { SELECTION_TABLE } from '../../model/policy/selection.ts';
import { selectionName } from '../../model/policy/index.ts';
import { meanFieldCapabilities } from '../capabilities.ts';
import { stationaryGaussSeidel } from '../../numerics/stationary.ts';
import { VERSION, codeId } from '../../version.ts';
import { binomialTable, buildExactChain, requireStateSpace, stateCount, vectorRank, type ExactChain } from './stateSpace.ts';

export interface ExactOptions {
  /** Servers, integer ≥ 1, d ≤ n (either sampling: `checkServers`). */
  n: number;
  /** Bound on the estimated truncation error of E[T], model time units (default 1e−6). */
  truncationBound?: number;
  /** Start (or, with `fixedLevel`, the only) level cap; default from a geometric guess. */
  truncationLevel?: number;
  /** Solve at `truncationLevel` only, whatever the boundary mass (for truncation studies). Default false. */
  fixedLevel?: boolean;
  /** Gauss–Seidel stop: ‖πQ‖₁ / max_j q_j ≤ this (default 1e−12). */
  tolerance?: number;
  /** Refuse state spaces above this many states (default 2·10⁷) … */
  maxStates?: number;
  /** … or above this estimated memory in bytes (default 4 GiB). */
  maxBytes?: number;
  /**
   * Progress of each level cap's solve: called before its chain is built (`phase` 'build', fraction 0) and after every
   * residual check (`phase` 'solve'), with the cap K, its states C(n + K, n), the SOR sweeps of this cap so far, the
   * residual against the tolerance, and the fraction of the way from the start's residual to the tolerance (log
   * scale). A larger cap starts again at 0, and whether one follows is known only after a cap is solved: no total
   * work can be derived from these (the CLI shows states·sweeps/s and no ETA).
   */
  onProgress?: (progress: ExactProgress) => void;
}

/** One `onProgress` call of `solveExact`. */
export interface ExactProgress {
  K: number;
  states: number;
  phase: 'build' | 'solve';
  /** SOR sweeps at this cap so far. */
  sweeps: number;
  /** ‖πQ‖₁ / max q_j at the last check (NaN while building). */
  residual: number;
  tolerance: number;
  fraction: number;
}

export interface ExactResult {
  kind: 'exact';
  n: number;
  /**
   * How the values were obtained: 'occupancy chain', the truncated n-server chain solved numerically; 'closed form',
   * random routing (random selection, or d = 1) with exponential sizes, where each server is an M/M/1 queue with
   * arrival rate λ at every n (`randomRoutingClosedForm`): exact, no chain, `states` 0, `truncation.errorEstimate` 0.
   */
  method: 'occupancy chain' | 'closed form';
  /** Mean response time E[T] (model time units): Little's law with the accepted rate, E[Q]/(λ(1 − loss)). */
  meanResponseTime: number;
  /** E[T] from what arrivals see (PASTA, FIFO, exponential sizes): E[S]·E[1 + level joined | accepted]. */
  meanResponseTimeArrivals: number;
  /** Mean jobs per server E[Q]. */
  meanQueueLength: number;
  /** tail[i] = s_i = E[fraction of servers with ≥ i jobs], i = 0..K (tail[0] = 1). */
  tail: number[];
  /** levelProbabilities[i] = P(a given server has exactly i jobs) = s_i − s_{i+1}, i = 0..K. */
  levelProbabilities: number[];
  /** States of the truncated chain, C(n + K, n); 0 for the closed form (no chain). */
  states: number;
  truncation: {
    /**
     * Level cap: arrivals that would join a server at level K are lost. For the closed form, the last level listed in
     * `tail` (the least K whose tail beyond it weighs ≤ `bound` in E[T]); nothing is lost there.
     */
    K: number;
    /** The bound asked for on `errorEstimate`. */
    bound: number;
    /** Estimated |E[T] at cap K − E[T] without cap| (model time units; ≤ bound unless fixedLevel). */
    errorEstimate: number;
    /** Stationary P(some server has K jobs) at the returned K. */
    boundaryMass: number;
    /** Geometric decay per level of P(max level = k) at the cap, the r of the estimate. */
    decay: number;
    /** Stationary probability that an arrival is lost at the cap. */
    lossProbability: number;
    /** Every K solved, in order, with its boundary mass. */
    history: { K: number; states: number; boundaryMass: number; errorEstimate: number }[];
  };
  diagnostics: { residual: number; iterations: number; seconds: number };
  provenance: { model: SupermarketModel; method: string; source: string; version: string; code: string };
}

/** Where PS or LAS with exponential sizes is answered by FIFO's numbers (`fifoQueueLengthTwin`). */
const SHARING_SOURCE = (given: SupermarketModel) =>
  `${given.discipline.toUpperCase()} with exponential sizes: FIFO's occupancy chain (theory.md §5 "Sharing disciplines")`;

/** SOR factor: ~4× fewer sweeps than Gauss–Seidel on these chains (measured at n = 2–4, ρ = 0.9). */
const SOR_OMEGA = 1.6;
/**
 * Aggregation over total jobs before every 5th sweep, not each: the step costs about a sweep, and on the default
 * report's chains (d = 2, 3; λ = 0.7–0.95; n = 2–5, up to 1.1·10⁵ states) the solves took the same sweeps as with a
 * step before each (60–200) for ~40 % less CPU; π moved by ≤ 2·10⁻¹¹ in L1, E[T] by ≤ 1e−10 (tolerance 1e−12).
 */
const AGGREGATE_EVERY = 5;
const DEFAULTS = { truncationBound: 1e-6, tolerance: 1e-12, maxStates: 2e7, maxBytes: 4 * 2 ** 30 };
const MAX_LEVEL = 255;

/** g(a) = P(the chosen server is among the a most loaded ones …) = P(all d samples fall among a given a servers). */
function joinAtLeastTable(model: SupermarketModel, n: number): Float64Array {
  const g = new Float64Array(n + 1);
  const d = model.selection === 'random' ? 1 : model.d;
  for (let a = 0; a <= n; a++) {
    if (d === 1) g[a] = a / n;
    else if (model.sampling === 'with-replacement') g[a] = (a / n) ** d;
    else {
      // C(a, d)/C(n, d) = Π_{k<d} (a − k)/(n − k)
      let p = 1;
      for (let k = 0; k < d; k++) p *= Math.max(0, a - k) / (n - k);
      g[a] = p;
    }
  }
  g[n] = 1;
  return g;
}

/**
 * What this solver answers is what the one capability query says (`meanFieldCapabilities(model).exactChain`): the
 * occupancy chain, or at random routing the M/G/1 value at every n, which this solver gives in closed form for
 * exponential sizes (FIFO; PS and LAS through FIFO's queue lengths) and otherwise leaves to `mg1` (as compare's exact
 * points do: compare/exactPoints.ts). A model the query refuses is refused: by `checkModel`'s sentence where it has
 * one, else by the query's reason; an M/G/1 answer this solver does not give, worded from the capability.
 * @param model the model as given; @param solved its FIFO twin where it has one (`fifoQueueLengthTwin`), else itself.
 */
function checkCapability(model: SupermarketModel, solved: SupermarketModel, n: unknown): void {
  const capability = meanFieldCapabilities(model).exactChain;
  if (!capability.available) {
    checkModel(solved, n);
    throw new InvalidModelError(`no exact solver: ${capability.reason}`);
  }
  if (capability.id !== 'mg1' || (solved.discipline === 'fifo' && solved.service.kind === 'exponential')) return;
  const law = solved.service.kind === 'exponential' ? '' : ` with ${solved.service.kind} sizes`;
  throw new InvalidModelError(
    `no exact solver for ${selectionName(model)} + ${model.discipline.toUpperCase()}${law} here: the occupancy chain and its closed form cover FIFO ` +
      `(PS and LAS through FIFO's queue lengths) with exponential sizes; the exact value at every n is the ${capability.name} ` +
      `(${capability.source}): \`supermarket mg1\` with the same load λ, size law and discipline gives E[T]_n`,
  );
}

/**
 * Random routing: random selection, or a rule that samples d = 1 server (JSQ(1), LWL(1), LPW(1): one sampled server
 * leaves nothing to compare), without a dispatcher memory (refused before this is asked). Each server is then an
 * independent queue fed by a Poisson stream of rate λ at every n.
 */
function randomRouting(model: SupermarketModel): boolean {
  return model.selection === 'random' || (SELECTION_TABLE[model.selection].samplesD && model.d === 1);
}

function checkModel(model: SupermarketModel, n: unknown): { n: number; rho: number } {
  requirePoissonArrivals(model, 'the exact solver');
  if ((model.batch ?? 1) > 1) throw new InvalidModelError('the exact solver covers single arrivals, not batches');
  if (model.redundancy !== undefined)
    throw new InvalidModelError('the exact solver covers one copy per job, not redundancy-d (cancel-on-complete); use simulate');
  // the chain on sorted occupancy vectors needs exchangeable servers: speeds would be silently dropped (theory.md §13)
  if (model.servers !== undefined)
    throw new InvalidModelError('no exact solver with server speeds: the chain is derived for identical servers; use simulate');
  if (model.memory.kind !== 'none') {
    throw new InvalidModelError(
      `no exact solver for a dispatcher memory (${model.memory.kind}): the chain would need the memory's content; use simulate`,
    );
  }
  if (model.selection !== 'jsq' && !randomRouting(model)) {
    throw new InvalidModelError(`no exact solver for selection ${JSON.stringify(model.selection)}; supported: "jsq", "random"`);
  }
  if (model.discipline !== 'fifo') {
    throw new InvalidModelError(
      `no exact solver for discipline ${JSON.stringify(model.discipline)}; supported: "fifo" (and "ps", "las" with exponential sizes under jsq or random routing: FIFO's occupancy chain)`,
    );
  }
  if (model.service.kind !== 'exponential') {
    throw new InvalidModelError(`no exact solver for service kind ${JSON.stringify(model.service.kind)}; supported: "exponential"`);
  }
  // one rule with simulate, compare and the refined terms: n integer ≥ 1 and d ≤ n whatever the sampling
  return { n: checkServers(model, n), rho: model.lambda * model.service.mean };
}

/**
 * Random routing (random selection, or a rule sampling d = 1 server) with Poisson arrivals and exponential sizes: a
 * Poisson stream of rate λn split uniformly at random is n independent Poisson streams of rate λ, so each server is an
 * M/M/1 queue at every n (theory.md §7; Kleinrock, Queueing Systems I, 1975, §3.2): P(level = i) = (1 − ρ)ρ^i,
 * s_i = ρ^i, E[Q] = ρ/(1 − ρ), E[T] = E[S]/(1 − ρ) (FIFO; PS and LAS with exponential sizes have FIFO's queue
 * lengths, E[T] by Little). No chain is built: `exact --n 3 --d 1 --lambda 0.9` built 1.2·10⁶ states for 386 s to
 * give E[T] = 10 = 1/(1 − λ). `tail` lists the levels up to the least K with Σ_{k>K} s_k/λ ≤ bound.
 */
function randomRoutingClosedForm(model: SupermarketModel, n: number, rho: number, bound: number, started: number): ExactResult {
  const lambda = model.lambda;
  let K = 1;
  while (K < MAX_LEVEL && rho ** (K + 1) / ((1 - rho) * lambda) > bound) K++;
  const tail = Array.from({ length: K + 1 }, (_, i) => rho ** i);
  const levelProbabilities = tail.map((x) => (1 - rho) * x);
  const meanResponseTime = model.service.mean / (1 - rho);
  return {
    kind: 'exact',
    method: 'closed form',
    n,
    meanResponseTime,
    meanResponseTimeArrivals: meanResponseTime,
    meanQueueLength: rho / (1 - rho),
    tail,
    levelProbabilities,
    states: 0,
    truncation: { K, bound, errorEstimate: 0, boundaryMass: 0, decay: rho, lossProbability: 0, history: [] },
    diagnostics: { residual: 0, iterations: 0, seconds: (performance.now() - started) / 1000 },
    provenance: {
      model,
      method: 'closed form: each server an M/M/1 queue with arrival rate λ at every n (random routing)',
      source: 'theory.md §7; Kleinrock, Queueing Systems I (1975) §3.2',
      version: VERSION,
      code: codeId(),
    },
  };
}

function positive(name: string, value: number): number {
  if (!(typeof value === 'number' && value > 0 && Number.isFinite(value)))
    throw new InvalidModelError(`${name} must be a finite number > 0, got ${value}`);
  return value;
}

/**
 * Starting K: the level where P(all n servers ≥ K − 1) ≈ ρ^(n(K−1)) (JSQ) or P(one server ≥ K) ≈ nρ^K (random)
 * falls below the bound.
 */
function initialLevel(model: SupermarketModel, n: number, rho: number, bound: number): number {
  const perLevel = randomRouting(model) ? Math.log(rho) : n * Math.log(rho);
  return Math.min(MAX_LEVEL, Math.max(2, Math.ceil(Math.log((bound * (1 - rho) ** 2) / n) / perLevel) + 1));
}

/**
 * The least level cap K at which the mean-field JSQ(d) tail beyond it, Σ_{k>K} s_k / λ with s_k = ρ^{(d^k − 1)/(d − 1)}
 * (Vvedenskaya et al. 1996; Mitzenmacher 2001), is within `bound` (E[T], time units). A finite system's tail decays
 * geometrically, the limit's doubly exponentially, so the chain at finite n needs at least about this many levels: an
 * estimate, used only to refuse up front a state space that the solve would reach anyway. Capped at MAX_LEVEL.
 */
export function meanFieldLevelNeeded(rho: number, lambda: number, d: number, bound: number): number {
  const tailAt = (k: number) => Math.exp(((d ** k - 1) / (d - 1)) * Math.log(rho));
  for (let K = 1; K < MAX_LEVEL; K++) {
    let beyond = 0;
    for (let k = K + 1; k <= MAX_LEVEL; k++) {
      const s = tailAt(k);
      beyond += s;
      if (s < 1e-300 || s < beyond * 1e-17) break;
    }
    if (beyond / lambda <= bound) return K;
  }
  return MAX_LEVEL;
}

/**
 * A lower estimate of the E[T] truncation error at level cap K, known before any chain is built: the jobs above level
 * K per server, (1/n) Σ_{k>K} P(max level ≥ k), divided by λ (Little). No dispatch of n exponential servers holds fewer
 * jobs than the M/M/n central queue (coupling), and max level ≥ k once N ≥ n(k − 1) + 1, so
 * P(max ≥ k) ≥ P_{M/M/n}(N ≥ n(k − 1) + 1) = C(n, nρ)·ρ^{n(k−2)+1} (Erlang C, k ≥ 2), summed geometrically:
 * C·ρ^{n(K−1)+1} / (n(1 − ρ^n)λ). With one sampled server (`oneServer`: random, d = 1) the error of each capped
 * M/M/1 queue is known exactly and is the larger.
 */
export function truncationErrorAtLeast(n: number, rho: number, lambda: number, K: number, oneServer = false): number {
  const a = n * rho;
  let erlangB = 1;
  for (let k = 1; k <= n; k++) erlangB = (a * erlangB) / (k + a * erlangB);
  const erlangC = erlangB / (1 - rho * (1 - erlangB));
  const central = (erlangC * rho ** (n * (K - 1) + 1)) / (n * (1 - rho ** n) * lambda);
  if (!oneServer) return central;
  // one sampled server (random, d = 1): each server is an M/M/1 queue, capped at K an M/M/1/K one, whose E[T] is
  // known: T_∞ − T_K with T_K = E[N_K]/(λ(1 − p_K)), E[N_K] = ρ/(1 − ρ) − (K + 1)ρ^{K+1}/(1 − ρ^{K+1})
  const top = rho ** (K + 1);
  const meanK = rho / (1 - rho) - ((K + 1) * top) / (1 - top);
  const lossK = (rho ** K * (1 - rho)) / (1 - top);
  return Math.max(central, rho / (1 - rho) / lambda - meanK / (lambda * (1 - lossK)));
}

/** Mean-field-like product-form start: π(v) ∝ multinomial · Π_j ρ^{v_j} over the warm start (or nothing). */
function startVector(chain: ExactChain, rho: number, previous?: { chain: ExactChain; pi: Float64Array }): Float64Array {
  const { n, vectors } = chain;
  const S = chain.generator.outRate.length;
  const x = new Float64Array(S);
  const C = previous ? binomialTable(n + chain.K, n) : undefined;
  const logRho = Math.log(rho);
  for (let s = 0; s < S; s++) {
    const v = vectors.subarray(s * n, s * n + n);
    if (previous && v[n - 1] <= previous.chain.K) {
      x[s] = previous.pi[previous.chain.rankToIndex[vectorRank(v, C!)]];
    } else {
      let total = 0;
      for (let j = 0; j < n; j++) total += v[j];
      x[s] = Math.max(1e-300, Math.exp(total * logRho) * (previous ? 1e-12 : 1));
    }
  }
  return x;
}

/**
 * Exact stationary E[T], E[Q], tail fractions and level probabilities of the n-server model.
 * @param given `selection` 'jsq' (JSQ(d)) or 'random', `discipline` 'fifo' (or 'ps', 'las': the same occupancy chain,
 *   `fifoQueueLengthTwin`; E[Q], the tails and E[T] = E[Q]/λ are theirs, `meanResponseTimeArrivals` is FIFO's per-arrival
 *   sum, equal by Little), exponential service, `sampling` either (d ≤ n for either, as `checkServers` requires); λ per
 *   server, ρ = λ·E[S] < 1.
 * @param options `n`; `truncationBound` (default 1e−6) on the estimated truncation error of E[T];
 *   `truncationLevel`, `fixedLevel`, `tolerance`, `maxStates`, `maxBytes`. The bound is on E[T]; E[Q] and the
 *   s_i carry errors of the same order (times λ).
 *   Random routing (random selection, or d = 1) is answered in closed form, each server an M/M/1 queue at every n
 *   (`method` 'closed form', no chain), unless `fixedLevel` asks for the capped chain itself.
 * @returns `method`, `meanResponseTime`, `meanResponseTimeArrivals` (an identity check), `meanQueueLength`, `tail` s_0..s_K,
 *   `levelProbabilities`, `states`, `truncation` { K, bound, errorEstimate, boundaryMass, decay, lossProbability, history },
 *   `diagnostics` { residual, iterations, seconds }.
 * @throws {InvalidModelError} unsupported model, bad n or options. @throws {UnstableModelError} never (parseModel
 *   checks ρ < 1). @throws {StateSpaceTooLargeError} if the needed state space exceeds the limits (names its size).
 * @throws {LevelCapError} when the level cap 255 cannot reach the bound: decided before any chain is built where the
 *   M/M/n tail beyond the cap already exceeds it (`truncationErrorAtLeast`), else when a solve at the cap misses it.
 * @throws {ConvergenceError} if Gauss–Seidel does not reach the tolerance.
 * @example solveExact(parseModel({ lambda: 0.5, d: 2, sampling: 'without-replacement' }), { n: 2 }).meanResponseTime // ≈ 1.42632
 */
export function solveExact(given: SupermarketModel, options: ExactOptions): ExactResult {
  const started = performance.now();
  // PS/LAS with exponential sizes: FIFO's occupancy chain (the same queue-length process; E[T] by Little)
  const model = fifoQueueLengthTwin(given) ?? given;
  checkCapability(given, model, options?.n); // the one capability query decides what is solved here
  const { n, rho } = checkModel(model, options?.n);
  if (!(rho > 0 && rho < 1)) throw new InvalidModelError(`the load ρ = ${rho} must lie in (0, 1)`);
  const bound = positive('truncationBound', options.truncationBound ?? DEFAULTS.truncationBound);
  const tolerance = positive('tolerance', options.tolerance ?? DEFAULTS.tolerance);
  const limits = { maxStates: options.maxStates ?? DEFAULTS.maxStates, maxBytes: options.maxBytes ?? DEFAULTS.maxBytes };
  // random routing: each server an M/M/1 queue at every n, a closed form; the chain only for a truncation study
  // at a given cap (`fixedLevel`), which asks for the capped chain itself
  if (randomRouting(model) && !options.fixedLevel) {
    const r = randomRoutingClosedForm(model, n, rho, bound, started);
    return model === given
      ? r
      : { ...r, provenance: { ...r.provenance, model: given, source: `${r.provenance.source}; ${SHARING_SOURCE(given)}` } };
  }
  let K = options.truncationLevel ?? initialLevel(model, n, rho, bound);
  if (!Number.isInteger(K) || K < 1 || K > MAX_LEVEL)
    throw new InvalidModelError(`truncationLevel must be an integer in 1..${MAX_LEVEL}, got ${K}`);
  if (!options.fixedLevel) {
    // decided before any chain is built: a chain at the cap takes minutes (n = 3, λ = 0.99: 2.8e6 states, ~2 min)
    const least = truncationErrorAtLeast(n, rho, model.lambda, MAX_LEVEL, randomRouting(model));
    if (least > bound)
      throw new LevelCapError(
        `level cap ${MAX_LEVEL} cannot reach the E[T] truncation bound ${bound}: even the M/M/${n} tail beyond it is ${least.toExponential(2)} ` +
          `(load too close to 1 for the exact solver at n = ${n}); use simulate, or a looser --truncation-bound`,
      );
  }
  if (!options.fixedLevel && options.truncationLevel === undefined && model.selection === 'jsq' && model.d >= 2) {
    // decided before any chain is built: the levels the mean-field tail needs (`meanFieldLevelNeeded`) are a lower
    // estimate of what the chain at this n needs, so a state space too large there is too large for the solve (n = 200,
    // λ 0.9: chains at K = 2, 3 took ~40 s before K = 4 was refused; n = 100 ran over 2 minutes)
    const needed = meanFieldLevelNeeded(rho, model.lambda, model.d, bound);
    if (needed > K)
      requireStateSpace(
        n,
        needed,
        limits,
        ` (levels the mean-field tail needs for the E[T] truncation bound ${bound}, fewer than this n needs; use simulate)`,
      );
  }
  const g = joinAtLeastTable(model, n);
  const history: ExactResult['truncation']['history'] = [];
  let previous: { chain: ExactChain; pi: Float64Array } | undefined;
  let iterations = 0;
  for (;;) {
    const states = stateCount(n, K);
    options.onProgress?.({ K, states, phase: 'build', sweeps: 0, residual: Number.NaN, tolerance, fraction: 0 });
    const chain = buildExactChain(n, K, rho, g, limits);
    let start: number | undefined;
    const solved = stationaryGaussSeidel(chain.generator, {
      initial: startVector(chain, rho, previous),
      tolerance,
      levels: chain.levels,
      aggregateEvery: AGGREGATE_EVERY,
      omega: SOR_OMEGA,
      symmetric: false,
      onCheck: options.onProgress
        ? (residual, sweeps) => {
            start ??= residual;
            const fraction = start > tolerance ? Math.log(start / residual) / Math.log(start / tolerance) : 1;
            options.onProgress!({ K, states, phase: 'solve', sweeps, residual, tolerance, fraction: Math.min(1, Math.max(0, fraction)) });
          }
        : undefined,
    });
    iterations += solved.iterations;
    const { pi } = solved;
    // boundary mass P(v_n = K) and the one below it, P(v_n = K − 1), for the decay rate
    let atK = 0;
    let belowK = 0;
    for (let s = 0; s < pi.length; s++) {
      const top = chain.vectors[s * n + n - 1];
      if (top === K) atK += pi[s];
      else if (top === K - 1) belowK += pi[s];
    }
    const decay = belowK > 0 && atK < belowK ? atK / belowK : atK > 0 ? 0.99 : 0;
    const errorEstimate = atK === 0 ? 0 : (((atK * decay) / (1 - decay)) * (K + 1 / (1 - decay))) / model.lambda;
    history.push({ K, states: pi.length, boundaryMass: atK, errorEstimate });
    if (errorEstimate <= bound || options.fixedLevel) {
      const r = summarise(model, chain, solved, { bound, errorEstimate, boundaryMass: atK, decay }, history, iterations, started);
      if (model === given) return r;
      return { ...r, provenance: { ...r.provenance, model: given, source: `${r.provenance.source}; ${SHARING_SOURCE(given)}` } };
    }
    if (K >= MAX_LEVEL) {
      throw new LevelCapError(
        `level cap ${MAX_LEVEL} reached with E[T] truncation error ${errorEstimate.toExponential(2)} > ${bound}: load too close to 1 for the exact solver`,
      );
    }
    const steps = Math.ceil(Math.log(bound / errorEstimate) / Math.log(decay)) + 1;
    K = Math.min(MAX_LEVEL, K + Math.max(1, Math.min(steps, K)));
    previous = { chain, pi };
  }
}

function summarise(
  model: SupermarketModel,
  chain: ExactChain,
  solved: { pi: Float64Array; residual: number },
  cap: { bound: number; errorEstimate: number; boundaryMass: number; decay: number },
  history: ExactResult['truncation']['history'],
  iterations: number,
  started: number,
): ExactResult {
  const { n, K, vectors, lossProbability, meanJoinLevel } = chain;
  const { pi } = solved;
  const tail = new Array<number>(K + 2).fill(0);
  let loss = 0;
  let join = 0;
  let jobs = 0;
  for (let s = 0; s < pi.length; s++) {
    const p = pi[s];
    const base = s * n;
    for (let j = 0; j < n; j++) {
      const q = vectors[base + j];
      jobs += p * q;
      // a server at level q counts in s_1..s_q: accumulate level counts, cumulate below
      tail[q] += p;
    }
    loss += p * lossProbability[s];
    join += p * meanJoinLevel[s];
  }
  // tail[q] holds n·P(level = q); turn into s_i = Σ_{q ≥ i} P(level = q)
  const levelProbabilities = tail.slice(0, K + 1).map((x) => x / n);
  const s = new Array<number>(K + 1);
  let acc = 0;
  for (let i = K; i >= 0; i--) {
    acc += levelProbabilities[i];
    s[i] = acc;
  }
  s[0] = 1;
  const meanQueueLength = jobs / n;
  const accepted = 1 - loss;
  // E[1 + level joined | accepted] = (Σ_q p_q (q + 1) − loss·(K + 1)) / accepted
  const arrivalsMean = (join + 1 - loss * (K + 1)) / accepted;
  return {
    kind: 'exact',
    method: 'occupancy chain',
    n,
    meanResponseTime: meanQueueLength / (model.lambda * accepted),
    meanResponseTimeArrivals: arrivalsMean * model.service.mean,
    meanQueueLength,
    tail: s,
    levelProbabilities,
    states: pi.length,
    truncation: { K, ...cap, lossProbability: loss, history },
    diagnostics: { residual: solved.residual, iterations, seconds: (performance.now() - started) / 1000 },
    provenance: {
      model,
      method: 'n-server CTMC on sorted occupancy vectors, level cap K, SOR with aggregation over total jobs',
      source: 'theory.md §1–§2; Stewart 1994 §3.2',
      version: VERSION,
      code: codeId(),
    },
  };
}
