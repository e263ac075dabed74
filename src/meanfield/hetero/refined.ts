/**
 * The refined mean field (1/n term) of heterogeneous servers (theory.md §13, §6): the per-class occupancy ODE of
 * ./occupancy.ts written as a density-dependent population model, so that the population machinery (symbolic
 * Jacobian and Hessian, Lyapunov equation, V = −A⁻¹b; ../population/refined.ts) gives E[X^(n)] = π + V/n.
 *
 * State y_{c,k} = f_c·s_{c,k} = (class-c servers with ≥ k jobs)/n, k = 1..K (one server changes one y by ±1/n, the
 * density-dependent scaling; s_{c,k} itself would move by 1/(n f_c)). Transitions per n:
 *   arrival   y_{c,k} += 1/n  at rate λ (p_c/f_c) R_{c,k−1} (y_{c,k−1} − y_{c,k})   (y_{c,0} = f_c),
 *   departure y_{c,k} −= 1/n  at rate μ_c (y_{c,k} − y_{c,k+1})                     (y_{c,K+1} = 0),
 * with R = Σ_{i<d} H(≥v)^i H(>v)^{d−1−i} the tie-split probability of ./occupancy.ts for the rule's value v of a
 * class-c server at level k − 1 (JSQ: k − 1; SED: k/μ_c; random: R = 1, d = 1). The sums H are linear in the state:
 * H(>v) = Σ_{c'} (p_{c'}/f_{c'}) y_{c',m} with m the lowest level of class c' whose value exceeds v. Arrivals at
 * level K are lost; K is the fixed point's level where every class's s_{c,K} < 1e−13.
 * Observables: E[Q] = Σ y per server, E[T] = E[Q]/λ (Little, at every n), per class busy fraction y_{c,1}/f_c.
 * One class of speed 1 is models/jsq-d.json (the SQ(d) population model): the same V.
 * Source: Gast & Van Houdt, POMACS 1(2) 2017 (refined mean field); Mukhopadhyay & Mazumdar 2015 (per-class ODE).
 */
import { InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { parsePopulationModel, type PopulationModel } from '../../model/population/parse.ts';
import { populationFixedPoint } from '../population/fixedPoint.ts';
import { populationRefined, type PopulationRefinedResult } from '../population/refined.ts';
import { heteroFixedPointOf, heteroProblem, type HeteroOccupancyProblem } from './occupancy.ts';

/** Relative tolerance of equal rule values (ties), as the occupancy ODE's type order. */
const TIE = 1e-12;
/** Truncation: the smallest K with s_{c,K} below this for every class at the fixed point. */
const TOP_MASS = 1e-13;

/** Variable name of y_{c,k} (c 0-based, k ≥ 1). */
const yName = (c: number, k: number) => `y${c + 1}_${k}`;

/** The rule's value of a class-c server holding k jobs (JSQ: k; SED: (k + 1)/μ_c; random: 0). */
function ruleValue(p: HeteroOccupancyProblem, c: number, k: number): number {
  switch (p.rule) {
    case 'jsq':
      return k;
    case 'sed':
      return (k + 1) / p.rates[c];
    case 'random':
      return 0;
    default: {
      const never: never = p.rule;
      throw new Error(`unknown rule ${String(never)}`);
    }
  }
}

/**
 * H(≥v) or H(>v) as an expression: the probability that one sample has a value ≥ v (> v), Σ_{c'} p_{c'} s_{c',m}.
 * @param strict true for > v.
 */
function tailSum(p: HeteroOccupancyProblem, K: number, v: number, strict: boolean): string {
  const terms: string[] = [];
  for (let c = 0; c < p.fractions.length; c++) {
    let m = 0;
    const tol = TIE * Math.abs(v);
    while (m <= K && (strict ? ruleValue(p, c, m) <= v + tol : ruleValue(p, c, m) < v - tol)) m++;
    if (m > K) continue; // no level of class c reaches v
    terms.push(m === 0 ? `${p.sampling[c]}` : `${p.sampling[c] / p.fractions[c]} * ${yName(c, m)}`);
  }
  return terms.length === 0 ? '0' : `(${terms.join(' + ')})`;
}

/**
 * The per-class occupancy ODE at truncation K as a population model (module comment).
 * @returns a validated `PopulationModel` with variables y{c}_{k} (c = 1..C), observables meanQueueLength,
 *   meanResponseTime and busy{c}.
 */
export function heteroPopulationModel(p: HeteroOccupancyProblem, K: number): PopulationModel {
  const C = p.fractions.length;
  const variables: string[] = [];
  const transitions: { name: string; change: Record<string, number>; rate: string }[] = [];
  for (let c = 0; c < C; c++) for (let k = 1; k <= K; k++) variables.push(yName(c, k));
  for (let c = 0; c < C; c++) {
    const share = (p.lambda * p.sampling[c]) / p.fractions[c];
    for (let k = 1; k <= K; k++) {
      const below = k === 1 ? `${p.fractions[c]}` : yName(c, k - 1);
      let R = '1';
      if (p.d > 1) {
        const v = ruleValue(p, c, k - 1);
        const ge = tailSum(p, K, v, false);
        const gt = tailSum(p, K, v, true);
        R = `(${Array.from({ length: p.d }, (_, i) => `${ge}^${i} * ${gt}^${p.d - 1 - i}`).join(' + ')})`;
      }
      transitions.push({
        name: `arrival ${yName(c, k)}`,
        change: { [yName(c, k)]: 1 },
        rate: `${share} * ${R} * (${below} - ${yName(c, k)})`,
      });
      const above = k === K ? '0' : yName(c, k + 1);
      transitions.push({
        name: `departure ${yName(c, k)}`,
        change: { [yName(c, k)]: -1 },
        rate: `${p.rates[c]} * (${yName(c, k)} - ${above})`,
      });
    }
  }
  const observables: Record<string, string> = {
    meanQueueLength: variables.join(' + '),
    meanResponseTime: `(${variables.join(' + ')}) / ${p.lambda}`,
  };
  for (let c = 0; c < C; c++) observables[`busy${c + 1}`] = `${yName(c, 1)} / ${p.fractions[c]}`;
  return parsePopulationModel(
    {
      name: 'per-class occupancy ODE (heterogeneous servers)',
      source: 'theory.md §13; Mukhopadhyay & Mazumdar 2015; Gast & Van Houdt 2017',
      variables,
      transitions,
      observables,
    },
    {},
    { file: 'hetero-population' },
  );
}

/** The refined mean field of a heterogeneous model: the limit and the 1/n coefficients. */
export interface HeteroRefined {
  /** E[T]∞ of the per-class fixed point (untruncated: ./occupancy.ts). */
  readonly meanResponseTime: number;
  /** c₁ of E[T]_n ≈ E[T]∞ + c₁/n (time units × servers). */
  readonly meanResponseTimeCoefficient: number;
  /** The same for E[Q] per server. */
  readonly meanQueueLength: number;
  readonly meanQueueLengthCoefficient: number;
  /** Per class: busy fraction at the limit and its 1/n coefficient. */
  readonly classes: { readonly busyFraction: number; readonly busyFractionCoefficient: number }[];
  readonly truncationLevel: number;
  /** The population machinery's result (V, W, residuals). */
  readonly population: PopulationRefinedResult;
}

/**
 * The 1/n term of a heterogeneous model's per-class occupancy ODE (module comment); the problem form, so one class
 * of speed 1 (not a `SupermarketModel` with servers) can be checked against SQ(d).
 * @throws {ConvergenceError} from the fixed point; {SolverError} from the Lyapunov or linear solve.
 */
export function heteroRefinedOf(p: HeteroOccupancyProblem): HeteroRefined {
  const fp = heteroFixedPointOf(p);
  const C = p.fractions.length;
  let K = 1;
  while (K < fp.truncationLevel && fp.classes.some((c) => c.tail[K] >= TOP_MASS)) K++;
  // random selection (d = 1): the drift is linear, so the Hessian term b and V vanish (independent M/M/1 queues,
  // exact at every n); the machinery gives 0 at any K (test), so a small K spares the slow classes' long tails
  if (p.d === 1) K = Math.min(K, 8);
  const model = heteroPopulationModel(p, K);
  const from: number[] = [];
  for (let c = 0; c < C; c++) for (let k = 1; k <= K; k++) from.push(p.fractions[c] * fp.classes[c].tail[k]);
  const refined = populationRefined(model, populationFixedPoint(model, { from }));
  const o = refined.observables;
  return {
    meanResponseTime: fp.meanResponseTime,
    meanResponseTimeCoefficient: o.meanResponseTime.coefficient,
    meanQueueLength: fp.meanQueueLength,
    meanQueueLengthCoefficient: o.meanQueueLength.coefficient,
    classes: Array.from({ length: C }, (_, c) => ({
      busyFraction: fp.classes[c].busyFraction,
      busyFractionCoefficient: o[`busy${c + 1}`].coefficient,
    })),
    truncationLevel: K,
    population: refined,
  };
}

/**
 * Why the per-class 1/n term does not answer `model`, or undefined where it does. Its transitions are the d draws'
 * with replacement (the tie-split R is a polynomial in the class sums H, the density-dependent form); without
 * replacement the drift itself has 1/n terms (d distinct servers: SQ(d)'s `refine` adds them, ΣV 3.99 → 2.77 at
 * λ = 0.9, d = 2), not derived here. At d = 1 the two samplings are one.
 */
export function heteroRefinedRefusal(model: Pick<SupermarketModel, 'd' | 'sampling'>): string | undefined {
  return model.d >= 2 && model.sampling === 'without-replacement'
    ? 'the 1/n term with server speeds is derived for sampling with replacement (the per-class ODE as a density-dependent population model); without replacement the drift itself depends on n, and that term is not implemented'
    : undefined;
}

/**
 * The refined mean field of a heterogeneous model (exponential sizes, FIFO or a size-blind sharing server; jsq, sed
 * or random): E[T]_n ≈ E[T]∞ + c₁/n.
 * @throws {InvalidModelError} for d ≥ 2 draws without replacement (`heteroRefinedRefusal`).
 * @example heteroRefined(parseModel({ lambda: 0.6, d: 2, servers: { speeds: [1, 2] } })).meanResponseTimeCoefficient
 */
export function heteroRefined(model: SupermarketModel): HeteroRefined {
  const refusal = heteroRefinedRefusal(model);
  if (refusal !== undefined) throw new InvalidModelError(refusal);
  return heteroRefinedOf(heteroProblem(model));
}
