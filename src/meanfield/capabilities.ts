/**
 * What the mean-field room can answer for a model, decided in one place: which fixed-point solver (and what kind of
 * answer it gives), which transient solver, which refined (1/n, 1/n²) terms and which exact finite-n chain, or a
 * sentence saying why not. `solveMeanField` and `solveMeanFieldTransient` dispatch from it; the CLI, compare, claims
 * and the report ask it instead of re-deriving. Source: theory.md §2–§7 (which solver is exact for which model).
 */
import { DISCIPLINE_TABLE, serviceMomentFinite, unknownPolicy, type SupermarketModel } from '../model/index.ts';
import { effectiveMemory, isJiq, modelHasMemory, NO_MEMORY } from '../model/memory.ts';
import { describeMemory } from './memory/reduction.ts';
import { hasMemoryTransient } from './memory/transient.ts';
import { describePhaseTypeFitError, phaseTypeFitError, type PhaseTypeFitError } from './phaseType/fitError.ts';

export { requireStable } from '../model/index.ts';

/**
 * What kind of answer a solution is: 'exact' (the n → ∞ limit up to `numericalError`), 'approximation' (a solver
 * for a nearby model, e.g. a two-moment phase-type fit), 'estimate' (a simulation of the limit — the cavity
 * methods — with a confidence interval in `estimate`).
 */
export type SolutionKind = 'exact' | 'approximation' | 'estimate';

/** The fixed-point solvers behind `solveMeanField`. */
export type FixedPointSolverId =
  | 'mg1'
  | 'sqd-closed-form'
  | 'sqd-insensitive'
  | 'phase-type-ode'
  | 'jsq-cavity'
  | 'lwl-closed-form'
  | 'lwl-fpe'
  | 'lwl-cavity'
  | 'lpw-cavity'
  | 'memory-reduction';

/** The transient solvers behind `solveMeanFieldTransient`. */
export type TransientSolverId = 'sqd-ode' | 'phase-type-ode' | 'lwl-pide' | 'memory-cavity-ode';

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
  /** The exact stationary law of the n-server chain (`solveExact`). */
  readonly exactChain: TermCapability | Unavailable;
  /**
   * The two-moment phase-type fit as an explicit option (`solveMeanField(model, { phaseTypeFit: true })`,
   * `fixed-point --ph-fit`): JSQ(d) FIFO with a size law that is not phase-type and whose family has a measured error
   * (meanfield/phaseType/fitError.ts), kind 'approximation', the measured error named in `source` and `measuredError`.
   */
  readonly phaseTypeFit: (SolverCapability<'phase-type-ode'> & { readonly measuredError: PhaseTypeFitError }) | Unavailable;
  /**
   * What `solveMeanField` answers when the fixed-point solver refuses (ConvergenceError): for the JSQ cavity on JSQ(d)
   * FIFO with a non-phase-type law (log-normal σ = 1.5 at λ = 0.9, seed 1: busy fraction 0.13 % under ρ), the
   * two-moment PH fit with its measured error (`phaseTypeFit`), the solution's `note` naming why the cavity was not
   * used; unavailable otherwise (the refusal passes through).
   */
  readonly fallback: (SolverCapability<'phase-type-ode'> & { readonly measuredError: PhaseTypeFitError }) | Unavailable;
}

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

/** Why JSQ(d) FIFO has no finite fixed point with this law (E[S²] = ∞), or undefined. */
function infiniteFifoReason(model: SupermarketModel): string | undefined {
  if (serviceMomentFinite(model.service, 2)) return undefined;
  return `no finite mean field for JSQ(d) FIFO with ${model.service.kind} sizes: E[S²] = ∞, so in the limit a job that finds its ${model.d} sampled servers busy (probability > 0) waits a residual size of infinite mean: E[T] = ∞`;
}

/** The explicit two-moment PH fit of a JSQ(d) FIFO model with a non-phase-type law, or why not. */
function phaseTypeFitOf(model: SupermarketModel): MeanFieldCapabilities['phaseTypeFit'] {
  if (!isJsqFifoNonPh(model))
    return no(
      `the two-moment PH fit is an option for JSQ(d) FIFO without memory with sizes that are not phase-type (weibull, lognormal, …), not ${model.selection.toUpperCase()}(d) + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes`,
    );
  const infinite = infiniteFifoReason(model);
  if (infinite) return no(infinite);
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

/**
 * The SQ(d) model: JSQ(d) with FIFO and exponential sizes (any mean), whose mean field is the ODE of theory.md §2
 * with its closed-form fixed point, refined terms and exact chain.
 */
export function isSqdModel(model: SupermarketModel): boolean {
  return model.selection === 'jsq' && model.discipline === 'fifo' && model.service.kind === 'exponential' && !modelHasMemory(model);
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
  if (d >= 2 && model.discipline !== 'fifo')
    return no(
      `no mean-field solver for memory ${memory} with discipline ${model.discipline} at d = ${d}: the reduction theorem (Hellemans 2021, ch. 6) covers FIFO servers (any discipline at d = 1); use simulate`,
    );
  const base = fixedPointOf({ ...model, selection: jiq ? 'random' : model.selection, d, memory: NO_MEMORY });
  if (!base.available) return base;
  return {
    available: true,
    id: 'memory-reduction',
    name: `${base.name} at the reduced rate (memory ${memory})`,
    kind: base.kind,
    source: `theory.md §12: reduction theorem (Hellemans 2021, ch. 6), rate λπ₀^{1/d}; base: ${base.source}`,
  };
}

/** The fixed-point solver of a model (the table of solve.ts), or why none. */
function fixedPointOf(model: SupermarketModel): SolverCapability<FixedPointSolverId> | Unavailable {
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
  switch (row.server) {
    case 'priority':
    case 'attained-service': // LAS: the JSQ and LWL cavity queues below, the server sharing among the least served
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
    case 'lpw':
      if (cavityRefusal) return no(cavityRefusal);
      return solver(
        'lpw-cavity',
        'LPW cavity iteration',
        'estimate',
        'theory.md §5 [A]: asymptotic independence assumed; law of predicted work iterated to its fixed point, CI from independent restarts, checked (throughput, busy fraction, Little)',
      );
    case 'jsq': {
      if (model.discipline === 'fifo' && model.service.kind === 'exponential')
        return solver('sqd-closed-form', 'SQ(d) closed form', 'exact', SQD_SOURCE);
      if (model.discipline === 'fifo' && PH_KINDS.has(model.service.kind))
        return solver('phase-type-ode', 'phase-type SQ(d) ODE', 'exact', 'theory.md §3');
      if (cavityRefusal) return no(cavityRefusal);
      if (isJsqFifoNonPh(model)) {
        // not phase-type: the cavity (an estimate with a CI) by default; the two-moment PH fit only on request, with
        // its measured error (issue 20 item 4: it was −13 % to +8 % against simulation with no size stated)
        const infinite = infiniteFifoReason(model);
        if (infinite) return no(infinite);
        return solver(
          'jsq-cavity',
          'JSQ cavity iteration',
          'estimate',
          'theory.md §5 [A]: s1 = rho held, CI from independent restarts, checked (Little); the default for sizes that are not phase-type (the two-moment PH fit is the explicit option --ph-fit, with its measured error)',
        );
      }
      return solver(
        'jsq-cavity',
        'JSQ cavity iteration',
        'estimate',
        'theory.md §5 [A]: asymptotic independence assumed; s1 = rho held, CI from independent restarts, checked (Little, FIFO phase-type ODE)',
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
    default:
      return unknownPolicy(selection, 'selection rule');
  }
}

/** The transient of a model with dispatcher memory: the SQ(d) cavity ODE (theory.md §12), or why none. */
function memoryTransientOf(model: SupermarketModel): SolverCapability<TransientSolverId> | Unavailable {
  return hasMemoryTransient(model)
    ? {
        available: true,
        id: 'memory-cavity-ode',
        name: 'SQ(d) cavity ODE with memory',
        kind: 'exact',
        source: 'theory.md §12 (Hellemans 2021, ch. 6, Prop. trans)',
      }
    : no(
        `no transient solver for memory with ${model.selection}, ${model.discipline}, ${model.service.kind} sizes: the cavity ODE covers SQ(d) (jsq or jiq), FIFO, exponential sizes`,
      );
}

/** The transient solver of a model, or why none (what `ode` integrates). */
function transientOf(model: SupermarketModel): SolverCapability<TransientSolverId> | Unavailable {
  if (modelHasMemory(model)) return memoryTransientOf(model);
  const selection = model.selection;
  const fifo = model.discipline === 'fifo';
  const noTransient = no(
    `no transient mean field for ${selection.toUpperCase()}(d) + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes: ` +
      'ode covers JSQ(d) FIFO (SQ(d) ODE; phase-type ODE for other laws) and LWL(d) (workload PIDE, any discipline)',
  );
  switch (selection) {
    case 'lwl':
      // the workload of a work-conserving server does not depend on the discipline (theory.md §4)
      return { available: true, id: 'lwl-pide', name: 'LWL(d) workload PIDE', kind: 'exact', source: LWL_SOURCE };
    case 'jsq':
      if (fifo && model.service.kind === 'exponential')
        return { available: true, id: 'sqd-ode', name: 'SQ(d) ODE', kind: 'exact', source: SQD_SOURCE };
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
    default:
      return unknownPolicy(selection, 'selection rule');
  }
}

/**
 * What the mean-field room can answer for `model`: the fixed-point solver (by the table of solve.ts, strongest
 * first), the transient solver, the refined terms of order 1 and 2 and the exact n-server chain, each with its name
 * and source, or `{ available: false, reason }`. The load is not checked: a transient exists at ρ ≥ 1, the fixed
 * point does not (the solvers call `requireStable`).
 * @param model a validated model (`parseModel` or `validateModel`).
 * @example meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2 })).fixedPoint // { available: true, id: 'sqd-closed-form', kind: 'exact', … }
 */
export function meanFieldCapabilities(model: SupermarketModel): MeanFieldCapabilities {
  const sqd = isSqdModel(model);
  const notSqd = `the refined mean field is derived for JSQ(d), FIFO, exponential sizes (theory.md §6), not ${model.selection.toUpperCase()}(d) + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes`;
  const fixedPoint = fixedPointOf(model);
  return {
    fixedPoint,
    transient: transientOf(model),
    refined: {
      firstOrder: sqd
        ? { available: true, name: 'refined mean field, order 1 (V/n)', source: 'theory.md §6 (Gast & Van Houdt 2017)' }
        : no(notSqd),
      secondOrder: !sqd
        ? no(notSqd)
        : model.sampling !== 'with-replacement'
          ? no('the 1/n² term is implemented for sampling with replacement only (without replacement the drift itself depends on n)')
          : { available: true, name: 'refined mean field, order 2 (1/n²)', source: 'theory.md §6 (Gast, Bortolussi & Tribastone 2019)' },
    },
    exactChain:
      (model.selection === 'jsq' || model.selection === 'random') &&
      model.discipline === 'fifo' &&
      model.service.kind === 'exponential' &&
      !modelHasMemory(model)
        ? { available: true, name: 'n-server occupancy chain', source: 'theory.md §1–§2: the n-server CTMC on sorted occupancy vectors' }
        : no(
            `the exact n-server chain covers JSQ(d) or random selection with FIFO and exponential sizes, not ${model.selection.toUpperCase()}(d) + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes`,
          ),
    phaseTypeFit: phaseTypeFitOf(model),
    fallback:
      fixedPoint.available && fixedPoint.id === 'jsq-cavity' && isJsqFifoNonPh(model)
        ? phaseTypeFitOf(model)
        : no("no fallback: a refusal of this model's fixed-point solver is final"),
  };
}
