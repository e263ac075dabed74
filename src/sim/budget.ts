/**
 * Event budgets of a finite-n run: how many events a simulation will process, and the largest run the simulator
 * accepts. Each measured job is an arrival and a departure; the warm-up adds λn arrivals (and as many departures)
 * per time unit. Each arrival also samples d servers, work that grows with d and dominates for large d. Source:
 * theory.md §8 (estimands, warm-up, replications).
 */
import { InvalidModelError } from '../errors.ts';
import { heavyTailed } from '../model/moments.ts';
import type { ServiceSpec } from '../model/model.ts';
import { serviceDistribution } from '../model/service/index.ts';
import { formatCount } from '../stats/index.ts';

/** Largest run (events, all replications) the simulator accepts: about an hour at a few million events per second. */
export const MAX_EVENTS = 2e10;

/**
 * Work of sampling one server at an arrival, in events: ~12–15 ns a sample (race and event engines, d = 1000–10 000,
 * n = 20 000) against the ~200 ns an event that `MAX_EVENTS` assumes. The first two samples are in that event cost
 * already (it was measured at d = 2), so only samples beyond two count.
 */
export const SAMPLE_COST = 0.1;

/**
 * Work of one level of one right-hand-side evaluation of the SQ(d) ODE (odex, `sqdTransientEvaluations`), in events:
 * ~60–115 ns (d = 2–5, K = 600–4500) against the ~200 ns an event that `MAX_EVENTS` assumes. Lets `ode` at ρ ≥ 1, whose
 * truncation grows with the horizon, be held to the same budget as a simulation.
 */
export const ODE_LEVEL_COST = 0.5;

/**
 * Work of one variable of one drift evaluation of a population model's ODE (`model --transient`, odex), in events:
 * ~190 ns per variable (models/threshold-probe.json, 100 variables, three transitions each) against the ~200 ns of an
 * event. Holds a population transient to the same budget as a simulation.
 */
export const POPULATION_VARIABLE_COST = 1;

/**
 * Work of one variable (a level's phase) of one evaluation of the phase-type JSQ(d) ODE (`ode` with a non-exponential
 * law, odex), in events, counting `sqdTransientEvaluations` evaluations: ~230 ns (Erlang-2, λ = 0.9, d = 2, K = 9,
 * 18 variables: 2.4 s to t = 10⁴) against the ~200 ns of an event.
 */
export const PHASE_TYPE_VARIABLE_COST = 1.2;

/**
 * Work of one workload cell of one step of the LWL(d) PIDE (`ode --selection lwl`), in events: ~150 ns (λ = 0.9, d = 2,
 * Δ = 0.01, 3·10⁴ cells: 46 s to t = 100 on a loaded 2-core machine) against the ~200 ns of an event.
 */
export const LWL_CELL_COST = 0.75;

/**
 * Coarsest step of the simulation clock accepted, in time units (mean service times): the spacing of doubles near the
 * clock's end, clock × 2^−52. A tiny λn makes the clock run so far that response times lose their digits (λ = 1e−20:
 * NaN estimates).
 */
export const CLOCK_RESOLUTION = 1e-3;

/** What an event estimate needs: λ per server, n servers, measured jobs, replications, warm-up (time units). */
export interface RunSize {
  readonly lambda: number;
  readonly n: number;
  readonly jobs: number;
  readonly replications: number;
  readonly warmupTime: number;
  /** Servers sampled per arrival (default 2: no work beyond the events'). */
  readonly d?: number;
}

/** Expected events of a run: replications × (2·jobs + 2·λ·n·warmupTime) (arrivals and departures). */
export function expectedEvents(run: RunSize): number {
  return run.replications * (2 * run.jobs + 2 * run.lambda * run.n * run.warmupTime);
}

/** Server samples beyond two per arrival: (d − 2)⁺ × arrivals, the arrivals being half the events. */
function extraSamples(run: RunSize): number {
  return Math.max(0, (run.d ?? 2) - 2) * (expectedEvents(run) / 2);
}

/**
 * Refuses a run whose clock would end too coarse (`CLOCK_RESOLUTION`), or whose work, events plus `SAMPLE_COST` per server sample beyond two per arrival, exceeds `maxEvents`
 * (default MAX_EVENTS).
 * @returns the expected events of the run.
 * @throws {InvalidModelError} "this run needs about … events …", naming the warm-up, λn, jobs and replications, and
 *   with d > 2 the server samples; or "λn = … is so low that the clock reaches …" beyond `CLOCK_RESOLUTION`.
 */
export function checkEventBudget(run: RunSize, maxEvents = MAX_EVENTS): number {
  const events = expectedEvents(run);
  const samples = extraSamples(run);
  const work = events + SAMPLE_COST * samples;
  if (work > maxEvents) {
    const selection =
      samples > 0
        ? ` and ${(((run.d ?? 2) * events) / 2).toExponential(1)} server samples (d = ${run.d} per arrival; at ~${SAMPLE_COST} of an ` +
          `event's work each, ${work.toExponential(1)} event-equivalents in all)`
        : '';
    throw new InvalidModelError(
      `this run needs about ${formatCount(events)} events (warm-up ${run.warmupTime.toExponential(2)} time units × λn = ` +
        `${(run.lambda * run.n).toFixed(0)}, ${run.jobs} jobs × ${run.replications} replications)${selection}, more than ${maxEvents.toExponential(0)}; ` +
        `lower ${samples > 0 ? 'd, ' : ''}the jobs, the replications or n, or shorten the warm-up`,
    );
  }
  const clock = run.jobs / (run.lambda * run.n) + run.warmupTime; // time units one replication's clock reaches
  if (clock * Number.EPSILON > CLOCK_RESOLUTION) {
    throw new InvalidModelError(
      `λn = ${(run.lambda * run.n).toPrecision(3)} arrivals per time unit is so low that the clock reaches about ${clock.toExponential(1)} ` +
        `time units, where doubles are ${(clock * Number.EPSILON).toPrecision(2)} time units apart (coarser than ${CLOCK_RESOLUTION}): response times ` +
        'would lose their digits; raise λ or n, or lower the jobs',
    );
  }
  return events;
}

/** What `heavyTailBudgetWarnings` reads of a run: its measured jobs per unit, the unit, the job rate λn and τ. */
export interface HeavyTailBudget {
  /** Measured jobs per unit: per replication, or the whole batch-means run. */
  readonly jobs: number;
  /** What a unit is, in the words: 'replication', or 'run' (batch means: one run). */
  readonly unit: 'replication' | 'run';
  /** Jobs per time unit of the whole system, λn. */
  readonly systemRate: number;
  /** τ of the warm-up rule (`simulationWarmup`), model time units; without it the window rule is not checked. */
  readonly relaxationTime?: number;
}

/**
 * The heavy-tail budget of theory.md §8, for laws that need it (`heavyTailed`: Pareto, log-normal, Weibull shape < 1,
 * SCV > 4): ≥ 10⁵(1 + SCV) measured jobs per unit, and a measured window of ≥ 100τ; one warning in words per rule the
 * budget misses, as simulate prints them and run and conjecture carry them per cell. Empty for other laws.
 * @example heavyTailBudgetWarnings({ kind: 'pareto', alpha: 1.5, mean: 1 }, { jobs: 1e4, unit: 'replication', systemRate: 20 })
 *   // ['heavy-tailed sizes (pareto, SCV ∞): 10000 jobs per replication is below the rule of theory.md §8, …']
 */
export function heavyTailBudgetWarnings(spec: ServiceSpec, run: HeavyTailBudget): string[] {
  if (!heavyTailed(spec)) return [];
  const warnings: string[] = [];
  const scv = serviceDistribution(spec).scv;
  const needJobs = 1e5 * (1 + scv);
  if (!(run.jobs >= needJobs)) {
    warnings.push(
      `heavy-tailed sizes (${spec.kind}, SCV ${Number.isFinite(scv) ? scv.toPrecision(3) : '∞'}): ${run.jobs} jobs per ${run.unit} is below ` +
        `the rule of theory.md §8, ≥ 10⁵(1 + SCV) = ${Number.isFinite(needJobs) ? needJobs.toExponential(1) : '∞'}; early intervals are optimistic`,
    );
  }
  const tau = run.relaxationTime;
  const window = run.jobs / run.systemRate;
  if (tau !== undefined && Number.isFinite(tau) && tau > 0 && window < 100 * tau) {
    warnings.push(
      `heavy-tailed sizes: the measured window (${window.toPrecision(3)} time units) is below 100τ = ${(100 * tau).toPrecision(3)} (theory.md §8)`,
    );
  }
  return warnings;
}
