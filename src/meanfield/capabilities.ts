/**
 * What the mean-field room can answer for a model, decided in one place: which fixed-point solver (and what kind of
 * answer it gives), which transient solver, which refined (1/n, 1/n²) terms and which exact finite-n chain, or a
 * sentence saying why not. `solveMeanField` and `solveMeanFieldTransient` dispatch from it; the CLI, compare, claims
 * and the report ask it instead of re-deriving. Source: theory.md §2–§7 (which solver is exact for which model).
 */
import {
  DISCIPLINE_TABLE,
  fifoQueueLengthTwin,
  formatBatch,
  lpwAsLwl,
  randomRoutingTwin,
  routesAtRandom,
  selectionName,
  meanFieldFiniteness,
  meanFieldUnsettled,
  serviceMomentFinite,
  sizeBlindFifoTwin,
  unknownPolicy,
  type SupermarketModel,
} from '../model/index.ts';
import { effectiveMemory, isJiq, modelHasMemory, NO_MEMORY } from '../model/memory.ts';
import { describeMemory } from './memory/reduction.ts';
import { hasMemoryTransient } from './memory/transient.ts';
import { secondOrderUnverified } from './refinedSecondOrder.ts';
import { describePhaseTypeFitError, phaseTypeFitError, type PhaseTypeFitError } from './phaseType/fitError.ts';
import { serviceDistribution } from '../model/service/index.ts';
import { HETERO_CAVITY_SOURCE } from './hetero/cavity.ts';
import { memoryPhaseTypeIsExact, memoryPhaseTypeRefusal } from './memory/sizedTransient.ts';
import { formatArrivals, hasPoissonArrivals, POISSON_ARRIVALS } from '../model/arrivals.ts';
import { heteroRefinedRefusal } from './hetero/refined.ts';

export { requireStable, fifoQueueLengthTwin } from '../model/index.ts';

/**
 * What kind of answer a solution is: 'exact' (the n → ∞ limit up to `numericalError`), 'approximation' (a solver
 * for a nearby model, e.g. a two-moment phase-type fit), 'estimate' (a simulation of the limit — the cavity
 * methods — with a confidence interval in `estimate`).
 */
export type SolutionKind = 'exact' | 'approximation' | 'estimate';

/** The fixed-point solvers behind `solveMeanField`. */
export type FixedPointSolverId =
  | 'infinite-mean'
  | 'mg1'
  | 'sqd-closed-form'
  | 'sqd-insensitive'
  | 'phase-type-ode'
  | 'jsq-cavity'
  | 'lwl-closed-form'
  | 'lwl-fpe'
  | 'lwl-cavity'
  | 'lpw-cavity'
  | 'memory-reduction'
  | 'hetero-occupancy'
  | 'hetero-lwl'
  | 'hetero-cavity'
  | 'hetero-lwl-cavity'
  | 'hetero-mg1'
  | 'batch-sqdk'
  | 'batch-lldk'
  | 'batch-bsq'
  | 'redundancy-independent'
  | 'redundancy-identical';

/** The response-time-law solvers behind `solveResponseTime` (responseTime.ts). */
export type ResponseTimeSolverId =
  | 'sqd-closed-form'
  | 'mm1-closed-form'
  | 'phase-type-ode'
  | 'lwl-closed-form'
  | 'lwl-fpe'
  | 'mg1-fpe'
  | 'jsq-cavity'
  | 'lwl-cavity'
  | 'lpw-cavity'
  | 'hetero-cavity'
  | 'hetero-lwl-cavity'
  | 'memory-reduction'
  | 'hetero-mg1'
  | 'redundancy-independent'
  | 'redundancy-identical';

/** The transient solvers behind `solveMeanFieldTransient`. */
export type TransientSolverId =
  | 'sqd-ode'
  | 'phase-type-ode'
  | 'lwl-pide'
  | 'memory-cavity-ode'
  | 'memory-phase-type-ode'
  | 'memory-lwl-pide'
  | 'hetero-occupancy-ode'
  | 'batch-ode';

/** A solver the model has: its id (for dispatch), name as shown in reports, kind of answer and source. */
export interface SolverCapability<Id extends string> {
  readonly available: true;
  readonly id: Id;
  readonly name: string;
  readonly kind: SolutionKind;
  readonly source: string;
}

/** A term or chain the model has (no choice among solvers). */
export interface TermCapability {
  readonly available: true;
  readonly name: string;
  readonly source: string;
}

/** The exact finite-n solver a model has (`MeanFieldCapabilities.exactChain`). */
export type ExactChainCapability = TermCapability & { readonly id: 'occupancy-chain' | 'mg1' };

/** Random routing: Poisson arrivals thinned uniformly, so each of the n servers is an independent M/G/1 queue. */
const MG1_AT_EVERY_N: ExactChainCapability = {
  available: true,
  id: 'mg1',
  name: 'M/G/1 value at every n (random routing: each server an independent M/G/1 queue)',
  source: 'theory.md §7: a Poisson stream of rate λn split uniformly at random is n independent Poisson streams of rate λ',
};

/** The exact chain of a model whose fixed point is the M/G/1 formula (random routing, Poisson arrivals), or undefined. */
function mg1ExactChain(fixedPoint: MeanFieldCapabilities['fixedPoint']): ExactChainCapability | undefined {
  return fixedPoint.available && fixedPoint.id === 'mg1' ? MG1_AT_EVERY_N : undefined;
}

/** What the model does not have, and why (one sentence, usable as an error message). */
export interface Unavailable {
  readonly available: false;
  readonly reason: string;
}

/** The answer of `meanFieldCapabilities`. */
export interface MeanFieldCapabilities {
  /** The n → ∞ fixed point (E[T] and what the solver gives with it): `solveMeanField`. */
  readonly fixedPoint: SolverCapability<FixedPointSolverId> | Unavailable;
  /** The n → ∞ trajectory from a given state over a finite horizon, at any load: `solveMeanFieldTransient`. */
  readonly transient: SolverCapability<TransientSolverId> | Unavailable;
  /** The refined mean field: order 1 (`refine`, V/n) and order 2 (`refineSecondOrder`, 1/n²). */
  readonly refined: { readonly firstOrder: TermCapability | Unavailable; readonly secondOrder: TermCapability | Unavailable };
  /**
   * The exact finite-n value: 'occupancy-chain', the stationary law of the n-server chain (`solveExact`, a state
   * budget); 'mg1', random routing (random selection, or d = 1), where every server is an independent M/G/1 queue at
   * every n, so E[T]_n is the M/G/1 value (`mg1`, any discipline and size law it solves, ∞ with its reason).
   */
  readonly exactChain: ExactChainCapability | Unavailable;
  /**
   * The two-moment phase-type fit as an explicit option (`solveMeanField(model, { phaseTypeFit: true })`,
   * `fixed-point --ph-fit`): JSQ(d) FIFO with a size law that is not phase-type and whose family has a measured error
   * (meanfield/phaseType/fitError.ts), kind 'approximation', the measured error named in `source` and `measuredError`.
   */
  readonly phaseTypeFit: (SolverCapability<'phase-type-ode'> & { readonly measuredError: PhaseTypeFitError }) | Unavailable;
  /** The n → ∞ response-time law P(T > t) and its quantiles: `solveResponseTime`. */
  readonly responseTime: SolverCapability<ResponseTimeSolverId> | Unavailable;
  /**
   * What the arrival process does to these answers, when it is not Poisson (theory.md §14): a renewal stream has the
   * Poisson fluid limit (the fixed point and transient are Poisson's; the finite-n gap is what `compare` measures); an
   * MMPP has no fixed point. Absent for Poisson arrivals.
   */
  readonly arrivalsNote?: string;
  /**
   * What `solveMeanField` answers when the fixed-point solver refuses (ConvergenceError): for the JSQ cavity on JSQ(d)
   * FIFO with a non-phase-type law (log-normal σ = 1.5 at λ = 0.9, seed 1: busy fraction 0.13 % under ρ), the
   * two-moment PH fit with its measured error (`phaseTypeFit`), the solution's `note` naming why the cavity was not
   * used; unavailable otherwise (the refusal passes through).
   */
  readonly fallback: (SolverCapability<'phase-type-ode'> & { readonly measuredError: PhaseTypeFitError }) | Unavailable;
}

const ARRIVALS_SOURCE =
  'theory.md §14: a renewal stream of rate λn from one dispatcher has the Poisson fluid limit (only its rate survives the law of large numbers)';

const PH_KINDS = new Set(['exponential', 'erlang', 'hyperexponential']);
/** Laws the two-moment fit does not take (the cavity answers them): a point mass, and a table of sizes. */
const NO_FIT_KINDS = new Set(['deterministic', 'empirical']);

/** JSQ(d) FIFO without memory with a size law that is not phase-type: the cavity by default, the PH fit on request. */
function isJsqFifoNonPh(model: SupermarketModel): boolean {
  return (
    model.selection === 'jsq' &&
    model.discipline === 'fifo' &&
    !modelHasMemory(model) &&
    !PH_KINDS.has(model.service.kind) &&
    !NO_FIT_KINDS.has(model.service.kind)
  );
}

/** Why E[T] = ∞ in the limit for the model (model/moments.ts `meanFieldFiniteness`), or undefined. */
function infiniteLimitReason(model: SupermarketModel): string | undefined {
  const f = meanFieldFiniteness(model);
  return f.finite ? undefined : f.reason;
}

const INFINITE_SOURCE = 'theory.md §8 "Heavy tails, in the limit" (model/moments.ts meanFieldFiniteness)';

/** The explicit two-moment PH fit of a JSQ(d) FIFO model with a non-phase-type law, or why not. */
function phaseTypeFitOf(model: SupermarketModel): MeanFieldCapabilities['phaseTypeFit'] {
  if (!isJsqFifoNonPh(model))
    return no(
      `the two-moment PH fit is an option for JSQ(d) FIFO without memory with sizes that are not phase-type (weibull, lognormal, …), not ${ruleName(model)} + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes`,
    );
  const infinite = infiniteLimitReason(model) ?? meanFieldUnsettled(model);
  if (infinite) return no(`no finite mean field to fit: ${infinite}`);
  const measuredError = phaseTypeFitError(model);
  if (!measuredError)
    return no(
      `the two-moment PH fit is refused for ${model.service.kind} sizes: its error was never measured for that law family (meanfield/phaseType/fitError.ts); the default JSQ cavity gives an estimate with a CI`,
    );
  return {
    available: true,
    id: 'phase-type-ode',
    name: 'phase-type SQ(d) ODE on a two-moment PH fit',
    kind: 'approximation',
    source: `theory.md §3: only E[S] and the SCV match the true law; ${describePhaseTypeFitError(model.service.kind, measuredError)}`,
    measuredError,
  };
}
const M_G_1_SOURCE = 'theory.md §7 (Kleinrock; Schrage & Miller; Mitzenmacher 2020 for predictions)';
const SQD_SOURCE = 'theory.md §2 (Vvedenskaya et al. 1996; Mitzenmacher 2001)';
const LWL_SOURCE = 'theory.md §4 (Hellemans & Van Houdt 2018)';
const PS_INSENSITIVE_SOURCE =
  'theory.md §5 "Sharing disciplines"; Bramson, Lu & Prabhakar, Queueing Systems 71(3), 2012 (JSQ(d) with PS is insensitive to the size law beyond its mean); §2';

const no = (reason: string): Unavailable => ({ available: false, reason });

/** The rule as a reason names it: the family (`JSQ(d)`), or `RANDOM (d = 1)` for random routing (`routesAtRandom`). */
const ruleName = (model: SupermarketModel): string => selectionName(model, routesAtRandom(model) ? model.d : 'd');

/**
 * Why JSQ(d) FIFO with E[S²] = ∞ and a finite limit gets no number, in the words of the model asked about: the
 * cavity's E[T] grows with its horizon beyond its CI (theory.md §8 "Heavy tails, in the limit" gives the measurement,
 * `jsqCavity` on JSQ(3) pareto:1.6, λ = 0.9; no other model's numbers are cited here).
 */
function heavyFifoCavityRefusal(model: SupermarketModel): string {
  const spec = model.service;
  const law = spec.kind === 'pareto' ? `pareto α = ${spec.alpha}` : spec.kind;
  const threshold = +(model.d / (model.d - 1)).toFixed(3);
  return (
    `E[T]∞ is finite (Bramson, Lu & Prabhakar 2013: the queue-length tail decays at least exponentially for pareto ` +
    `α ≥ d/(d − 1) = ${threshold}; here JSQ(${model.d}) FIFO, ${law}, λ = ${model.lambda}), but no solver here estimates it with E[S²] = ∞: ` +
    'a cavity run samples sizes only up to its horizon, and its E[T] drifts up with the horizon beyond the CI of its restarts ' +
    '(theory.md §8 "Heavy tails, in the limit"); use simulate'
  );
}

/**
 * The SQ(d) model: JSQ(d) with FIFO, exponential sizes (any mean) and Poisson arrivals, whose mean field is the ODE of theory.md §2
 * with its closed-form fixed point, refined terms and exact chain.
 */
export function isSqdModel(given: SupermarketModel): boolean {
  const model = randomRoutingTwin(given) ?? given; // random routing however spelt is SQ(1)
  return (
    model.servers === undefined &&
    model.selection === 'jsq' &&
    model.discipline === 'fifo' &&
    model.service.kind === 'exponential' &&
    !modelHasMemory(model) &&
    hasPoissonArrivals(model) &&
    (model.batch ?? 1) === 1 &&
    model.redundancy === undefined // replicas on d servers are not SQ(d)
  );
}

/**
 * The classic model of the seed paper, in its units: the SQ(d) model with E[S] = 1. Compare keys its stored cells
 * by (d, λ, n) alone for it (and by the model fields for every other model).
 */
export function isClassicModel(model: SupermarketModel): boolean {
  return isSqdModel(model) && model.service.mean === 1;
}

/** Why the M/G/1 formulas (d = 1) cannot answer the model, or undefined if they can. */
function mg1Refusal(model: SupermarketModel): string | undefined {
  const row = DISCIPLINE_TABLE[model.discipline];
  if (row.usesPrediction && model.prediction.kind === 'trace')
    return `no mean-field solver for ${model.discipline.toUpperCase()} with trace predictions: the M/G/1 formulas need a prediction law P(Y < y | S = x); use exact, exp, uniform:ALPHA or lognormal:SIGMA`;
  if (row.preemptive && (row.rank === 'size' || row.rank === 'predicted size') && model.conventions.psjfPreemption === 'remaining')
    return `no mean-field solver for ${model.discipline} with psjfPreemption 'remaining' at d = 1: the M/G/1 formulas assume the default 'original'`;
  return undefined;
}

/**
 * A model with dispatcher memory: the reduction theorem (theory.md §12) over the solver of the same model without
 * memory (JIQ: random selection, d = 1), whose kind it keeps; FIFO at d ≥ 2 (the thesis's theorems), any discipline
 * at d = 1.
 */
function memoryFixedPointOf(model: SupermarketModel): SolverCapability<FixedPointSolverId> | Unavailable {
  const memory = describeMemory(effectiveMemory(model.selection, model.d, model.memory));
  const jiq = isJiq(model.selection);
  const d = jiq ? 1 : model.d;
  const twin = memoryFifoTwin(model);
  if (d >= 2 && model.discipline !== 'fifo' && twin === undefined)
    return no(
      DISCIPLINE_TABLE[model.discipline].server === 'priority'
        ? `no mean-field solver for memory ${memory} with discipline ${model.discipline} at d = ${d}: the reduction theorem (Hellemans 2021, ch. 6) covers FIFO servers (any discipline at d = 1); use simulate`
        : `no mean-field solver for memory ${memory} with ${selectionName(model, 'd')} + ${model.discipline.toUpperCase()} and ${model.service.kind} sizes at d = ${d}: the reduction through FIFO covers JSQ(d) with PS (any law) or LAS (exponential sizes); LWL(d) probes work, and its simulation departs from FIFO's value; use simulate`,
    );
  const base = fixedPointOf({ ...(twin ?? model), selection: jiq ? 'random' : model.selection, d, memory: NO_MEMORY });
  if (!base.available) return base;
  const insensitive = twin !== undefined && model.service.kind !== 'exponential';
  return {
    available: true,
    id: 'memory-reduction',
    name: `${base.name} at the reduced rate (memory ${memory})${twin === undefined ? '' : insensitive ? `, PS as FIFO with exponential sizes (insensitivity, checked by simulation)` : `, ${model.discipline.toUpperCase()} as FIFO (same queue lengths)`}`,
    kind: insensitive ? 'approximation' : base.kind,
    source: `theory.md §12: reduction theorem (Hellemans 2021, ch. 6), rate λπ₀^{1/d}; base: ${base.source}${twin === undefined ? '' : `; ${insensitive ? PS_MEMORY_SOURCE : SIZE_BLIND_SOURCE}`}`,
  };
}

const MEMORY_LAW_SOURCE =
  'theory.md §12: reduction theorem (Hellemans 2021, ch. 6, Theorems response_SQd, response_SQd_PHD, response_SQd_gen, response_LLd; FIFO, and any work-conserving discipline at d = 1): the response-time law of the same model without memory at rate λπ₀^{1/d}; π₀ = 0 gives T = S';

const SIZE_BLIND_SOURCE =
  'theory.md §5 "Sharing disciplines": with exponential sizes a size-blind work-conserving server has FIFO\'s queue-length process, memory included (it reads queue lengths only); E[T] = E[Q]/λ';

const PS_MEMORY_SOURCE =
  'JSQ(d) with PS and memory answered as with exponential sizes of the same mean (PS insensitivity, Bramson, Lu & Prabhakar 2012, extended to memory without proof; agreement with simulation at n = 1000–2000 within CI + 1/n, scripts/memory-sharing-check.ts)';

const HETERO_SOURCE = 'theory.md §13 (Mukhopadhyay & Mazumdar, IEEE TCNS 2015, arXiv 1311.5806; Gardner et al., Perf. Eval. 2021)';

/** Why the per-class occupancy ODE cannot answer a heterogeneous model, or undefined if it can. */
function heteroRefusal(model: SupermarketModel, what: string): string | undefined {
  const rule = model.selection;
  if (rule === 'lwl' && what === 'transient mean field')
    return 'no transient mean field for LWL(d) with server speeds: the drain-time PIDE has one drain rate per class only at its fixed point (hetero-lwl); use simulate';
  if (rule !== 'lwl' && rule !== 'jsq' && rule !== 'sed' && rule !== 'random')
    return `no ${what} for selection ${rule} with server speeds: the per-class occupancy ODE covers jsq, sed and random`;
  // PS and LAS with exponential sizes under a count-based rule: each busy class-c server completes a job at rate μ_c
  // whatever it serves (memorylessness), so the occupancy process is FIFO's (as fifoQueueLengthTwin, theory.md §5)
  const sizeBlindSharing = (model.discipline === 'ps' || model.discipline === 'las') && rule !== 'lwl';
  if (model.discipline !== 'fifo' && !sizeBlindSharing)
    return `no ${what} for discipline ${model.discipline} with server speeds: the per-class occupancy ODE is derived for FIFO (and PS, LAS under jsq, sed, random with exponential sizes)`;
  if (model.service.kind !== 'exponential')
    return `no ${what} for ${model.service.kind} sizes with server speeds: the per-class occupancy ODE needs exponential sizes`;
  return undefined;
}

/**
 * Random selection with server speeds where the per-class occupancy ODE refuses (another discipline or size law): an
 * independent M/G/1 queue per speed class (hetero/mg1.ts), exact for every discipline and law the M/G/1 formulas
 * cover; undefined for another rule or where the formulas refuse (the cavity may answer then).
 */
function heteroMg1Of(model: SupermarketModel): SolverCapability<FixedPointSolverId> | undefined {
  if (model.selection !== 'random' || mg1Refusal(model) !== undefined) return undefined;
  return {
    available: true,
    id: 'hetero-mg1',
    name: `M/G/1 ${model.discipline.toUpperCase()} formula per speed class (random selection)`,
    kind: 'exact',
    source: HETERO_MG1_SOURCE,
  };
}

const HETERO_MG1_SOURCE = `theory.md §7, §13: independent M/G/1 queues, class c at load λp_c·E[S]/(f_c·v_c), E[T] = Σ p_c E[T_c] (hetero/mg1.ts); ${M_G_1_SOURCE}`;

/**
 * The cavity with a speed per class (hetero/cavity.ts) for a heterogeneous model the exact solvers refuse: JSQ, SED
 * and random under any discipline and size law, LWL under any discipline with exponential sizes; undefined where it
 * cannot answer either (the exact solvers' refusal then stands), or a refusal of its own for trace predictions and
 * limits with E[T] = ∞.
 */
function heteroCavityOf(model: SupermarketModel): SolverCapability<FixedPointSolverId> | Unavailable | undefined {
  const rule = model.selection;
  if (rule !== 'lwl' && rule !== 'jsq' && rule !== 'sed' && rule !== 'random') return undefined;
  if (rule === 'lwl' && model.service.kind !== 'exponential')
    return no(
      `no mean-field solver for LWL(d) with ${model.service.kind} sizes and server speeds: the drain-time law per class is solved for exponential sizes; use simulate`,
    );
  if (model.prediction.kind === 'trace')
    return no(
      'no mean-field solver with trace predictions and server speeds: the cavity needs a prediction law given the size; use simulate',
    );
  const infinite = infiniteLimitReason(model);
  if (infinite !== undefined)
    return no(`no mean-field solver with server speeds where E[T] = ∞ for identical servers (${infinite}); use simulate`);
  const unsettled = meanFieldUnsettled(model);
  if (unsettled !== undefined)
    return no(`no mean-field solver with server speeds where the limit is not settled (${unsettled}); use simulate`);
  const sampling = `sampling ${model.servers?.sampling ?? 'uniform'} (Gardner et al. 2021)`;
  if (rule === 'lwl')
    return {
      available: true,
      id: 'hetero-lwl-cavity',
      name: 'LWL cavity per class (speeds)',
      kind: 'estimate',
      source: `${HETERO_CAVITY_SOURCE}: asymptotic independence assumed; the drain-time law G of hetero-lwl (discipline-free, exact) thins a class-c queue of speed v_c; ${sampling}; CI from batch means, checked (work rate, busy fraction per class)`,
    };
  return {
    available: true,
    id: 'hetero-cavity',
    name: `${rule.toUpperCase()} cavity per class (speeds)`,
    kind: 'estimate',
    source: `${HETERO_CAVITY_SOURCE}: asymptotic independence assumed; per-class level balance with completion rates measured on class-c cavity queues of speed v_c; ${sampling}; CI from independent restarts, at least half the last 3 steps' E[T] range, checked (work rate Σ f·v·busy = λE[S], job-averaged E[T]${model.service.kind === 'exponential' && (model.discipline === 'fifo' || model.discipline === 'ps' || model.discipline === 'las') ? ', per-class occupancy ODE' : ''})`,
  };
}

/**
 * A JSQ(d) model (d ≥ 2) with dispatcher memory and a size-blind work-conserving sharing server (PS, LAS), answered
 * through FIFO: returns the FIFO model with the same memory, rate and mean size whose reduced-rate value (theory.md
 * §12) is this model's E[T], or undefined for any other model.
 * - exponential sizes (PS, LAS): the memory reads queue lengths only (SQ(d) probes, which servers are idle), so the
 *   whole system's queue-length process is the FIFO one's; E[T] = E[Q]/λ (Little). Exact as the base.
 * - PS with any other size law: the FIFO model with exponential sizes of the same mean, by PS insensitivity (Bramson,
 *   Lu & Prabhakar 2012 without memory; with memory a server's arrivals during a busy period are state-dependent
 *   Poisson, the memory acting only on idle servers). Not proved here: an approximation, checked by simulation
 *   (hyperexp:10, weibull:0.5, lognormal:1.5 with cp, ip, bcp, ism at n = 1000–2000: scripts/memory-sharing-check.ts).
 * LWL(d) with PS or LAS is refused by the caller (the memory probes work; simulation departs from FIFO's value), and
 * LAS with non-exponential sizes (LAS is not insensitive).
 */
export function memoryFifoTwin(model: SupermarketModel): SupermarketModel | undefined {
  if (!modelHasMemory(model) || isJiq(model.selection) || model.d < 2 || model.selection !== 'jsq') return undefined;
  const twin = sizeBlindFifoTwin(model);
  if (twin !== undefined) return twin;
  const row = DISCIPLINE_TABLE[model.discipline];
  if (row.server !== 'sharing' || row.usesPrediction) return undefined;
  return {
    ...model,
    discipline: 'fifo',
    service: { kind: 'exponential', mean: serviceDistribution(model.service).mean },
    prediction: { kind: 'exact' },
  };
}

/** The fixed-point solver of a model (the table of solve.ts), or why none. */
function fixedPointOf(model: SupermarketModel): SolverCapability<FixedPointSolverId> | Unavailable {
  if (model.servers !== undefined) {
    // a heavy tail that makes E[T] infinite for identical servers does so with speeds too (model/moments.ts): ∞, exact
    if (infiniteLimitReason(model) !== undefined)
      return {
        available: true,
        id: 'infinite-mean',
        name: 'finiteness rule: E[T] = ∞ in the limit',
        kind: 'exact',
        source: INFINITE_SOURCE,
      };
    const refusal = heteroRefusal(model, 'mean-field solver');
    if (refusal !== undefined) return heteroMg1Of(model) ?? heteroCavityOf(model) ?? no(refusal);
    if (model.selection === 'lwl')
      return {
        available: true,
        id: 'hetero-lwl',
        name: 'LWL(d) drain-time fixed point per class',
        kind: 'exact',
        source: 'theory.md §4, §13 (Hellemans & Van Houdt 2018, a drain rate per class)',
      };
    return { available: true, id: 'hetero-occupancy', name: 'per-class occupancy ODE fixed point', kind: 'exact', source: HETERO_SOURCE };
  }
  if (modelHasMemory(model)) return memoryFixedPointOf(model);
  const solver = (id: FixedPointSolverId, name: string, kind: SolutionKind, source: string): SolverCapability<FixedPointSolverId> => ({
    available: true,
    id,
    name,
    kind,
    source,
  });
  const row = DISCIPLINE_TABLE[model.discipline];
  const cavityRefusal =
    model.prediction.kind === 'trace'
      ? 'no mean-field solver with trace predictions: the cavity methods need a prediction law given the size; use simulation'
      : undefined;
  if (model.selection === 'random' || model.d === 1) {
    const refusal = mg1Refusal(model);
    if (refusal) return no(refusal);
    return solver('mg1', `M/G/1 ${model.discipline.toUpperCase()} formula`, 'exact', M_G_1_SOURCE);
  }
  // a heavy tail that makes the limit's E[T] infinite (E[S^{1+1/d}] = ∞ for LWL FIFO): the answer is ∞ with its reason,
  // exact, never a finite number from a truncated grid or a cavity run
  const infinite = infiniteLimitReason(model);
  if (infinite !== undefined) return solver('infinite-mean', 'finiteness rule: E[T] = ∞ in the limit', 'exact', INFINITE_SOURCE);
  // E[S²] = ∞ with a residual wait where no theorem settles the limit (JSQ(2) FIFO pareto:1.5, LPW with inexact
  // predictions): no number at all, since a cavity run's finite E[T] grows with its horizon there (theory.md §8)
  const unsettled = meanFieldUnsettled(model);
  if (unsettled !== undefined) return no(unsettled);
  switch (row.server) {
    case 'priority':
      break;
    case 'attained-service':
      // LAS with exponential sizes under JSQ(d): size-blind and work-conserving, so FIFO's queue-length process and
      // E[T] = E[Q]/λ, exact; other laws (LAS is not insensitive) and LWL: the cavity queues below
      if (model.selection === 'jsq' && sizeBlindFifoTwin(model) !== undefined)
        return solver(
          'sqd-insensitive',
          "SQ(d) closed form (LAS with exponential sizes has FIFO's queue lengths)",
          'exact',
          SIZE_BLIND_SOURCE,
        );
      break;
    case 'sharing':
      // JSQ(d) with PS is insensitive: the exponential SQ(d) fixed point for any law; LWL(d) through its cavity below
      if (model.selection === 'jsq')
        return solver('sqd-insensitive', 'SQ(d) closed form (PS is insensitive)', 'exact', PS_INSENSITIVE_SOURCE);
      break;
    default:
      return unknownPolicy(row.server, 'server model');
  }
  const selection = model.selection;
  switch (selection) {
    case 'lpw': {
      if (cavityRefusal) return no(cavityRefusal);
      return solver(
        'lpw-cavity',
        'LPW cavity iteration',
        'estimate',
        'theory.md §5 [A]: asymptotic independence assumed; law of predicted work iterated to its fixed point, CI from independent restarts, checked (throughput, busy fraction, Little); E[Q] = λE[T]',
      );
    }
    case 'jsq': {
      if (model.discipline === 'fifo' && model.service.kind === 'exponential')
        return solver('sqd-closed-form', 'SQ(d) closed form', 'exact', SQD_SOURCE);
      if (model.discipline === 'fifo' && PH_KINDS.has(model.service.kind))
        return solver('phase-type-ode', 'phase-type SQ(d) ODE', 'exact', 'theory.md §3');
      if (cavityRefusal) return no(cavityRefusal);
      // finite in theory with E[S²] = ∞ (Bramson, Lu & Prabhakar 2013, pareto α ∈ [d/(d − 1), 2]), but a cavity run
      // samples sizes only up to its horizon: its E[T] drifts up with it beyond the CI of its restarts, so no number
      if (model.discipline === 'fifo' && !serviceMomentFinite(model.service, 2)) return no(heavyFifoCavityRefusal(model));
      if (isJsqFifoNonPh(model)) {
        // not phase-type: the cavity (an estimate with a CI) by default; the two-moment PH fit only on request, with
        // its measured error (issue 20 item 4: it was −13 % to +8 % against simulation with no size stated)
        return solver(
          'jsq-cavity',
          'JSQ cavity iteration',
          'estimate',
          'theory.md §5 [A]: s1 = ρ held, CI from independent restarts, checked (Little); the default for sizes that are not phase-type (the two-moment PH fit is the explicit option --ph-fit, with its measured error)',
        );
      }
      return solver(
        'jsq-cavity',
        'JSQ cavity iteration',
        'estimate',
        // the source names the checks jsqCavity makes on this model: the phase-type ODE check is made for FIFO with
        // phase-type sizes only (which the phase-type ODE answers itself), so it is named where it runs, not for LAS/SRPT
        `theory.md §5 [A]: asymptotic independence assumed; s1 = ρ held, CI from independent restarts, ${DISCIPLINE_TABLE[model.discipline].server === 'attained-service' ? 'LAS server (the least served jobs share it), ' : ''}checked (work conservation, busy fraction, Little, job-averaged E[T], truncation${model.discipline === 'fifo' && PH_KINDS.has(model.service.kind) ? ', FIFO phase-type ODE' : ''})`,
      );
    }
    case 'lwl': {
      if (model.discipline === 'fifo') {
        if (model.service.kind === 'exponential' && model.service.mean === 1 && model.d >= 2)
          return solver('lwl-closed-form', 'LWL(d) closed form', 'exact', LWL_SOURCE);
        return solver('lwl-fpe', 'LWL(d) FPE (Picard/FFT)', 'exact', LWL_SOURCE);
      }
      if (cavityRefusal) return no(cavityRefusal);
      return solver(
        'lwl-cavity',
        'LWL cavity queue',
        'estimate',
        'theory.md §5 [D]: exact in the limit given asymptotic independence; CI by batch means',
      );
    }
    case 'jiq':
      return memoryFixedPointOf(model); // JIQ always has a memory (answered above)
    case 'sed':
      return no('selection sed needs server speeds (--speeds); with equal speeds it is jsq'); // servers answered above
    default:
      return unknownPolicy(selection, 'selection rule');
  }
}

/**
 * The transient of a model with dispatcher memory (theory.md §12 "Transient"): the SQ(d) cavity ODE (exponential,
 * FIFO), the phase-type ODE with the memory's routing (SQ(d), FIFO, phase-type law or two-moment fit), the LL(d)
 * workload PIDE with the memory's routing (any law and discipline), or why none.
 */
function memoryTransientOf(model: SupermarketModel): SolverCapability<TransientSolverId> | Unavailable {
  const source = 'theory.md §12 (Hellemans 2021, ch. 6, Prop. trans; π₀(t) quasi-stationary)';
  if (hasMemoryTransient(model))
    return { available: true, id: 'memory-cavity-ode', name: 'SQ(d) cavity ODE with memory', kind: 'exact', source };
  // PS/LAS with exponential sizes: FIFO's queue-length process, memory included (`memoryFifoTwin`); other laws: the
  // insensitivity is of the stationary law only, so no transient
  const twin = model.service.kind === 'exponential' ? memoryFifoTwin(model) : undefined;
  if (twin !== undefined && hasMemoryTransient(twin))
    return {
      available: true,
      id: 'memory-cavity-ode',
      name: `SQ(d) cavity ODE with memory, ${model.discipline.toUpperCase()} as FIFO (same queue lengths)`,
      kind: 'exact',
      source: `${source}; ${SIZE_BLIND_SOURCE}`,
    };
  if (model.selection === 'lwl')
    return {
      available: true,
      id: 'memory-lwl-pide',
      name: 'LL(d) workload PIDE with memory',
      kind: 'exact',
      source: `${source}; ${LWL_SOURCE} "Transient PIDE"`,
    };
  const refusal = memoryPhaseTypeRefusal(model);
  if (refusal === undefined) {
    // a two-moment PH fit is given only where its error was measured (phaseTypeFitOf); with memory it never was
    if (!memoryPhaseTypeIsExact(model))
      return no(
        `no transient solver for memory with ${model.service.kind} sizes: the phase-type ODE would run on a two-moment PH fit whose error with memory was never measured; use simulate`,
      );
    return {
      available: true,
      id: 'memory-phase-type-ode',
      name: 'phase-type SQ(d) ODE with memory',
      kind: 'exact',
      source: `${source}; theory.md §3`,
    };
  }
  return no(
    `no transient solver for memory with ${model.selection}, ${model.discipline}, ${model.service.kind} sizes: ${refusal} ` +
      '(the memory transients cover SQ(d) FIFO with exponential or phase-type sizes, and LL(d) with any law)',
  );
}

/** The transient solver of a model, or why none (what `ode` integrates). */
function transientOf(model: SupermarketModel): SolverCapability<TransientSolverId> | Unavailable {
  if (model.servers !== undefined) {
    const refusal = heteroRefusal(model, 'transient mean field');
    if (refusal !== undefined) return no(refusal);
    return { available: true, id: 'hetero-occupancy-ode', name: 'per-class occupancy ODE', kind: 'exact', source: HETERO_SOURCE };
  }
  if (modelHasMemory(model)) return memoryTransientOf(model);
  const selection = model.selection;
  const fifo = model.discipline === 'fifo';
  const noTransient = no(
    `no transient mean field for ${ruleName(model)} + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes: ` +
      'ode covers JSQ(d) FIFO (SQ(d) ODE; phase-type ODE for other laws), JSQ(d) with PS or LAS and exponential sizes (the SQ(d) ODE: ' +
      "the same queue-length process; with other laws a sharing server's queue lengths depend on the sizes and no ODE is derived) " +
      'and LWL(d) (workload PIDE, any discipline)',
  );
  switch (selection) {
    case 'lwl':
      // the workload of a work-conserving server does not depend on the discipline (theory.md §4)
      return { available: true, id: 'lwl-pide', name: 'LWL(d) workload PIDE', kind: 'exact', source: LWL_SOURCE };
    case 'jsq':
      if (fifo && model.service.kind === 'exponential')
        return { available: true, id: 'sqd-ode', name: 'SQ(d) ODE', kind: 'exact', source: SQD_SOURCE };
      if (fifoQueueLengthTwin(model))
        return {
          available: true,
          id: 'sqd-ode',
          name: `SQ(d) ODE (${model.discipline.toUpperCase()} with exponential sizes has FIFO's queue-length process)`,
          kind: 'exact',
          source: `${SQD_SOURCE}; theory.md §5 "Sharing disciplines": exponential sizes make a size-blind work-conserving server's queue-length process FIFO's`,
        };
      if (fifo && PH_KINDS.has(model.service.kind))
        return { available: true, id: 'phase-type-ode', name: 'phase-type SQ(d) ODE', kind: 'exact', source: 'theory.md §3' };
      if (fifo && !NO_FIT_KINDS.has(model.service.kind)) {
        // no transient but the two-moment fit's: given only where its error was measured, and stated (phaseTypeFitOf)
        const fit = phaseTypeFitOf(model);
        if (!fit.available) return no(`no transient mean field: ${fit.reason}`);
        const { measuredError: _measured, ...capability } = fit;
        return capability;
      }
      return noTransient;
    case 'random':
    case 'lpw':
      return noTransient;
    case 'jiq':
      return memoryTransientOf(model); // JIQ always has a memory (answered above)
    case 'sed':
      return no('selection sed needs server speeds (--speeds); with equal speeds it is jsq'); // servers answered above
    default:
      return unknownPolicy(selection, 'selection rule');
  }
}

const CAVITY_LAW = ': the empirical law of the tagged jobs, pooled, 95 % sectioning intervals over the restarts or batches';

/**
 * The response-time law of a model, from its fixed-point solver (responseTime.ts): the same solver where it gives the
 * law, the JSQ cavity where the solver gives the mean only (PS: the mean is insensitive, the law is not; M/G/1 other
 * than FIFO), or why none.
 */
function responseTimeOf(
  model: SupermarketModel,
  fixedPoint: SolverCapability<FixedPointSolverId> | Unavailable,
): SolverCapability<ResponseTimeSolverId> | Unavailable {
  if (!fixedPoint.available) return fixedPoint;
  const solver = (id: ResponseTimeSolverId, name: string, kind: SolutionKind, source: string): SolverCapability<ResponseTimeSolverId> => ({
    available: true,
    id,
    name,
    kind,
    source,
  });
  const jsqCavity = (why: string) =>
    solver('jsq-cavity', 'JSQ cavity iteration (response-time sample)', 'estimate', `theory.md §5 [A]${CAVITY_LAW}; ${why}`);
  const id = fixedPoint.id;
  switch (id) {
    case 'sqd-closed-form':
      return solver(
        id,
        'SQ(d) closed form: Poisson mixture over the queue joined',
        'exact',
        `${SQD_SOURCE}: P(T > t) = Σ_m e^(−μt)(μt)^m/m! · s_m^d`,
      );
    case 'phase-type-ode':
      return solver(
        id,
        `${fixedPoint.name}: phase-type law of T by uniformisation`,
        fixedPoint.kind,
        `${fixedPoint.source}; T is PH given the level and phase joined`,
      );
    case 'lwl-closed-form':
      return solver(id, 'LWL(d) closed form', 'exact', `${LWL_SOURCE}: P(T > t) = (ρ^d + (1 − ρ^d)e^((d−1)t))^(1/(1−d))`);
    case 'lwl-fpe':
      return solver(id, 'LWL(d) FPE (Picard/FFT): F̄_R = Ḡ + g ∗ F̄^d', 'exact', `${LWL_SOURCE}: P(W > w) = F̄(w)^d, T = W + S`);
    case 'jsq-cavity':
    case 'lpw-cavity':
    case 'lwl-cavity':
      return solver(id, `${fixedPoint.name} (response-time sample)`, 'estimate', `${fixedPoint.source}${CAVITY_LAW}`);
    case 'sqd-insensitive':
      return jsqCavity(
        model.discipline === 'ps'
          ? 'JSQ(d) with PS: the mean is insensitive to the size law (Bramson, Lu & Prabhakar 2012), the response-time law is not'
          : `JSQ(d) with ${model.discipline.toUpperCase()} and exponential sizes: the queue lengths are FIFO's, the response-time law is not`,
      );
    case 'mg1': {
      // E[S²] = ∞ with a non-preemptive server (FIFO, SJF, SPJF): the wait holds the residual of the job in service, whose
      // tail P(R > t) = ∫_t^∞ P(S > x)dx/E[S] is one power heavier than the size's; the FPE's grid stops short of it and a
      // cavity run does not sample it (pareto α = 1.5 at λ = 0.9: p99 ≈ 10⁵ mean service times), so no number is given
      const infinite = infiniteLimitReason(model);
      if (infinite !== undefined)
        return no(
          `no response-time law for M/G/1 ${model.discipline.toUpperCase()} with ${model.service.kind} sizes: ${infinite}, so the wait's tail is heavier than any solver here reaches (E[T] = ∞); use simulate`,
        );
      if (model.discipline !== 'fifo') return jsqCavity(`M/G/1 ${model.discipline.toUpperCase()} (d = 1): the formulas give means only`);
      if (model.service.kind === 'exponential') return solver('mm1-closed-form', 'M/M/1 FIFO: T ~ Exp(μ − λ)', 'exact', M_G_1_SOURCE);
      if (PH_KINDS.has(model.service.kind))
        return solver(
          'phase-type-ode',
          'M/PH/1 FIFO: phase-type law of T by uniformisation',
          'exact',
          'theory.md §3 at d = 1 (the phase-type ODE is the M/PH/1 queue)',
        );
      return solver(
        'mg1-fpe',
        'M/G/1 FIFO: the LWL(1) workload FPE (Takács), F̄_R = Ḡ + g ∗ F̄',
        'exact',
        `${LWL_SOURCE} at d = 1; theory.md §7`,
      );
    }
    case 'infinite-mean':
      // the mean is infinite, the law and its quantiles are not: LWL(d) FIFO has its FPE (the law on its grid), the JSQ
      // rules the cavity's response-time sample; solveResponseTime marks the law's mean ∞. Those solvers are for identical
      // servers: with speeds no solver gives the law here (the per-class cavity needs a finite mean to settle)
      if (model.servers !== undefined)
        return no(
          `no response-time law with server speeds where E[T] = ∞ (${INFINITE_SOURCE}): the per-class cavity's level balance needs a finite mean; use simulate`,
        );
      if (model.selection === 'lwl' && model.discipline === 'fifo')
        return solver(
          'lwl-fpe',
          'LWL(d) FPE (Picard/FFT): F̄_R = Ḡ + g ∗ F̄^d',
          'exact',
          `${LWL_SOURCE}: P(W > w) = F̄(w)^d, T = W + S; E[T] = ∞ (${INFINITE_SOURCE}), its quantiles are finite`,
        );
      return jsqCavity(`E[T] = ∞ in the limit (${INFINITE_SOURCE}), its quantiles are finite`);
    case 'memory-reduction': {
      // the reduction theorem gives the response-time law (theory.md §12) where it is proved: FIFO at d ≥ 2, any
      // work-conserving discipline at d = 1; JSQ(d) with PS or LAS goes through FIFO's queue lengths, not its law
      const memory = describeMemory(effectiveMemory(model.selection, model.d, model.memory));
      const jiq = isJiq(model.selection);
      const d = jiq ? 1 : model.d;
      if (d >= 2 && model.discipline !== 'fifo')
        return no(
          `no response-time law for memory ${memory} with ${model.discipline.toUpperCase()} at d = ${d}: the reduction theorem (theory.md §12) is proved for FIFO servers (any discipline at d = 1); ${model.discipline.toUpperCase()}'s E[T] comes through FIFO's queue lengths, its law does not; use simulate`,
        );
      const reduced: SupermarketModel = { ...model, selection: jiq ? 'random' : model.selection, d, memory: NO_MEMORY };
      const base = responseTimeOf(reduced, fixedPointOf(reduced));
      if (!base.available) return base;
      return solver(
        'memory-reduction',
        `${base.name} at the reduced rate λπ₀^{1/d} (memory ${memory})`,
        base.kind,
        `${MEMORY_LAW_SOURCE}; base: ${base.source}`,
      );
    }
    case 'hetero-occupancy':
    case 'hetero-lwl':
    case 'hetero-mg1': {
      // random selection, FIFO: the mixture of the classes' M/G/1 FIFO laws (exact; the occupancy ODE answers the mean
      // for exponential sizes, the same queues); other disciplines: the per-class cavity's sample
      if (model.selection === 'random' && model.discipline === 'fifo')
        return solver(
          'hetero-mg1',
          `M/G/1 FIFO law per speed class, mixed by job share: P(T > t) = Σ p_c P(T′_c > v_c t)`,
          'exact',
          `${HETERO_MG1_SOURCE}; each class's law as at d = 1 (M/M/1, phase-type, the LWL(1) FPE)`,
        );
      if (id !== 'hetero-mg1')
        return no(
          'no response-time law with server speeds for this model yet: the per-class occupancy ODE and LWL solver give means per class (theory.md §13); use simulate',
        );
      const cavity = heteroCavityOf(model);
      if (cavity === undefined || !cavity.available)
        return no(
          `no response-time law for random selection with server speeds and ${model.discipline.toUpperCase()}: the M/G/1 formulas give means only${cavity === undefined ? '' : ` and ${cavity.reason}`}; use simulate`,
        );
      return solver(
        'hetero-cavity',
        `${cavity.name} (response-time sample)`,
        'estimate',
        `${cavity.source}; the law pools the classes' cavity response times (the M/G/1 formulas give the mean only)`,
      );
    }
    case 'hetero-cavity':
    case 'hetero-lwl-cavity':
      return solver(
        id,
        fixedPoint.name,
        'estimate',
        `${fixedPoint.source}; the law pools the classes' cavity response times, each class thinned to its share of the jobs (sectioning CI)`,
      );
    case 'batch-sqdk':
    case 'batch-lldk':
    case 'batch-bsq':
      return no('no response-time law for batches yet: the batch recursions give the occupancy and E[T] (theory.md §15); use simulate');
    case 'redundancy-independent':
      return solver(
        id,
        `${fixedPoint.name}: P(T > t) = (λ + (1 − λ)e^{(d−1)t})^{−d/(d−1)}`,
        'exact',
        `${fixedPoint.source}; time in mean service times, λ the load λE[S]`,
      );
    case 'redundancy-identical':
      return solver(
        id,
        `${fixedPoint.name}: P(T > t) = Q_d(t), P(X + min of d cavity draws of U > t), on the shot from F̄(0)`,
        'exact',
        `${fixedPoint.source}; RK4 step 1/64, error bound from step 1/32 and the interpolation`,
      );
    default:
      return unknownPolicy(id, 'fixed-point solver');
  }
}

/**
 * The capabilities of LPW(d) with exact predictions: its LWL model's (model/model.ts `lpwAsLwl`, the same dispatch),
 * each available solver named as such; the solvers run on the LWL model (solveMeanField and the other entries).
 */
function asLpw(lwl: MeanFieldCapabilities): MeanFieldCapabilities {
  const why = 'LPW with exact predictions reads the true work left: LWL(d)';
  const tag = <C extends { readonly available: boolean }>(c: C): C =>
    c.available ? { ...c, name: `${(c as C & { name: string }).name} (${why})` } : c;
  return {
    ...lwl,
    fixedPoint: tag(lwl.fixedPoint),
    transient: tag(lwl.transient),
    refined: { firstOrder: tag(lwl.refined.firstOrder), secondOrder: tag(lwl.refined.secondOrder) },
    exactChain: tag(lwl.exactChain),
    phaseTypeFit: tag(lwl.phaseTypeFit),
    responseTime: tag(lwl.responseTime),
    fallback: tag(lwl.fallback),
  };
}

/**
 * The refined terms and exact chain of a PS or LAS model with exponential sizes (JSQ(d), random): those of its FIFO
 * twin (`fifoQueueLengthTwin`, the same queue-length process), each available one named as such; `refine`,
 * `refineSecondOrder`, `refinedTransient` and `solveExact` run on the twin. They give E[Q], the tails and E[T] (Little),
 * not the law of T. The caller keeps the model's own fixed point and response-time law.
 */
function throughFifo(
  fifo: MeanFieldCapabilities,
  model: SupermarketModel,
): Pick<MeanFieldCapabilities, 'transient' | 'refined' | 'exactChain' | 'phaseTypeFit' | 'fallback'> {
  const why = `${model.discipline.toUpperCase()} with exponential sizes has FIFO's queue lengths: E[Q], E[T] only`;
  const tag = <C extends TermCapability | Unavailable>(c: C): C =>
    c.available ? { ...c, name: `${c.name} (${why})`, source: `${c.source}; ${SIZE_BLIND_SOURCE}` } : c;
  return {
    transient: transientOf(model),
    refined: { firstOrder: tag(fifo.refined.firstOrder), secondOrder: tag(fifo.refined.secondOrder) },
    exactChain: tag(fifo.exactChain),
    phaseTypeFit: phaseTypeFitOf(model),
    fallback: no("no fallback: a refusal of this model's fixed-point solver is final"),
  };
}

/**
 * What the mean-field room can answer for `model`: the fixed-point solver (by the table of solve.ts, strongest
 * first), the transient solver, the refined terms of order 1 and 2 and the exact n-server chain, each with its name
 * and source, and the response-time law (`solveResponseTime`), or `{ available: false, reason }`. The load is not checked: a transient exists at ρ ≥ 1, the fixed
 * point does not (the solvers call `requireStable`).
 * @param model a validated model (`parseModel` or `validateModel`).
 * @example meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2 })).fixedPoint // { available: true, id: 'sqd-closed-form', kind: 'exact', … }
 */
export function meanFieldCapabilities(model: SupermarketModel): MeanFieldCapabilities {
  // random routing however spelt (LWL, LPW, random at d = 1) has JSQ(1)'s answers: one policy (`randomRoutingTwin`)
  const routing = randomRoutingTwin(model);
  if (routing !== undefined) return meanFieldCapabilities(routing);
  const lwl = lpwAsLwl(model);
  if (lwl !== undefined) return asLpw(meanFieldCapabilities(lwl));
  if (model.redundancy !== undefined) return redundancyCapabilities(model);
  if (model.servers !== undefined) {
    const notYet = no(
      'the refined mean field and the exact chain are derived for identical servers; with server speeds they are not implemented',
    );
    // the 1/n term exists (heteroRefined, meanfield/hetero/refined.ts); compare judges by it (compare/plan.ts heteroFirstOrder)
    const firstOrder = heteroRefusal(model, 'refined mean field')
      ? notYet
      : no(
          heteroRefinedRefusal(model) ??
            "with server speeds the 1/n term is heteroRefined (meanfield/hetero/refined.ts, the per-class ODE as a population model): compare judges the cells by it and `fixed-point --refined --n` prints it; `refine` and the refined transient are SQ(d)'s",
        );
    const fixedPoint = fixedPointOf(model);
    return {
      fixedPoint,
      transient: transientOf(model),
      refined: { firstOrder, secondOrder: notYet },
      exactChain: notYet,
      phaseTypeFit: no('the two-moment phase-type fit is derived for identical servers, not with server speeds'),
      responseTime: responseTimeOf(model, fixedPoint),
      fallback: no("no fallback: a refusal of this model's fixed-point solver is final"),
    };
  }
  if ((model.batch ?? 1) > 1) return batchCapabilities(model);
  if (!hasPoissonArrivals(model)) return nonPoissonCapabilities(model);
  const fixedPoint = fixedPointOf(model);
  // PS or LAS with exponential sizes under JSQ(d) or random: FIFO's queue-length process, so FIFO's refined terms and
  // exact chain, for E[Q], the tails and E[T] = E[Q]/λ (the law of T is not FIFO's: the model's own responseTime)
  const twin = fifoQueueLengthTwin(model);
  if (twin !== undefined)
    return {
      ...throughFifo(meanFieldCapabilities(twin), model),
      ...(mg1ExactChain(fixedPoint) && { exactChain: mg1ExactChain(fixedPoint)! }),
      fixedPoint,
      responseTime: responseTimeOf(model, fixedPoint),
    };
  const sqd = isSqdModel(model);
  const withMemory = modelHasMemory(model) ? `, memory ${describeMemory(effectiveMemory(model.selection, model.d, model.memory))}` : '';
  const notSqd = `the refined mean field is derived for JSQ(d), FIFO, exponential sizes without memory (theory.md §6), and PS or LAS through FIFO's queue lengths, not ${ruleName(model)} + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes${withMemory}`;
  return {
    fixedPoint,
    responseTime: responseTimeOf(model, fixedPoint),
    transient: transientOf(model),
    refined: {
      firstOrder: sqd
        ? { available: true, name: 'refined mean field, order 1 (V/n)', source: 'theory.md §6 (Gast & Van Houdt 2017)' }
        : no(notSqd),
      secondOrder: !sqd
        ? no(notSqd)
        : model.sampling !== 'with-replacement'
          ? no('the 1/n² term is implemented for sampling with replacement only (without replacement the drift itself depends on n)')
          : secondOrderUnverified(model.d) !== undefined
            ? no(secondOrderUnverified(model.d)!)
            : { available: true, name: 'refined mean field, order 2 (1/n²)', source: 'theory.md §6 (Gast, Bortolussi & Tribastone 2019)' },
    },
    exactChain:
      mg1ExactChain(fixedPoint) ??
      ((model.selection === 'jsq' || model.selection === 'random') &&
      model.discipline === 'fifo' &&
      model.service.kind === 'exponential' &&
      !modelHasMemory(model)
        ? {
            available: true,
            id: 'occupancy-chain',
            name: 'n-server occupancy chain',
            source: 'theory.md §1–§2: the n-server CTMC on sorted occupancy vectors',
          }
        : no(
            `the exact n-server chain covers JSQ(d) or random selection with FIFO (PS and LAS through FIFO's queue lengths) and exponential sizes, not ${ruleName(model)} + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes`,
          )),
    phaseTypeFit: phaseTypeFitOf(model),
    fallback:
      fixedPoint.available && fixedPoint.id === 'jsq-cavity' && isJsqFifoNonPh(model)
        ? phaseTypeFitOf(model)
        : no("no fallback: a refusal of this model's fixed-point solver is final"),
  };
}

/**
 * The capabilities of a model with non-Poisson arrivals (theory.md §14). A renewal stream: the fixed point and the
 * transient of the same model with Poisson arrivals (same solver ids, names saying so), no refined term and no exact
 * chain (both are derived for the Poisson chain). An MMPP (phases switching on the O(1) time scale): nothing.
 */
function nonPoissonCapabilities(model: SupermarketModel): MeanFieldCapabilities {
  const arrivals = formatArrivals(model.arrivals);
  const noChain = no(
    `the refined terms and the exact n-server chain are derived for Poisson arrivals, not arrivals ${arrivals} (theory.md §14)`,
  );
  if (model.arrivals.kind === 'mmpp' || modelHasMemory(model)) {
    const reason = modelHasMemory(model)
      ? `no mean-field solver for arrivals ${arrivals} with a dispatcher memory: the memory moves on the arrivals' own time scale, where the reduction theorem assumes Poisson arrivals (theory.md §12, §14); use simulate`
      : `no mean-field solver for arrivals ${arrivals}: the phase switches at O(1) rates, so the n → ∞ limit is an ODE driven by the phase process (no fixed point), and that driven ODE is not solved here (theory.md §14); use simulate`;
    return {
      fixedPoint: no(reason),
      transient: no(reason),
      refined: { firstOrder: noChain, secondOrder: noChain },
      exactChain: noChain,
      phaseTypeFit: no(reason),
      responseTime: no(reason),
      fallback: no("no fallback: a refusal of this model's fixed-point solver is final"),
      arrivalsNote: reason,
    };
  }
  const poisson = meanFieldCapabilities({ ...model, arrivals: POISSON_ARRIVALS });
  const limit = <C extends { available: boolean }>(c: C): C =>
    c.available
      ? ({
          ...c,
          name: `${(c as unknown as { name: string }).name} (Poisson limit of arrivals ${arrivals})`,
          source: `${ARRIVALS_SOURCE}; ${(c as unknown as { source: string }).source}`,
        } as C)
      : c;
  return {
    fixedPoint: limit(poisson.fixedPoint),
    transient: limit(poisson.transient),
    refined: { firstOrder: noChain, secondOrder: noChain },
    exactChain: noChain,
    phaseTypeFit: limit(poisson.phaseTypeFit),
    responseTime: limit(poisson.responseTime),
    fallback: limit(poisson.fallback),
    arrivalsNote: `arrivals ${arrivals}: a renewal stream of rate λn from one dispatcher has the Poisson fluid limit, so the n → ∞ answers are the Poisson model's; the finite-n gap differs (compare measures it; theory.md §14)`,
  };
}

const BATCH_SOURCE =
  'theory.md §15 (Ying, Srikant & Kang, INFOCOM 2015; Hellemans, PhD thesis 2021, §8): batch sampling, flow balance across levels';

/**
 * The capabilities of a model with batches of K > 1 jobs (theory.md §15): the SQ(d,K), LL(d,K) and BSQ fixed points
 * for Poisson batches, exponential sizes and FIFO servers, the tail ODE of SQ(d,K) and BSQ (`batchTransient`) and the
 * LL(d,K) workload PIDE (`lwlTransient` with the batch-sampling map); no refined term or exact chain yet.
 */
function batchCapabilities(model: SupermarketModel): MeanFieldCapabilities {
  const K = model.batchLaw === undefined ? String(model.batch) : `X ~ ${formatBatch(model.batchLaw)}`;
  const what = `${selectionName(model, 'd')} + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes, batches of ${K} (${model.batchDispatch})`;
  const none = no(`no refined term or exact chain for batches yet (theory.md §15): ${what}`);
  const fixed = ((): SolverCapability<FixedPointSolverId> | Unavailable => {
    if (!hasPoissonArrivals(model))
      return no(
        `no mean-field solver for batches with arrivals ${formatArrivals(model.arrivals)}: the batch equations assume Poisson batches (theory.md §15)`,
      );
    // PS and LAS with exponential sizes under jsq: the dispatcher reads job counts, which evolve as FIFO's (departures at
    // rate 1 from a busy server), so SQ(d,K) and BSQ hold exactly (sizeBlindFifoTwin). LL(d,K) reads the work left, and
    // the order PS or LAS drains it changes the job counts (n = 1000, d = 3, K = 2, λ = 0.8: PS 2.06 ± 0.04, LAS 2.29 ±
    // 0.05 against FIFO's 1.8656): no equation, nor for other disciplines or size laws
    const twin = model.discipline === 'fifo' ? undefined : sizeBlindFifoTwin(model);
    if (model.service.kind !== 'exponential' || (model.discipline !== 'fifo' && twin === undefined))
      return no(
        `no mean-field solver for ${what}: the batch equations cover exponential sizes with FIFO, or with PS or LAS under jsq ` +
          `(size-blind sharing leaves the job counts FIFO's); ${model.selection === 'lwl' ? "LL(d,K) reads the work left, whose draining order PS and LAS change, so the job counts are not FIFO's" : 'other disciplines and size laws change the queue lengths'} (theory.md §15); use simulate`,
      );
    const solver = (id: FixedPointSolverId, name: string): SolverCapability<FixedPointSolverId> => ({
      available: true,
      id,
      name:
        twin === undefined
          ? name
          : `${name}, through FIFO (${model.discipline.toUpperCase()} with exponential sizes: FIFO's queue-length process)`,
      kind: 'exact',
      source: BATCH_SOURCE,
    });
    switch (model.batchDispatch) {
      case 'spread':
        if (model.selection === 'jsq') return solver('batch-sqdk', `SQ(d,K) batch-sampling recursion (K = ${K})`);
        if (model.selection === 'lwl') return solver('batch-lldk', `LL(d,K) batch-sampling workload equation (K = ${K})`);
        return no(`no mean-field solver for ${what}`);
      case 'whole':
        if (model.selection === 'jsq') return solver('batch-bsq', `BSQ recursion (the batch of ${K} to the shortest of d)`);
        return no(`no mean-field solver for ${what}: the whole-batch equations are derived for jsq (BSQ) only`);
      default:
        return unknownPolicy(model.batchDispatch, 'batch dispatch');
    }
  })();
  // the tail ODE of SQ(d,K) and BSQ (queue lengths); LL(d,K): the LWL(d) workload PIDE with the batch-sampling map
  const transient = ((): SolverCapability<TransientSolverId> | Unavailable => {
    if (!fixed.available) return fixed;
    const id = fixed.id;
    switch (id) {
      case 'batch-sqdk':
      case 'batch-bsq':
        return {
          available: true,
          id: 'batch-ode',
          name: `${id === 'batch-sqdk' ? 'SQ(d,K)' : 'BSQ'} batch tail ODE (K = ${K})`,
          kind: 'exact',
          source: BATCH_SOURCE,
        };
      case 'batch-lldk':
        return {
          available: true,
          id: 'lwl-pide',
          name: `LL(d,K) batch workload PIDE (K = ${K})`,
          kind: 'exact',
          source: `${BATCH_SOURCE}; the LWL(d) scheme of theory.md §4 with the batch-sampling map`,
        };
      default:
        return no(`no transient for ${what}`);
    }
  })();
  return {
    fixedPoint: fixed,
    transient,
    refined: { firstOrder: none, secondOrder: none },
    exactChain: none,
    phaseTypeFit: no(`no two-moment phase-type fit for batches (theory.md §15): ${what}`),
    responseTime: no(`no response-time law for batches yet (theory.md §15): ${what}; use simulate`),
    fallback: no("no fallback: a refusal of this model's fixed-point solver is final"),
  };
}

/**
 * The capabilities of a redundancy-d model, cancel-on-complete (theory.md §16; cancel-on-start resolved to LWL(d) by
 * the model): the fixed point for Poisson arrivals and exponential sizes, independent replicas (Gardner et al.'s
 * closed form) or identical ones (the shooting on F̄(0), with λ_max), and the response-time law of the same solver
 * (`solveResponseTime`); no transient, refined term or exact chain.
 */
function redundancyCapabilities(model: SupermarketModel): MeanFieldCapabilities {
  const replicas = model.redundancy?.replicas ?? 'independent';
  const what = `redundancy-d cancel-on-complete with ${replicas} replicas`;
  const none = no(`no transient, refined term or exact chain for ${what} yet (theory.md §16)`);
  const fixedPoint = ((): SolverCapability<FixedPointSolverId> | Unavailable => {
    if (!hasPoissonArrivals(model))
      return no(
        `no mean-field solver for ${what} with arrivals ${formatArrivals(model.arrivals)}: the equations assume Poisson arrivals; use simulate`,
      );
    if (model.service.kind !== 'exponential')
      return no(
        `no mean-field solver for ${what} and ${model.service.kind} sizes: the equations are solved for exponential sizes (theory.md §16); use simulate`,
      );
    switch (replicas) {
      case 'independent':
        return {
          available: true,
          id: 'redundancy-independent',
          name: `Redundancy-d closed form, independent replicas (d = ${model.d})`,
          kind: 'exact',
          source:
            'theory.md §16 (Gardner, Harchol-Balter, Scheller-Wolf, Velednitsky & Zbarsky, Oper. Res. 2017): P(T > t) = (λ + (1 − λ)e^{(d−1)t})^{−d/(d−1)}',
        };
      case 'identical':
        return {
          available: true,
          id: 'redundancy-identical',
          name: `Redundancy-d cavity equation, identical replicas (d = ${model.d}; shooting on F̄(0), RK4)`,
          kind: 'exact',
          source:
            "theory.md §16 (Hellemans' thesis 2021, ch. 3: the DIDE for identical replicas, ODE form for exponential sizes; λ_max by the F̄(0) → 1 search)",
        };
      default:
        return unknownPolicy(replicas, 'replica law');
    }
  })();
  return {
    fixedPoint,
    // the law of T with the fixed point's solver: Gardner et al.'s closed form, or Q_d of the identical-replica shot
    responseTime: responseTimeOf(model, fixedPoint),
    transient: none,
    refined: { firstOrder: none, secondOrder: none },
    exactChain: none,
    phaseTypeFit: none,
    fallback: no("no fallback: a refusal of this model's fixed-point solver is final"),
  };
}
