/**
 * Which moments of a model are finite in theory, decided from the families (no numerics): E[S^j], E[1/S], and the
 * means the simulator estimates — E[T], E[Q], E[U], E[T/S] — with the higher moments their confidence intervals
 * rest on. A finite estimate of an infinite mean grows with the run; an interval resting on an infinite variance
 * is not a 95 % interval. The table (theory.md §8 "Heavy tails"; ρ < 1 throughout):
 *
 * | quantity | finite iff | source |
 * |---|---|---|
 * | E[S^j] | pareto: j < α; every other law: all j ≥ 0 | the laws (service/) |
 * | E[U] workload per server | E[S²] < ∞, any discipline, any d (the residual of the job in service has time-average λE[S²]/2) | P–K; renewal reward |
 * | E[T], E[Q] = λE[T] — FIFO, SJF, SPJF (non-preemptive) | E[S²] < ∞ (a job may wait the residual of a job in service) | P–K, Cobham; theory.md §7 |
 * | E[T] — PSJF, SRPT (and PSPJF, SPRPT with exact predictions) | E[S] < ∞ | Schrage–Miller; Harchol-Balter 2013, §32–33 |
 * | E[T] — PS, LAS (FB) | E[S] < ∞ (PS: E[T] = E[S]/(1 − ρ); LAS: E[min(S, x)²] ≤ xE[S]) | Kleinrock 1976 §4; Schrage 1967 |
 * | E[T] — SPRPT with noisy predictions (exp, uniform α > 0, log-normal σ > 0) | E[S²] < ∞ (a job run past its prediction keeps the server to completion) | Mitzenmacher ITCS 2020 (arXiv:1902.00732) |
 * | E[T] — PSPJF with noisy predictions, d = 1 | E[S] < ∞ (E[M_Y] ≍ E[S], theory.md §7) | Mitzenmacher ITCS 2020 |
 * | Var[T] (the spread of a replication's mean, so the CLT interval of E[T]) | needs E[S²] < ∞ always (T ≥ S); FIFO also E[S³] < ∞ | Takács (E[W²] = 2E[W]² + λE[S³]/(3(1−ρ))) |
 * | √m-CLT of a run's mean of T (FIFO) | E[S⁴] < ∞ (sum of the waiting-time autocovariances) | Daley 1968; Whitt 1989 |
 * | E[T/S] | E[1/S] < ∞ or small jobs do not wait (PSJF, SRPT, PSPJF; SPRPT exact); and, non-preemptive, E[S²] < ∞ | theory.md §7 |
 *
 * "Infinite" is a theorem for d = 1 and for sampling with replacement (all d samples hit one server with
 * probability n^{1−d} > 0, and Poisson arrivals see its time-average residual work), so those are declared
 * infinite. For d ≥ 2 without replacement (JSQ over distinct servers) the conditions are not settled (M/G/c needs
 * fewer moments), and such cases are warnings, not verdicts; so are predicted preemptive disciplines with inexact
 * predictions.
 */
import { lpwAsLwl, type ServiceSpec, type PredictionSpec, type SupermarketModel } from './model.ts';
import { serviceDistribution } from './service/index.ts';
import { modelHasMemory } from './memory.ts';
import { DISCIPLINE_TABLE, SELECTION_TABLE, unknownPolicy, type Discipline } from './policy/index.ts';

/**
 * True iff E[1/S] < ∞: false for laws with a positive density at 0 (exponential, hyperexponential, Erlang k = 1,
 * Weibull shape ≤ 1) and for empirical sizes with a zero; true for Erlang k ≥ 2, Weibull shape > 1, log-normal,
 * deterministic, bounded and unbounded Pareto (support ≥ x_m > 0), and empirical sizes all > 0.
 */
export function inverseMomentFinite(spec: ServiceSpec): boolean {
  switch (spec.kind) {
    case 'exponential':
    case 'hyperexponential':
      return false;
    case 'erlang':
      return spec.k >= 2;
    case 'weibull':
      return spec.shape > 1;
    case 'lognormal':
    case 'deterministic':
    case 'bounded-pareto':
    case 'pareto':
      return true;
    case 'empirical':
      return spec.values.every((v) => v > 0);
  }
}

/**
 * True iff E[S^j] < ∞ for a real j ≥ 0: for `pareto` iff j < α; every other law has all moments (bounded, or tails
 * lighter than any power: exponential, Erlang, hyperexponential, Weibull, log-normal).
 */
export function serviceMomentFinite(spec: ServiceSpec, j: number): boolean {
  return spec.kind === 'pareto' ? j < spec.alpha : true;
}

/**
 * True for laws whose simulation needs the heavy-tail budget of theory.md §8 (≥ 10⁵(1 + SCV) jobs and ≥ 100τ per
 * replication): Pareto (bounded or not), log-normal, Weibull with shape < 1, and any law with SCV > 4.
 */
export function heavyTailed(spec: ServiceSpec): boolean {
  if (spec.kind === 'pareto' || spec.kind === 'bounded-pareto' || spec.kind === 'lognormal') return true;
  if (spec.kind === 'weibull' && spec.shape < 1) return true;
  return serviceDistribution(spec).scv > 4;
}

/** True when the prediction is the size itself (Y = S): exact, uniform with α = 0, log-normal with σ = 0. */
export function predictionIsExact(spec: PredictionSpec): boolean {
  return spec.kind === 'exact' || (spec.kind === 'uniform' && spec.alpha === 0) || (spec.kind === 'lognormal' && spec.sigma === 0);
}

/** Finite in theory, or infinite with the reason in words. */
export type Finiteness = { readonly finite: true } | { readonly finite: false; readonly reason: string };

/** What `estimandFiniteness` says about the simulator's means (see the table in this file's header). */
export interface EstimandFiniteness {
  readonly meanResponseTime: Finiteness;
  /** E[Q] = λE[T] (Little): the same verdict as E[T]. */
  readonly meanQueueLength: Finiteness;
  readonly meanWorkload: Finiteness;
  readonly meanSlowdown: Finiteness;
  /** Intervals of E[T] resting on an infinite higher moment, and infinite moments whose consequence is not settled. */
  readonly warnings: readonly string[];
  /**
   * Intervals of E[T/S] resting on Var[T/S] = ∞ (empty when none): under a discipline where an arrival may wait the
   * residual R of the job in service (`waitsResidual`), R is independent of the arrival's own size S, so
   * E[(T/S)²] ≥ P(wait)·E[R²]·E[1/S²], and E[R²] = E[S³]/(3E[S]) = ∞ when E[S³] = ∞ (Kleinrock 1975, §5.2).
   */
  readonly slowdownWarnings: readonly string[];
  /**
   * Why E[T] may be infinite at finite n although no rule settles it (d ≥ 2 without replacement, or inexact predictions
   * with E[S²] = ∞), when so: its sample mean may then grow without bound with the budget, so no verdict rests on it.
   */
  readonly meanResponseTimeUnsettled?: string;
}

const FINITE: Finiteness = { finite: true };

/**
 * The reason of an infinite finite-n mean for d ≥ 2 drawn with replacement, naming its path: all d draws land on one
 * server (probability n^{1−d} > 0 per arrival), so the job joins that server whatever the rule (JSQ, LWL, a replica on
 * each draw) and waits what it waits there; the path vanishes as n → ∞ and without replacement (d distinct servers).
 * `limit` is the mean-field verdict (`meanFieldLimit`): the way out is named only where the limit is finite, and an
 * unsettled limit is called neither finite nor infinite.
 */
function pinnedReason(d: number, law: string, waits: string, limit: MeanFieldLimit): string {
  const tail: Record<MeanFieldLimit, string> = {
    finite: `the path vanishes as n → ∞, and --sampling without-replacement draws ${d} distinct servers`,
    infinite: `the mean-field limit is infinite too, so drawing distinct servers (--sampling without-replacement) is no way out`,
    unsettled: `the path vanishes as n → ∞, but whether the mean-field E[T]∞ is finite is not settled (theory.md §8 "Heavy tails, in the limit")`,
  };
  return `E[S²] = ∞ (${law} ≤ 2): with replacement all ${d} draws hit one server with probability n^{1−d} > 0, and the job waits there ${waits}; ${tail[limit]}`;
}

/**
 * True when predictions fall short of the size with positive probability at every size, P(Y < S | S = x) > 0 for
 * all x: the multiplicative noise laws Y = S·R with P(R < 1) > 0 — exponential, uniform with α > 0, log-normal with
 * σ > 0 (either bias). False for exact predictions, and for trace predictions (their law is not known here).
 */
export function predictionUndershoots(spec: PredictionSpec): boolean {
  switch (spec.kind) {
    case 'exponential':
      return true;
    case 'uniform':
      return spec.alpha > 0;
    case 'lognormal':
      return spec.sigma > 0;
    case 'exact':
    case 'trace':
      return false;
  }
}

/**
 * How a discipline's row bears on the moments (theory.md §7):
 * - `waitsResidual`: an arrival may wait all that is left of the job in service, a residual whose time-average mean
 *   is ∞ when E[S²] = ∞ — non-preemptive priority servers (FIFO, SJF, SPJF: the λE[S²]/2 of Pollaczek–Khinchine and
 *   Cobham, Kleinrock 1976 §3.5), and SPRPT with predictions that fall short (`predictionUndershoots`): a job run past
 *   its prediction ranks first (key Y − a < 0, or 0 clipped) and keeps the server to completion, so an arrival of
 *   prediction y waits its rest S − (Y − y); Mitzenmacher (ITCS 2020, arXiv:1902.00732, the SPRPT formula of
 *   theory.md §7) has the term λE[((S − (Y − y))^+)² 1(Y > y)] ≥ λE[S²((1 − R)^+)² 1(SR > y)] = ∞ for every y;
 * - `preemptsBySize`: a large job never delays a smaller one (PSJF, SRPT; PSPJF and SPRPT with exact predictions;
 *   PS, LAS), so E[T] < ∞ needs E[S] < ∞ only (Schrage & Miller 1966 for SRPT, E[T] ≍ E[S²Ḡ(S)] + E[S]; Harchol-Balter
 *   2013 §32–33 for PSJF, PS: E[T] = E[S]/(1 − ρ), and LAS: λE[min(S, x)²] ≤ λxE[S]);
 * - `smallJobsServed`: a job of size x → 0 waits o(1) (PSJF, SRPT, PSPJF; SPRPT with exact predictions), so E[T/S]
 *   needs no E[1/S] < ∞.
 * PSPJF with noisy predictions is neither: a large job with a small prediction runs early but is preempted by any
 * smaller prediction; at d = 1 its E[T] = E[M_Y/(2(1 − ρ≤_Y)(1 − ρ_Y)) + S/(1 − ρ_Y)] (theory.md §7) with
 * M_y = λE[S²1(Y ≤ y)] is finite when E[S] < ∞ for the three noise laws (E[M_Y] ≍ E[S]; `pspjfSettled`).
 */
function momentTraits(
  discipline: Discipline,
  prediction: PredictionSpec,
): { readonly waitsResidual: boolean; readonly preemptsBySize: boolean; readonly smallJobsServed: boolean; readonly overrun: boolean } {
  const row = DISCIPLINE_TABLE[discipline];
  const exact = predictionIsExact(prediction);
  switch (row.server) {
    case 'priority': {
      const overrun = row.preemptive && row.rank === 'predicted remaining' && predictionUndershoots(prediction);
      return {
        waitsResidual: !row.preemptive || overrun,
        preemptsBySize: row.preemptive && (!row.usesPrediction || exact),
        smallJobsServed: row.preemptive && (row.rank !== 'predicted remaining' || exact),
        overrun,
      };
    }
    case 'sharing':
    case 'attained-service':
      // every job present (or the least served) is in service at once: no residual wait, a small job is served at once
      return { waitsResidual: false, preemptsBySize: true, smallJobsServed: true, overrun: false };
    default:
      return unknownPolicy(row.server, 'server model');
  }
}

/**
 * True when E[T] of a d = 1 (or random) PSPJF server with noisy predictions is settled by its M/G/1 formula: finite
 * when E[S] < ∞ for exponential, uniform and log-normal noise (`momentTraits`); false for trace predictions.
 */
function pspjfSettled(model: SupermarketModel): boolean {
  const row = DISCIPLINE_TABLE[model.discipline];
  return model.d === 1 && row.preemptive && row.rank === 'predicted size' && model.prediction.kind !== 'trace';
}

/**
 * Finiteness of E[T], E[Q], E[U], E[T/S] for the model, and warnings for the intervals (table in the file header).
 * @example estimandFiniteness(parseModel({ lambda: 0.5, d: 1, service: 'pareto:1.5' })).meanResponseTime
 *   // { finite: false, reason: 'E[S²] = ∞ (pareto α = 1.5 ≤ 2): FIFO waits the residual of the job in service' }
 */
export function estimandFiniteness(model: SupermarketModel): EstimandFiniteness {
  const spec = model.service;
  const law = spec.kind === 'pareto' ? `pareto α = ${spec.alpha}` : spec.kind;
  const m2 = serviceMomentFinite(spec, 2);
  const m3 = serviceMomentFinite(spec, 3);
  const m4 = serviceMomentFinite(spec, 4);
  const certain = model.d === 1 || model.sampling === 'with-replacement';
  const discipline = model.discipline;
  const traits = momentTraits(discipline, model.prediction);
  const preemptiveBySize = traits.preemptsBySize;
  const nonPreemptive = traits.waitsResidual;
  const warnings: string[] = [];
  let meanResponseTimeUnsettled: string | undefined;

  const meanWorkload: Finiteness = m2
    ? FINITE
    : { finite: false, reason: `E[S²] = ∞ (${law} ≤ 2): the work left of the job in service has time-average λE[S²]/2` };
  let meanResponseTime: Finiteness = FINITE;
  if (!m2 && nonPreemptive) {
    const reason = traits.overrun
      ? `E[S²] = ∞ (${law} ≤ 2): SPRPT with ${model.prediction.kind} predictions runs a job past its prediction to completion at top priority, so an arrival waits the rest of its size, of infinite mean (Mitzenmacher 2020: λE[((S − (Y − y))^+)²1(Y > y)] = ∞)`
      : `E[S²] = ∞ (${law} ≤ 2): ${discipline.toUpperCase()} waits the residual of the job in service`;
    if (certain)
      meanResponseTime = {
        finite: false,
        reason:
          model.d === 1
            ? reason
            : pinnedReason(
                model.d,
                law,
                traits.overrun
                  ? 'the rest of a job run past its prediction (SPRPT)'
                  : `the residual of the job in service (${discipline.toUpperCase()})`,
                meanFieldLimit(model),
              ),
      };
    else {
      meanResponseTimeUnsettled = `E[T] may be infinite: ${reason} (not settled for d ≥ 2 without replacement)`;
      warnings.push(`${meanResponseTimeUnsettled}; so no estimate and no interval, the run's average an observation only`);
    }
  } else if (!m2 && !preemptiveBySize && !pspjfSettled(model)) {
    meanResponseTimeUnsettled = `E[T] may be infinite: E[S²] = ∞ (${law}) and ${discipline.toUpperCase()} with inexact predictions can run a large job early`;
    warnings.push(meanResponseTimeUnsettled);
  }
  // a mean not settled has no interval (stats/tInterval.ts unsettledEstimate): no warning about one
  if (meanResponseTime.finite && meanResponseTimeUnsettled === undefined) {
    if (!m2) warnings.push(`the interval of E[T] rests on Var[T] = ∞ (T ≥ S and E[S²] = ∞, ${law}): it is not a 95 % interval`);
    else if (!m3 && !preemptiveBySize)
      warnings.push(
        `the interval of E[T] rests on Var[T] = ∞ (${discipline.toUpperCase()} needs E[S³] < ∞; ${law} ≤ 3): it is not a 95 % interval`,
      );
    else if (!m4 && discipline === 'fifo')
      warnings.push(
        `E[S⁴] = ∞ (${law} ≤ 4): a run's mean of T converges slower than 1/√jobs (Daley 1968); trust replications, not long runs`,
      );
  }
  if (spec.kind === 'bounded-pareto' && spec.alpha <= 3) {
    warnings.push(
      `bounded Pareto α = ${spec.alpha} ≤ 3: E[S³]${spec.alpha <= 2 ? ' and E[S²] are' : ' is'} finite only through the upper bound ` +
        `(ratio ${spec.ratio}); intervals of E[T] are optimistic until the run has seen the largest sizes many times`,
    );
  }

  let meanSlowdown: Finiteness = FINITE;
  if (!inverseMomentFinite(spec) && !traits.smallJobsServed) {
    meanSlowdown = { finite: false, reason: `E[1/S] = ∞ (${law} has mass near 0) and small jobs wait under ${discipline.toUpperCase()}` };
  } else if (!meanResponseTime.finite) {
    meanSlowdown = { finite: false, reason: `E[T/S] ≥ E[W]·E[1/S] and E[W] = ∞: ${meanResponseTime.reason}` };
  }
  const slowdownWarnings: string[] = [];
  if (meanSlowdown.finite && meanResponseTime.finite && meanResponseTimeUnsettled === undefined && m2 && !m3 && nonPreemptive)
    slowdownWarnings.push(
      `the interval of E[T/S] rests on Var[T/S] = ∞ (${discipline.toUpperCase()} makes an arrival wait the residual of the job in service, ` +
        `whose E[R²] ∝ E[S³] = ∞ (${law} ≤ 3), independent of its own size): it is not a 95 % interval`,
    );
  return {
    meanResponseTime,
    meanQueueLength: meanResponseTime,
    meanWorkload,
    meanSlowdown,
    warnings,
    slowdownWarnings,
    ...(meanResponseTimeUnsettled === undefined ? {} : { meanResponseTimeUnsettled }),
  };
}

/**
 * Smallest possible E[T] (time units), the lower end of every interval of E[T]: E[S]/μ_max, as a job is served at
 * most at the fastest speed (1 without server classes); 0 with independent replicas (the least of d sizes is bounded
 * by nothing above 0), E[S] with identical ones. E[Q] ≥ λ times it (Little).
 * @example responseTimeLowerBound(parseModel({ lambda: 0.5, d: 2 })) // 1
 */
export function responseTimeLowerBound(model: SupermarketModel): number {
  if (model.redundancy?.replicas === 'independent') return 0;
  const fastest = model.servers === undefined ? 1 : Math.max(...model.servers.speeds);
  return serviceDistribution(model.service).mean / fastest;
}

/**
 * Why no precision target (a stopping rule on the interval of E[T]) can be met for the model, or null when one can:
 * E[T] = ∞ in theory (`estimandFiniteness`: no interval of a finite width covers it, and the run's
 * mean grows with the budget), or E[T] possibly infinite with no rule settling it (`meanResponseTimeUnsettled`: the
 * width a run reaches says nothing about E[T]). One line, for `planSimulation` and the commands that size runs by a
 * precision (simulate --precision/--half-width, compare --resolve).
 * @example precisionRefusal(parseModel({ lambda: 0.5, d: 1, service: 'pareto:1.5' }))
 *   // 'no precision target for E[T]: it is infinite in theory (E[S²] = ∞ …); simulate a fixed budget instead'
 */
export function precisionRefusal(model: SupermarketModel): string | null {
  const finiteness = estimandFiniteness(model);
  if (!finiteness.meanResponseTime.finite)
    return `no precision target for E[T]: it is infinite in theory (${finiteness.meanResponseTime.reason}), so no interval can reach a width; simulate a fixed budget instead`;
  if (finiteness.meanResponseTimeUnsettled !== undefined)
    return `no precision target for E[T]: ${finiteness.meanResponseTimeUnsettled}, so the width a run reaches would mean nothing; simulate a fixed budget instead`;
  return null;
}

/**
 * True where E[T]∞ < ∞ is proven although E[S²] = ∞ and the discipline waits the residual of the job in service:
 * JSQ(d) FIFO, d ≥ 2, identical servers, sizes with a power-law tail P(S > x) ≍ x^{−α} (`pareto`) and α ≥ d/(d − 1).
 * Bramson, Lu & Prabhakar, "Decay of tails at equilibrium for FIFO join the shortest queue networks", Ann. Appl.
 * Probab. 23(5):1841–1878, 2013 (arXiv:1106.4582), under the asymptotic-independence ansatz whose equilibrium is the
 * mean field here: the limit's queue-length tail s_k decays doubly exponentially for α > d/(d − 1) and exponentially
 * at α = d/(d − 1), so Σ s_k < ∞ and E[T]∞ = Σ s_k/λ (Little) is finite. For α < d/(d − 1) the tail is a power law,
 * and whether it is summable is not settled here (`meanFieldUnsettled`).
 */
function jsqFifoHeavyTailFinite(model: SupermarketModel): boolean {
  const spec = model.service;
  return (
    model.selection === 'jsq' &&
    model.discipline === 'fifo' &&
    model.servers === undefined &&
    model.d >= 2 &&
    spec.kind === 'pareto' &&
    spec.alpha >= model.d / (model.d - 1)
  );
}

/**
 * Finiteness of E[T] in the mean-field limit n → ∞ (theory.md §8 "Heavy tails, in the limit"), decided from the
 * families. `finite: false` only where E[T]∞ = ∞ is proven; `finite: true` where it is proven finite and where no rule
 * settles it — `meanFieldUnsettled` names the latter, and the capability query gives them no number. Without memory,
 * batches or server classes (those models pass through this rule after their reduction, or are not settled):
 * - d = 1 or `random`: each server is an M/G/1 queue; the rule of `estimandFiniteness` (certain for d = 1).
 * - a rule reading the job count (JSQ(d), SED) with a discipline that waits the residual of the job in service (FIFO,
 *   SJF, SPJF; SPRPT with predictions that fall short) and E[S²] = ∞: never proven infinite. An arrival does not see a
 *   length-biased residual: a server held by a long job keeps its queue growing and JSQ(d) stops sending it jobs once
 *   its queue exceeds the others'. Proven finite for JSQ(d) FIFO with pareto α ≥ d/(d − 1) (`jsqFifoHeavyTailFinite`,
 *   Bramson, Lu & Prabhakar 2013); every other such case is not settled (`meanFieldUnsettled`).
 * - LWL(d) with FIFO: E[T] = ∞ iff ∫ (∫_w^∞ P(S > v) dv)^d dw = ∞, i.e. E[S^{1+1/d}] = ∞ for the laws here (pareto:
 *   α ≤ 1 + 1/d). From the FPE of Hellemans & Van Houdt 2018 (theory.md §4), F̄(w) = λ∫_w^∞ Ḡ + λ∫_0^w F̄(w − v)^d Ḡ(v)dv,
 *   so F̄(w) ≥ λ∫_w^∞ Ḡ, and F̄(w) ≤ 2λ∫_{w/2}^∞ Ḡ + ρF̄(w/2)^d gives F̄(w) = O(∫_{w/2}^∞ Ḡ) once F̄(w/2)^{d−1} is small;
 *   FIFO waits W = the least of d workloads, E[W] = ∫ F̄^d dw (the FPE's E[T] grows like ln W at d = 2, α = 1.5, and
 *   like W^{0.1} at d = 3, α = 1.3, as its horizon W grows: test/meanfield/limitFiniteness.test.ts).
 * - every other case: finite (preemptive and sharing disciplines need E[S] < ∞ only; LPW and LWL with other
 *   disciplines are answered by their estimators, except the LPW cases of `meanFieldUnsettled`).
 * @example meanFieldFiniteness(parseModel({ lambda: 0.9, d: 2, selection: 'lwl', service: 'pareto:1.5' })).finite // false
 */
export function meanFieldFiniteness(model: SupermarketModel): Finiteness {
  const lwl = lpwAsLwl(model); // LPW with exact predictions dispatches as LWL: its limit is LWL's
  if (lwl !== undefined) return meanFieldFiniteness(lwl);
  if (model.d === 1 || model.selection === 'random') return estimandFiniteness({ ...model, d: 1 }).meanResponseTime;
  if (modelHasMemory(model) || model.batch !== 1) return FINITE;
  const spec = model.service;
  const law = spec.kind === 'pareto' ? `pareto α = ${spec.alpha}` : spec.kind;
  const row = SELECTION_TABLE[model.selection];
  switch (row.stateRead) {
    case 'count':
      // E[S²] = ∞ with a residual wait is finite (JSQ(d) FIFO, α ≥ d/(d − 1)) or not settled (`meanFieldUnsettled`):
      // no rule proves it infinite, so no ∞ is declared (it once was: JSQ(3) FIFO pareto:1.9, proven finite, printed ∞)
      return FINITE;
    case 'work': {
      // server speeds change no moment: a class-v server turns S into S/v, so E[(S/v)^k] = ∞ iff E[S^k] = ∞ (§13)
      const order = 1 + 1 / model.d;
      if (model.discipline === 'fifo' && !serviceMomentFinite(spec, order))
        return {
          finite: false,
          reason: `E[S^{1+1/d}] = ∞ (${law} ≤ 1 + 1/${model.d}): the workload ccdf decays like P(S > w) integrated, w^{−(α−1)}, so the least of ${model.d} workloads has E[W] = ∫ F̄^d dw = ∞`,
        };
      return FINITE;
    }
    case 'none':
    case 'predicted work':
    case 'idleness':
    case 'memory':
      return FINITE;
    default:
      return unknownPolicy(row.stateRead, 'selection state');
  }
}

/**
 * Why the mean-field E[T]∞ may be infinite with no rule settling it, or undefined (theory.md §8 "Heavy tails, in the
 * limit"). Two kinds, both d ≥ 2 with E[S²] = ∞ and a discipline that makes an arrival wait the residual of a job in
 * service (FIFO, SJF, SPJF; SPRPT with predictions that fall short), where that residual has infinite time-average
 * mean but the rule sends fewer arrivals to a server the longer it is held:
 * - a rule reading the job count (JSQ(d), SED), except JSQ(d) FIFO with pareto α ≥ d/(d − 1) on identical servers
 *   (proven finite, `jsqFifoHeavyTailFinite`). Bramson, Lu & Prabhakar (Ann. Appl. Probab. 2013) prove a power-law
 *   queue-length tail for JSQ(d) FIFO with α < d/(d − 1) (their exponent, not checked here, decides Σ s_k); a heuristic
 *   count of the levels reached during a job of length L (level k is reached after ≍ Σ_{j<k} 1/(λd s_j^{d−1})) gives
 *   s_k ≍ k^{−(α−1)/(d − (d−1)α)}, summable iff α > 1 + 1/d — a heuristic, not a proof. SJF, SPJF, SED, server speeds:
 *   not covered by that paper.
 * - LPW(d) with inexact predictions (`lpwAsLwl` undefined): at d = 1 this is E[T] = ∞ (Mitzenmacher 2020: a job run
 *   past its prediction keeps the server, λE[((S − (Y − y))^+)²] = ∞), and a tagged LPW server is such an M/G/1 queue
 *   with the same jobs, but its arrival rate falls as its predicted work grows (a server whose job overran looks idle
 *   under 'clip', then less attractive with each job that joins). A heuristic count of the joins during an overrun of
 *   length L (≍ L^γ, γ = 1/(1 + β(d − 1)), β the tail index of predicted work) makes the waiting they add ≍ L^{1+γ},
 *   infinite in mean at d = 2, α = 1.5 but not for every d and α.
 * No finite number is printed for either (the capability query refuses the solvers; fixed-point and compare say why).
 * @example meanFieldUnsettled(parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5' }))
 *   // 'E[T]∞ not settled: E[S²] = ∞ (pareto α = 1.5 ≤ 2) and JSQ(2) with FIFO …'
 */
export function meanFieldUnsettled(model: SupermarketModel): string | undefined {
  if (model.d === 1 || serviceMomentFinite(model.service, 2)) return undefined;
  const traits = momentTraits(model.discipline, model.prediction);
  if (!traits.waitsResidual) return undefined;
  const spec = model.service;
  const law = spec.kind === 'pareto' ? `pareto α = ${spec.alpha}` : spec.kind;
  const stateRead = SELECTION_TABLE[model.selection].stateRead;
  if (stateRead === 'count') {
    // memory and batches pass through `meanFieldFiniteness` as finite (their own reductions answer them)
    if (modelHasMemory(model) || model.batch !== 1 || jsqFifoHeavyTailFinite(model)) return undefined;
    const d = model.d;
    const fifoJsq = model.selection === 'jsq' && model.discipline === 'fifo' && model.servers === undefined;
    const threshold = `d/(d − 1) = ${+(d / (d - 1)).toFixed(3)}`;
    const why = fifoJsq
      ? `Bramson, Lu & Prabhakar (Ann. Appl. Probab. 2013) prove E[T]∞ finite for α ≥ ${threshold} only; below it the queue-length tail is a power law, and a heuristic (not a proof) puts its sum finite iff α > 1 + 1/${d}`
      : `the theorem that settles JSQ(d) FIFO (Bramson, Lu & Prabhakar 2013, finite for pareto α ≥ ${threshold}) does not cover ${model.selection.toUpperCase()}(${d}) with ${model.discipline.toUpperCase()}${model.servers === undefined ? '' : ' and server speeds'}`;
    const what = traits.overrun
      ? 'a job run past its prediction keeps the server (SPRPT)'
      : `the job in service is not preempted (${model.discipline.toUpperCase()})`;
    return (
      `E[T]∞ not settled: E[S²] = ∞ (${law} ≤ 2) and ${model.selection.toUpperCase()}(${d}) with ${model.discipline.toUpperCase()}: ${what}, ` +
      `but the rule sends a server held by a long job fewer arrivals as its queue grows, so no arrival sees the time-average residual; ${why}`
    );
  }
  if (stateRead !== 'predicted work') return undefined;
  if (lpwAsLwl(model) !== undefined || predictionIsExact(model.prediction)) return undefined;
  const what = traits.overrun
    ? 'a job run past its prediction keeps the server (SPRPT)'
    : `the job in service is not preempted (${model.discipline.toUpperCase()})`;
  return (
    `E[T]∞ not settled: E[S²] = ∞ (${law} ≤ 2) and LPW(${model.d}) with ${model.prediction.kind} predictions cannot see the true work left; ` +
    `${what}, so an arrival may wait a rest of infinite mean (E[T] = ∞ at d = 1, Mitzenmacher 2020), but LPW thins the arrivals ` +
    `to a server as its predicted work grows, and no rule here decides whether the limit's E[T] is finite`
  );
}

/** The mean-field verdict on E[T]∞ in one word: proven infinite (`meanFieldFiniteness`), not settled (`meanFieldUnsettled`), or finite. */
export type MeanFieldLimit = 'finite' | 'infinite' | 'unsettled';

/** `MeanFieldLimit` of the model: 'infinite' iff `meanFieldFiniteness` says ∞, 'unsettled' iff `meanFieldUnsettled` gives a reason. */
export function meanFieldLimit(model: SupermarketModel): MeanFieldLimit {
  if (!meanFieldFiniteness(model).finite) return 'infinite';
  return meanFieldUnsettled(model) === undefined ? 'finite' : 'unsettled';
}

/**
 * True when E[T]_n = ∞ at every n (`estimandFiniteness`, e.g. with replacement: all d draws on one server) while the
 * mean-field E[T]∞ is finite (`meanFieldLimit`, e.g. LWL(3) with pareto:1.5): E[T]_n does not converge to E[T]∞,
 * and outputs must not print the limit as ∞. False where the limit is not settled (JSQ(2) FIFO pareto:1.5): no output
 * may call it finite either.
 */
export function infiniteOnlyAtFiniteN(model: SupermarketModel): boolean {
  return !estimandFiniteness(model).meanResponseTime.finite && meanFieldLimit(model) === 'finite';
}

/**
 * What a text output says of a model whose E[T] is ∞ somewhere (a reference of ∞ in compare), by `meanFieldLimit`:
 * the limit is called ∞ only where that is proven. 'E[T]∞ = ∞ and E[T]_n = ∞ in theory' (limit 'infinite'),
 * 'E[T]_n = ∞ at every n in theory' (limit 'finite', `infiniteOnlyAtFiniteN`), 'E[T]_n = ∞ at every n in theory,
 * E[T]∞ not settled' (limit 'unsettled', e.g. JSQ(2) FIFO pareto:1.5 with replacement), or 'E[T]∞ not settled'.
 */
export function infiniteMeanWords(model: SupermarketModel): string {
  const limit = meanFieldLimit(model);
  const finiteN = estimandFiniteness(model);
  const atEveryN = !finiteN.meanResponseTime.finite;
  // without replacement E[T]_n may be finite or not settled while the limit is ∞ (LWL(2) FIFO pareto:1.5): not "= ∞"
  const atN = finiteN.meanResponseTimeUnsettled !== undefined ? 'E[T]_n not settled' : 'E[T]_n finite';
  switch (limit) {
    case 'infinite':
      return atEveryN ? 'E[T]∞ = ∞ and E[T]_n = ∞ in theory' : `E[T]∞ = ∞ in theory, ${atN}`;
    case 'finite':
      return atEveryN ? 'E[T]_n = ∞ at every n in theory' : `${atN}, E[T]∞ finite`;
    case 'unsettled':
      return atEveryN ? 'E[T]_n = ∞ at every n in theory, E[T]∞ not settled' : 'E[T]∞ not settled';
    default:
      return unknownPolicy(limit, 'mean-field limit');
  }
}

/**
 * True iff the mean slowdown E[T/S] is finite in theory (theory.md §7): when E[1/S] < ∞, or when small jobs do
 * not wait a positive time — PSJF, SRPT and PSPJF always, SPRPT with exact predictions; FIFO, SJF and SPJF with
 * E[1/S] = ∞ have E[T/S] = ∞; and, for d = 1 or sampling with replacement, not when E[T] = ∞ under a
 * non-preemptive discipline (`estimandFiniteness`).
 */
export function slowdownFinite(model: SupermarketModel): boolean {
  return estimandFiniteness(model).meanSlowdown.finite;
}
