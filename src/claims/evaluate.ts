/**
 * Evaluates a conjecture over its grid: each quantity of the claim at each grid point from the mean-field solver
 * where one exists (solveMeanField: exact, approximation or estimate) and from finite-n simulation otherwise, then a
 * verdict per grid point by interval arithmetic (interval.ts, claim.ts). Pure: simulations and solves go through
 * injectable hooks, so the CLI can run them on a worker pool and cache them on disk.
 * Sources: theory.md §2–§5 (solvers), §8 (simulation, CIs), §1 (H1–H8), §9 (open questions).
 */
import { tQuantile as quantile } from '../lazy.ts';
import { ConvergenceError, InvalidModelError } from '../errors.ts';
import {
  batchLabel,
  canonicalArrivals,
  canonicalMemory,
  idleGridSettings,
  memoryApplies,
  parseModel,
  settingApplies,
  usesPrediction,
  type BatchDispatch,
  type Discipline,
  type PolicySetting,
  type Selection,
  type SupermarketModel,
} from '../model/index.ts';
import { heavyTailBudgetWarnings, percentileSectionWarning, simulate } from '../sim/index.ts';
import { estimandFiniteness } from '../model/moments.ts';
import { cellSeed, fnv1a, isInfinite, isUnsettled, OPEN_END_WHY, type Estimate } from '../stats/index.ts';
import { VERSION } from '../version.ts';
import { taskCost, type SimulationTask } from '../runs/task.ts';
import { solveMeanField, type MeanFieldSolution, type SolveOptions, type SolutionKind } from '../meanfield/solve.ts';
import { cappedWarmupWarning, simulationWarmup, type SimulationStart } from '../meanfield/warmup.ts';
import { fitErrorRange, type PhaseTypeFitError } from '../meanfield/phaseType/fitError.ts';
import { meanFieldCapabilities } from '../meanfield/capabilities.ts';
import { evaluateClaim, type ComparisonOutcome, type Measure, type ParsedClaim, type QuantityRef } from './claim.ts';
import type { Verdict } from './interval.ts';
import type { Conjecture, ConjectureSpec } from './schema.ts';

/** One grid point: λ, d, a service law, a prediction model (short forms as written in the file) and a memory. */
export interface GridPoint {
  readonly key: string;
  readonly lambda: number;
  readonly d: number;
  readonly service: string;
  readonly prediction: string;
  /** Dispatcher memory (canonical short form, `formatMemory`); 'none' without one. */
  readonly memory: string;
  /** Arrival process (canonical short form, `formatArrivals`; theory.md §14); 'exp' for Poisson. */
  readonly arrivals: string;
  /** Batch size K (theory.md §15), 1 for single jobs, or a size law's canonical short form (`canonicalBatch`, e.g. geom:2). */
  readonly batch: number | string;
  /** How a batch of K > 1 is placed (spread or whole); spread when K = 1. */
  readonly batchDispatch: BatchDispatch;
  /** Row label of the verdict map: "service, d = …, prediction …". */
  readonly row: string;
}

/** One finite-n simulation the evaluation needs (deduplicated over grid points and quantities): a `SimulationTask` whose seed is its grid point's. */
export interface SimulationRequest extends SimulationTask {
  /** `simulate`'s options of the request: the budget, the grid point's seed (common random numbers) and the warm-up. */
  readonly options: {
    readonly n: number;
    readonly jobs: number;
    readonly replications: number;
    readonly seed: number;
    readonly warmupTime: number;
    /** The fixed-point start's tail (`simulate`'s start), absent for the empty start. */
    readonly start?: { readonly name: string; readonly from: number[] };
  };
  readonly warmupRule: string;
  /** Where its replications start (the evaluation's start resolved by `simulationWarmup`). */
  readonly start: SimulationStart;
  /**
   * What this simulation's run warns of, said beside every quantity it gives (`QuantityValue.warnings`): a warm-up the
   * file's maxWarmup cut below the one rule's (`cappedWarmupWarning`), a budget below the heavy-tail rule of theory.md §8
   * (`heavyTailBudgetWarnings`); absent when none. Not part of `options` (not a setting of the stored summary).
   */
  readonly warnings?: readonly string[];
}

/** What the evaluation reads from a simulation (a subset of SimulationResult, so cached cells stay small). */
export interface SimulationSummary {
  readonly meanResponseTime: Estimate;
  readonly meanSlowdown: Estimate;
  readonly responseTimePercentiles: { readonly p50: Estimate; readonly p95: Estimate; readonly p99: Estimate };
  readonly events?: number;
  readonly wallSeconds?: number;
  /**
   * The run's notes (sim/simulate.ts `SimulationResult.notes`: why a percentile interval is open at an end,
   * stats/tInterval.ts `openEndNote`); absent in cells stored before they were kept.
   */
  readonly notes?: readonly string[];
}

export interface ConjectureHooks {
  /** Runs the requests, returning summaries in the same order. Default: `simulate` in this thread, one by one. */
  readonly simulate?: (requests: readonly SimulationRequest[]) => Promise<readonly SimulationSummary[]>;
  /** Mean-field solver. Default: solveMeanField. */
  readonly solve?: (model: SupermarketModel, options: SolveOptions) => MeanFieldSolution;
  /** Called after each mean-field solve (done of total candidate solves). */
  readonly onSolve?: (done: number, total: number, label: string) => void;
}

export type QuantitySource = 'mean-field' | 'simulation';

/** The value of one quantity at one grid point, with where it came from. */
export interface QuantityValue {
  readonly key: string;
  readonly measure: Measure;
  readonly selection: Selection;
  readonly discipline: Discipline;
  readonly source: QuantitySource;
  /** Solver kind, or 'simulation'. */
  readonly kind: SolutionKind | 'simulation';
  /** Solver name (e.g. "LWL(d) closed form", "JSQ cavity iteration") or "simulation n = 1000 (5 × 1e5 jobs)". */
  readonly method: string;
  /** Point value (time units for T and P*, dimensionless for S). */
  readonly value: number;
  /**
   * Interval used for the verdict: the (possibly Bonferroni-widened) CI, value ± numerical error, or for an
   * approximation with a measured error (the PH fit) [value/(1 + high), value/(1 + low)].
   */
  readonly interval: [number, number];
  /** The estimate's own 95% CI (simulation, or a mean-field solution of kind 'estimate'). */
  readonly ci95?: [number, number];
  /** Replications (or batches) behind the CI. */
  readonly replications?: number;
  readonly numericalError?: number;
  /** The measured error of an approximation (the two-moment PH fit) behind `interval`. */
  readonly measuredError?: PhaseTypeFitError;
  /** Why a quantity was simulated rather than solved (absent for mean-field values). */
  readonly reason?: string;
  /** Identifier of the simulation request behind a simulated value. */
  readonly simulation?: string;
  /**
   * Why the interval of a simulated percentile is open at an end (stats/tInterval.ts `openEndNote`, the run's note
   * as simulate and replay print it), when it is; absent otherwise.
   */
  readonly openEnd?: string;
  /** With `openEnd`: the explanation the run's open ends share, said once per run (stats/tInterval.ts `openEndWhy`). */
  readonly openEndWhy?: string;
  /**
   * Why this simulated mean may be infinite with no rule settling it (model/moments.ts `meanResponseTimeUnsettled`),
   * when so: then there is no estimate, `value` and `interval` are NaN (JSON: `value` is the not-settled object
   * `{ mean: null, unsettled: true, reason, replications, sampleMean }`, no interval, claims/report.ts `quantityJson`)
   * and the run's average is `sampleMean`, an observation.
   */
  readonly unsettled?: string;
  /** With `unsettled`: the run's average (an observation, not an estimate). */
  readonly sampleMean?: number;
  /**
   * What simulate warns of this simulated mean's interval (model/moments.ts `estimandFiniteness` warnings, `intervalWarnings`:
   * e.g. Var[T] = ∞, so it is not a 95 % interval), when it has an interval and a warning; absent otherwise.
   */
  readonly warnings?: readonly string[];
}

/**
 * The verdict at a grid point: the claim's three-valued verdict, or 'undefined' when a quantity it names is infinite
 * in theory (model/moments.ts): a claim over ∞ neither holds nor fails. Printed "undefined (infinite)".
 */
export type PointVerdict = Verdict | 'undefined';

export interface PointResult {
  readonly point: GridPoint;
  readonly quantities: readonly QuantityValue[];
  /** The comparisons (none when the verdict is 'undefined'). */
  readonly comparisons: readonly ComparisonOutcome[];
  readonly verdict: PointVerdict;
  /** The quantities infinite in theory, with why (verdict 'undefined'); absent when none. */
  readonly infinite?: readonly string[];
  /** The simulated means that may be infinite without a settling rule, with why (verdict 'undecided'); absent when none. */
  readonly unsettled?: readonly string[];
  /**
   * What simulate warns of the intervals the verdict rests on (`QuantityValue.warnings`), each warning once after the
   * quantities it holds for ("T(jsq, srpt), T(jsq, ps): the interval of E[T] rests on Var[T] = ∞ …: it is not a 95 %
   * interval"); absent when none, and when no interval is compared (verdict undefined, or a mean not settled).
   */
  readonly warnings?: readonly string[];
  /** Two-sided confidence level of each estimated quantity's interval at this point (0.95, or 1 − 0.05/m). */
  readonly perQuantityConfidence: number;
}

export interface ConjectureResult {
  readonly name: string;
  readonly claim: string;
  readonly spec: ConjectureSpec;
  readonly points: readonly PointResult[];
  readonly summary: {
    readonly holds: number;
    readonly fails: number;
    readonly undecided: number;
    /** Points where a quantity is infinite in theory (verdict 'undefined'). */
    readonly undefined: number;
    readonly total: number;
  };
  /** The simulations run (their requests without the scheduling cost). */
  readonly simulations: readonly Omit<SimulationRequest, 'cost'>[];
  readonly provenance: { readonly version: string; readonly verdictRule: string };
}

/** The rule, as printed in reports. */
export const VERDICT_RULE =
  'Each quantity is an interval: a 95% CI for simulated and mean-field (cavity) estimates (Bonferroni-widened to joint 95% over the ' +
  'm estimated quantities of a grid point when `simultaneous`), value ± numerical error for deterministic solvers. Both sides of each ' +
  'comparison are evaluated by interval arithmetic (an enclosure of every value the side can take). A comparison holds if it is true for ' +
  "every pair of values in the two side intervals, fails if false for every pair, and is undecided otherwise; and/or/not follow Kleene's " +
  'three-valued logic. If all intervals of a grid point cover their true values (probability ≥ 95% with the widening), a decided verdict ' +
  'is correct for the quantities as estimated (finite-n simulations estimate the n-server system, not the limit). A point where a ' +
  'quantity is infinite in theory (model/moments.ts, e.g. E[T/S] under FIFO with E[1/S] = ∞) is undefined (infinite): it neither holds nor fails.';

/** The percentile p of each percentile measure (`responseTimePercentiles`: p50, p95, p99). */
const PERCENTILE_OF: Record<'P50' | 'P95' | 'P99', number> = { P50: 0.5, P95: 0.95, P99: 0.99 };

/** 32-bit FNV-1a of a request body: names cached simulations (not a seed; seeds come from `cellSeed`). */
const fnv = (text: string): number => fnv1a(text);

/**
 * Expands the grid in the order service, d, prediction, memory, arrivals, batch, λ (rows of the verdict map are
 * service × d × prediction × memory × arrivals × batch).
 * @returns one GridPoint per combination.
 * @throws {InvalidModelError} for a grid setting that acts on no quantity of the claim (`idleGridSettings`: d ≠ 1
 *   where no rule samples, a prediction where none is read, a memory no rule can use).
 */
export function expandConjectureGrid(spec: ConjectureSpec, claim?: ParsedClaim): GridPoint[] {
  const memories = spec.grid.memory.map(canonicalMemory);
  const arrivalsList = spec.grid.arrivals.map(canonicalArrivals);
  const { batchDispatch } = spec.grid;
  if (claim) refuseIdleGrid(spec, claim, memories);
  if (batchDispatch !== 'spread' && spec.grid.batch.every((k) => k === 1))
    throw new InvalidModelError(`"grid.batchDispatch" = "${batchDispatch}" has no effect: every batch size of "grid.batch" is 1; drop it`);
  // batch entries are canonical (schema: K or a law's short form); two spellings of one size would share a point key
  const twice = spec.grid.batch.find((b, i) => spec.grid.batch.indexOf(b) !== i);
  if (twice !== undefined)
    throw new InvalidModelError(
      `"grid.batch" lists the batch size ${JSON.stringify(twice)} twice (after canonical forms: pmf:0,1 is 2); give each once`,
    );
  const out: GridPoint[] = [];
  for (const service of spec.grid.service)
    for (const d of spec.grid.d)
      for (const prediction of spec.grid.prediction)
        for (const memory of memories)
          for (const arrivals of arrivalsList)
            for (const batch of spec.grid.batch) {
              const dispatch = batch === 1 ? 'spread' : batchDispatch;
              for (const lambda of spec.grid.lambda) {
                const row =
                  `${service}, d = ${d}${spec.grid.prediction.length > 1 || prediction !== 'exact' ? `, prediction ${prediction}` : ''}` +
                  `${memories.length > 1 || memory !== 'none' ? `, memory ${memory}` : ''}` +
                  `${arrivalsList.length > 1 || arrivals !== 'exp' ? `, arrivals ${arrivals}` : ''}` +
                  `${spec.grid.batch.length > 1 || batch !== 1 ? `, ${batchLabel(batch, dispatch) || 'batch 1'}` : ''}`;
                // Poisson single-job points keep their keys (stored simulations and reports of older versions)
                const key =
                  `${service}|d${d}|${prediction}${memory === 'none' ? '' : `|memory-${memory}`}` +
                  `${arrivals === 'exp' ? '' : `|arrivals-${arrivals}`}${batch === 1 ? '' : `|batch-${batch}-${dispatch}`}|lambda${lambda}`;
                out.push({ key, lambda, d, service, prediction, memory, arrivals, batch, batchDispatch: dispatch, row });
              }
            }
  return out;
}

/** The d a rule runs at on a grid point: the point's where it samples d servers, else 1 (`settingApplies`). */
function quantityD(q: Pick<QuantityRef, 'selection' | 'discipline'>, d: number): number {
  return settingApplies('d', { ...q, d }) ? d : 1;
}

/**
 * The memory of a quantity at a grid point: the one the claim names, else the point's where the rule can use it
 * (`memoryApplies`), else none — as a prediction acts on the policies that read one.
 */
export function quantityMemory(
  q: Pick<QuantityRef, 'selection' | 'discipline' | 'memory'>,
  point: Pick<GridPoint, 'd' | 'memory'>,
): string {
  if (q.memory !== undefined) return q.memory;
  return memoryApplies(q.selection, quantityD(q, point.d), point.memory) ? point.memory : 'none';
}

function refuseIdleGrid(spec: ConjectureSpec, claim: ParsedClaim, memories: readonly string[]): void {
  const given: PolicySetting[] = [];
  if (spec.grid.d.some((d) => d !== 1)) given.push('d');
  if (spec.grid.prediction.some((p) => p !== 'exact')) given.push('prediction');
  if (spec.sampling === 'without-replacement') given.push('sampling');
  const [idle] = idleGridSettings(claim.quantities, spec.grid.d, given);
  if (idle) {
    const where = idle.setting === 'sampling' ? '"sampling"' : `"grid.${idle.setting}"`;
    throw new InvalidModelError(
      `${where} = ${JSON.stringify(idle.setting === 'sampling' ? spec.sampling : spec.grid[idle.setting])} has no effect: ${idle.reason}; drop it or add a quantity that uses it`,
    );
  }
  for (const memory of memories) {
    if (memory === 'none') continue;
    const acts = claim.quantities.some(
      (q) => q.memory === undefined && spec.grid.d.some((d) => memoryApplies(q.selection, quantityD(q, d), memory)),
    );
    if (!acts)
      throw new InvalidModelError(
        `"grid.memory" entry ${JSON.stringify(memory)} has no effect: no quantity of the claim without its own memory has a rule that can use it (jsq or lwl with d ≥ 2; jiq with ism:A)`,
      );
  }
}

/**
 * The model of one quantity at one grid point. Prediction-blind policies get the default (exact) prediction, rules
 * that sample no servers d = 1, and rules that cannot use the point's memory none, so the same policy at two values
 * of a coordinate it ignores is one model (one solve, one simulation).
 * @throws {InvalidModelError | UnstableModelError} from parseModel, naming the grid point.
 */
export function quantityModel(
  spec: ConjectureSpec,
  point: GridPoint,
  q: Pick<QuantityRef, 'selection' | 'discipline' | 'memory'>,
): SupermarketModel {
  try {
    return parseModel({
      lambda: point.lambda,
      d: quantityD(q, point.d),
      selection: q.selection,
      discipline: q.discipline,
      service: point.service,
      prediction: usesPrediction(q.selection, q.discipline) ? point.prediction : undefined,
      ...(spec.sampling === undefined ? {} : { sampling: spec.sampling }), // a batch's own default: parseModel
      memory: quantityMemory(q, point),
      arrivals: point.arrivals,
      batch: point.batch,
      ...(point.batch === 1 ? {} : { batchDispatch: point.batchDispatch }),
      conventions: spec.conventions,
    });
  } catch (error) {
    throw new InvalidModelError(`grid point ${point.key}: ${(error as Error).message}`);
  }
}

/** Bonferroni factor: t_{1−α/(2m), R−1} / t_{1−α/2, R−1} with α = 0.05, the widening of a 95% CI to level 1 − α/m. */
export function bonferroniFactor(m: number, replications: number): number {
  if (m <= 1 || !(replications >= 2)) return 1;
  return quantile(1 - 0.025 / m, replications - 1) / quantile(0.975, replications - 1);
}

async function simulateLocally(requests: readonly SimulationRequest[]): Promise<SimulationSummary[]> {
  return requests.map((r) => simulate(r.model, { ...r.options }));
}

interface Decision {
  readonly source: QuantitySource;
  readonly solution?: MeanFieldSolution;
  readonly reason?: string;
}

/**
 * Evaluates the conjecture at every grid point (module comment; rule in VERDICT_RULE).
 * Source choice per quantity: with `prefer: 'mean-field'`, T(…) comes from solveMeanField unless it throws
 * "no mean-field solver", refuses with a ConvergenceError (a cavity estimate that did not converge) or returns kind 'approximation' without `acceptApproximation`; S and P* are always
 * simulated (no solver gives them); with `mixSources: false`, one simulated quantity makes the whole grid point
 * simulated at the same n. Simulation seeds derive from the master seed and (λ, d, service), so all policies of a
 * grid point share their seed (common random numbers) and a prediction-blind policy is simulated once.
 * @throws {InvalidModelError | UnstableModelError} for a grid point that is not a valid model; whatever a solver
 *   throws other than InvalidModelError / ConvergenceError; errors of the simulate hook.
 */
export async function evaluateConjecture(conjecture: Conjecture, hooks: ConjectureHooks = {}): Promise<ConjectureResult> {
  const { spec, claim } = conjecture;
  const ev = spec.evaluation;
  const solve = hooks.solve ?? solveMeanField;
  const points = expandConjectureGrid(spec, claim);
  const solved = new Map<string, MeanFieldSolution | Error>();
  const plans: { point: GridPoint; items: { q: QuantityRef; model: SupermarketModel; decision: Decision }[] }[] = [];
  const candidates = new Set<string>();
  for (const point of points)
    for (const q of claim.quantities)
      if (ev.prefer === 'mean-field' && q.measure === 'T') candidates.add(JSON.stringify(quantityModel(spec, point, q)));
  let solves = 0;
  for (const point of points) {
    // quantities without a mean-field solver first (the capability query says so at once), so with mixSources false
    // no costly solve is wasted
    const items = claim.quantities
      .map((q) => {
        const model = quantityModel(spec, point, q);
        return { q, model, fixedPoint: meanFieldCapabilities(model).fixedPoint, decision: undefined as Decision | undefined };
      })
      .sort((a, b) => Number(a.fixedPoint.available) - Number(b.fixedPoint.available));
    let forced: string | undefined;
    for (const it of items) {
      if (forced) break;
      if (ev.prefer === 'simulation') {
        it.decision = { source: 'simulation', reason: 'prefer: simulation' };
        continue;
      }
      if (it.q.measure !== 'T') {
        it.decision = { source: 'simulation', reason: `no mean-field solver gives ${it.q.measure} (only mean response time T)` };
      } else {
        const key = JSON.stringify(it.model);
        if (!solved.has(key)) {
          if (!it.fixedPoint.available) solved.set(key, new InvalidModelError(it.fixedPoint.reason));
          else {
            try {
              solved.set(key, solve(it.model, { seed: cellSeed(ev.seed, `mf|${key}`), cavityHorizon: ev.cavityHorizon }));
            } catch (e) {
              // a solver's one-line refusal (an estimate that did not converge, e.g. the LPW cavity): simulate instead
              if (e instanceof ConvergenceError || e instanceof InvalidModelError) solved.set(key, e);
              else throw e;
            }
          }
          hooks.onSolve?.(++solves, candidates.size, `${it.q.key} at ${point.key}`);
          // a solve holds this thread (a cavity estimate for seconds): between two, let a Ctrl-C be answered at once,
          // not after the last solve (the CLI says then what was kept, cli/commands/conjecture.ts)
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        const s = solved.get(key)!;
        if (s instanceof Error) it.decision = { source: 'simulation', reason: s.message };
        else if (s.kind === 'approximation' && !ev.acceptApproximation)
          it.decision = { source: 'simulation', reason: `${s.solver} is an approximation (acceptApproximation: false)` };
        else it.decision = { source: 'mean-field', solution: s };
      }
      if (it.decision.source === 'simulation' && !ev.mixSources)
        forced = `mixSources: false and ${it.q.key} needs simulation (${it.decision.reason})`;
    }
    if (forced) for (const it of items) if (it.decision?.source !== 'simulation') it.decision = { source: 'simulation', reason: forced };
    plans.push({
      point,
      items: claim.quantities.map((q) => items.find((x) => x.q.key === q.key)!) as {
        q: QuantityRef;
        model: SupermarketModel;
        decision: Decision;
      }[],
    });
  }
  // one simulation per distinct (model, options)
  const requests = new Map<string, SimulationRequest>();
  const requestOf = new Map<string, string>();
  for (const { point, items } of plans)
    for (const it of items) {
      if (it.decision.source !== 'simulation') continue;
      const seed = cellSeed(ev.seed, `${point.lambda}|${point.d}|${point.service}`);
      // the one rule gives the start (and its warm-up at n); a warm-up given in the file keeps its time from either start
      // uncapped unless the file gives maxWarmup (then a cap that binds is said beside each quantity: `warnings`)
      const rule =
        typeof ev.warmup === 'number' && ev.start === 'empty'
          ? undefined
          : simulationWarmup(it.model, { cap: ev.maxWarmup ?? Number.POSITIVE_INFINITY, start: ev.start, n: ev.n });
      const warm = typeof ev.warmup === 'number' ? { time: ev.warmup, rule: 'given in the conjecture file' } : rule!;
      const capped = typeof ev.warmup === 'number' || rule === undefined ? undefined : cappedWarmupWarning(rule, 'evaluation.maxWarmup');
      // and the heavy-tail budget of theory.md §8, as simulate warns of it (τ from the rule where it was read, as there)
      const budget = heavyTailBudgetWarnings(it.model.service, {
        jobs: ev.jobs,
        unit: 'replication',
        systemRate: it.model.lambda * ev.n,
        relaxationTime: rule?.relaxationTime,
      });
      const runWarnings = [...(capped === undefined ? [] : [capped]), ...budget];
      const start = rule?.start ?? 'empty';
      const options = {
        n: ev.n,
        jobs: ev.jobs,
        replications: ev.replications,
        seed,
        warmupTime: warm.time,
        ...(rule?.from === undefined ? {} : { start: { name: start, from: rule.from } }),
      };
      const body = JSON.stringify({ model: it.model, options });
      const key = `${it.q.selection}-${it.q.discipline}-${fnv(body).toString(16).padStart(8, '0')}${fnv(`x${body}`).toString(16).padStart(8, '0')}`;
      if (!requests.has(key))
        requests.set(key, {
          key,
          model: it.model,
          options,
          cost: taskCost(it.model.lambda, options),
          warmupRule: warm.rule,
          start,
          ...(runWarnings.length === 0 ? {} : { warnings: runWarnings }),
        });
      requestOf.set(`${point.key}|${it.q.key}`, key);
    }
  const list = [...requests.values()];
  const summaries = list.length === 0 ? [] : await (hooks.simulate ?? simulateLocally)(list);
  if (summaries.length !== list.length)
    throw new InvalidModelError(`simulate hook returned ${summaries.length} results for ${list.length} requests`);
  const byKey = new Map(list.map((r, i) => [r.key, summaries[i]]));
  const method = `simulation n = ${ev.n} (${ev.replications} × ${ev.jobs.toExponential(0).replace('e+', 'e')} jobs)`;

  const results: PointResult[] = plans.map(({ point, items }) => {
    const raw = items.map(({ q, model, decision }) => {
      if (decision.source === 'mean-field') {
        const s = decision.solution!;
        const base = {
          key: q.key,
          measure: q.measure,
          selection: q.selection,
          discipline: q.discipline,
          source: 'mean-field' as const,
          kind: s.kind,
          method: s.solver,
          value: s.meanResponseTime,
        };
        if (s.estimate) return { ...base, estimate: s.estimate };
        // an approximation with a measured error (the two-moment PH fit, fitError.ts): the range that error allows
        if (s.measuredError)
          return { ...base, measuredError: s.measuredError, interval: fitErrorRange(s.meanResponseTime, s.measuredError) };
        const eps = s.numericalError ?? 0;
        return {
          ...base,
          numericalError: s.numericalError,
          interval: [s.meanResponseTime - eps, s.meanResponseTime + eps] as [number, number],
        };
      }
      const sim = simulationRequestKey(requestOf, point, q);
      const finiteness = estimandFiniteness(model);
      const r = byKey.get(sim)!;
      const run = requests.get(sim)!.warnings ?? [];
      // a percentile's own: its sections too short for the sectioning interval, as simulate warns of it
      const sections =
        q.measure === 'T' || q.measure === 'S' ? undefined : percentileSectionWarning(ev.jobs, 'replication', PERCENTILE_OF[q.measure]);
      const own = [
        ...(intervalWarnings(q.measure, finiteness.warnings, finiteness.slowdownWarnings).warnings ?? []),
        ...(sections === undefined ? [] : [sections]),
      ];
      const e =
        q.measure === 'T'
          ? r.meanResponseTime
          : q.measure === 'S'
            ? r.meanSlowdown
            : r.responseTimePercentiles[q.measure.toLowerCase() as 'p50' | 'p95' | 'p99'];
      return {
        key: q.key,
        measure: q.measure,
        selection: q.selection,
        discipline: q.discipline,
        source: 'simulation' as const,
        kind: 'simulation' as const,
        method,
        value: e.mean,
        estimate: e,
        reason: decision.reason,
        simulation: sim,
        ...unsettledMeasure(q.measure, finiteness.meanResponseTimeUnsettled),
        // the interval's own warnings (T, S), then what the simulation's run warns of (every measure it gives)
        ...(own.length + run.length === 0 ? {} : { warnings: [...own, ...run] }),
        ...openEndOf(q.measure, e, r.notes),
      };
    });
    return judgePoint(claim, point, raw, { simultaneous: ev.simultaneous, n: ev.n });
  });
  const count = (v: PointVerdict) => results.filter((r) => r.verdict === v).length;
  return {
    name: spec.name,
    claim: claim.text,
    spec,
    points: results,
    summary: {
      holds: count('holds'),
      fails: count('fails'),
      undecided: count('undecided'),
      undefined: count('undefined'),
      total: results.length,
    },
    simulations: list.map(({ cost: _cost, ...request }) => request),
    provenance: { version: VERSION, verdictRule: VERDICT_RULE },
  };
}

/**
 * A quantity's value before the verdict: either an estimate with a 95% CI (simulation, cavity, trace replay) or a
 * deterministic interval (value ± numerical error).
 */
export type MeasuredQuantity = Omit<QuantityValue, 'interval' | 'ci95' | 'replications' | 'sampleMean'> &
  // `unsettled` (measures T and S, `unsettledMeasure`, or an estimate built by `unsettledEstimate`): the point is then
  // 'undecided' with no comparison, and the quantity has no value (`judgePoint`)
  ({ readonly estimate: Estimate; readonly interval?: undefined } | { readonly estimate?: undefined; readonly interval: [number, number] });

/**
 * The interval mean ± h of an estimate (h its half-width × `factor`, widened for simultaneous coverage), kept inside the
 * parameter space as the estimate's own ci95 is (stats `feasible`: E[T] ≥ E[S], T/S ≥ 1): a mean's ci95 is symmetric
 * unless an end was clipped to a bound, and a clipped end stays the bound (a conjecture printed T = 2.852 [−0.841,
 * 6.545] at E[S] = 1). A percentile's ci95 inverts the cdf and is not symmetric: each end keeps its own distance from
 * the percentile, × `factor`, floored at 0, so an interval open above keeps its lower end ([lo, ∞), where mean ± h
 * with h = ∞ gave [0, ∞]); with factor 1 it is the ci95 itself.
 */
function feasibleInterval(measure: Measure, estimate: Estimate, factor: number): [number, number] {
  const { mean, halfWidth, ci95 } = estimate;
  if (measure !== 'T' && measure !== 'S') {
    const below = mean - ci95[0];
    const above = ci95[1] - mean;
    return [Math.max(0, factor === 1 ? ci95[0] : mean - factor * below), factor === 1 ? ci95[1] : mean + factor * above];
  }
  const h = halfWidth * factor;
  const slack = 1e-9 * Math.max(1, Math.abs(mean));
  const lower = ci95[0] > mean - halfWidth + slack ? ci95[0] : -Infinity;
  const upper = ci95[1] < mean + halfWidth - slack ? ci95[1] : Infinity;
  return [Math.max(mean - h, lower), Math.min(mean + h, upper)];
}

/**
 * The run's note on why a percentile's interval is open at an end (`openEnd`), for a percentile measure whose interval
 * has an infinite end: the note that names it ("percentile intervals: p95 has no upper end …", stats/tInterval.ts
 * `openEndNote`). Nothing for means and closed intervals, or when the run kept no note (cells stored before).
 */
function openEndOf(measure: Measure, e: Estimate, notes: readonly string[] | undefined): { openEnd?: string; openEndWhy?: string } {
  if (measure === 'T' || measure === 'S' || e.ci95.every((x) => Number.isFinite(x))) return {};
  const name = measure.toLowerCase();
  const note = notes?.find((n) => n.startsWith(`percentile intervals: ${name} has no `));
  // the explanation the run's open ends share (said once, stats/tInterval.ts openEndNotes); older cells have it inline
  const why = notes?.find((n) => n.startsWith(`${OPEN_END_WHY}:`));
  return note === undefined ? {} : { openEnd: note, ...(why === undefined ? {} : { openEndWhy: why }) };
}

/** The unsettled-mean reason of a simulated measure (T or S; percentiles exist whatever the mean), if any. */
export function unsettledMeasure(measure: Measure, reason: string | undefined): { readonly unsettled?: string } {
  return reason !== undefined && (measure === 'T' || measure === 'S') ? { unsettled: reason } : {};
}

/**
 * What simulate warns of a simulated mean's interval (model/moments.ts `estimandFiniteness(model).warnings`, the lines
 * simulate prints and compare notes: Var[T] = ∞ so not a 95 % interval, a mean converging slower than 1/√jobs, a bounded
 * Pareto's optimistic intervals), for T: those warnings are about E[T]'s interval; for S the slowdown's own
 * (`slowdownWarnings`: Var[T/S] = ∞). None for the percentiles, or when there is none. A quantity with no interval
 * (infinite, not settled) drops them (`judgePoint`).
 */
export function intervalWarnings(
  measure: Measure,
  warnings: readonly string[] | undefined,
  slowdownWarnings?: readonly string[],
): { readonly warnings?: readonly string[] } {
  const w = measure === 'T' ? warnings : measure === 'S' ? slowdownWarnings : undefined;
  return w !== undefined && w.length > 0 ? { warnings: w } : {};
}

/**
 * The verdict of a claim at one grid point (rule: VERDICT_RULE): with `simultaneous`, the CIs of the m estimated
 * quantities are widened by Bonferroni (bonferroniFactor) to joint 95%; then evaluateClaim.
 * @param raw one entry per quantity of `claim`. @param options.n the symbol n of the claim (servers).
 * @throws {InvalidModelError} from evaluateClaim (a missing quantity, a function outside its domain).
 */
export function judgePoint(
  claim: ParsedClaim,
  point: GridPoint,
  raw: readonly MeasuredQuantity[],
  options: { simultaneous: boolean; n: number },
): PointResult {
  const m = raw.filter((x) => x.estimate).length;
  const confidence = options.simultaneous && m > 1 ? 1 - 0.05 / m : 0.95;
  const infinite = raw.flatMap((x) =>
    isInfinite(x.estimate) || x.value === Infinity ? [`${x.key} = ∞${x.estimate?.reason ? ` (${x.estimate.reason})` : ''}`] : [],
  );
  const quantities: QuantityValue[] = raw.map((x) => {
    if (!x.estimate) return x as QuantityValue;
    const { estimate, interval: _none, ...rest } = x;
    // no interval, so no warning on one (an unsettled mean's warning is its reason, said as `unsettled`)
    const { warnings: _w, ...bare } = rest;
    if (isInfinite(estimate))
      return { ...bare, value: Infinity, interval: [Infinity, Infinity], ci95: [Infinity, Infinity], replications: estimate.replications };
    // a mean not settled is no estimate (stats `unsettledEstimate`): no value, no interval, the run's average kept apart
    const why = x.unsettled ?? (isUnsettled(estimate) ? estimate.reason : undefined);
    if (why !== undefined)
      return {
        ...bare,
        value: Number.NaN,
        interval: [Number.NaN, Number.NaN],
        replications: estimate.replications,
        unsettled: why,
        sampleMean: estimate.sampleMean ?? estimate.mean,
      };
    const factor = options.simultaneous ? bonferroniFactor(m, estimate.replications) : 1;
    return { ...rest, interval: feasibleInterval(x.measure, estimate, factor), ci95: estimate.ci95, replications: estimate.replications };
  });
  if (infinite.length > 0) return { point, quantities, comparisons: [], verdict: 'undefined', infinite, perQuantityConfidence: confidence };
  // a mean that may be infinite in theory (not settled) is no estimate, so no evidence either way: nothing to compare
  const unsettled = quantities.flatMap((x) => (x.unsettled === undefined ? [] : [`${x.key}: ${x.unsettled}`]));
  if (unsettled.length > 0)
    return { point, quantities, comparisons: [], verdict: 'undecided', unsettled, perQuantityConfidence: confidence };
  const intervals = new Map(quantities.map((x) => [x.key, { lo: x.interval[0], hi: x.interval[1] }]));
  const points = new Map(quantities.map((x) => [x.key, x.value]));
  const outcome = evaluateClaim(claim, { intervals, points, symbols: { lambda: point.lambda, d: point.d, n: options.n } });
  // the verdict read these intervals as 95 % intervals: what simulate warns of them goes with it, each warning once
  const warned = new Map<string, string[]>();
  for (const q of quantities) for (const w of q.warnings ?? []) warned.set(w, [...(warned.get(w) ?? []), q.key]);
  const warnings = [...warned.entries()].map(([w, keys]) => `${keys.join(', ')}: ${w}`);
  return {
    point,
    quantities,
    comparisons: outcome.comparisons,
    verdict: outcome.verdict,
    perQuantityConfidence: confidence,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

function simulationRequestKey(requestOf: ReadonlyMap<string, string>, point: GridPoint, q: QuantityRef): string {
  const k = requestOf.get(`${point.key}|${q.key}`);
  if (!k) throw new InvalidModelError(`internal: no simulation planned for ${q.key} at ${point.key}`);
  return k;
}
