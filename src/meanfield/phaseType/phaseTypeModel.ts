/**
 * Which models the phase-type JSQ(d) mean field accepts, and the PH(α, A) it integrates: the exact form for
 * exponential, Erlang and hyperexponential sizes; otherwise the two-moment fit of theory.md §3 (Tijms 2003), which
 * matches only E[S] and the SCV — for d ≥ 2 the whole law matters, so such results are labelled 'two-moment PH fit'.
 * Source: theory.md §3.
 */
import { memoryNotHere, modelHasMemory } from '../../model/memory.ts';
import { requirePoissonLimit } from '../../model/arrivals.ts';
import { requireBaseModel } from '../support.ts';
import { InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { phaseTypeFit, serviceDistribution } from '../../model/service/index.ts';

export type PhaseTypeFitLabel = 'exact' | 'two-moment PH fit';

/** The numbers the phase-type JSQ(d) drift needs (model time units). */
export interface PhaseTypeParameters {
  /** λ, arrivals per server per model time unit. */
  readonly lambda: number;
  readonly d: number;
  /** Load ρ = λ·E[S] in (0, 1). */
  readonly rho: number;
  /** Number of phases m. */
  readonly m: number;
  /** Initial phase probabilities α (length m). */
  readonly alpha: Float64Array;
  /** Sub-generator, row-major m×m: A[i·m + j] = rate from phase i to phase j (diagonal negative). */
  readonly A: Float64Array;
  /** Exit rates μ = −A·1 (length m). */
  readonly mu: Float64Array;
  /** The PH as plain arrays (for results). */
  readonly phaseType: { alpha: number[]; A: number[][] };
  readonly fit: PhaseTypeFitLabel;
}

/**
 * The phase-type JSQ(d) FIFO mean field's own check of a parsed model (trusted: λ, d, ρ < 1 validated once), and
 * its PH(α, A).
 * @param model `selection` 'jsq' (or 'random' with d = 1), `discipline` 'fifo'; any service law with an exact PH form
 *   (exponential, erlang, hyperexponential) or a finite SCV > 0 (two-moment fit). Sampling with or without
 *   replacement: both have this limit (theory.md §1).
 * @throws {InvalidModelError} "no mean-field solver for ..." on another selection or discipline, or a service law
 *   with SCV 0 (deterministic) or non-finite SCV (no PH fit); on a PH whose α does not sum to 1.
 */
export function phaseTypeParameters(model: SupermarketModel): PhaseTypeParameters {
  if (modelHasMemory(model)) throw memoryNotHere(model);
  requirePoissonLimit(model);
  requireBaseModel(model, 'the phase-type SQ(d) mean field');
  const random = model.selection === 'random';
  if (model.selection !== 'jsq' && !(random && model.d === 1)) {
    throw new InvalidModelError(
      `no phase-type mean-field solver for selection ${JSON.stringify(model.selection)}${random ? ` with d = ${model.d}` : ''}; supported: "jsq" (or "random" with d = 1)`,
    );
  }
  if (model.discipline !== 'fifo') {
    throw new InvalidModelError(
      `no phase-type mean-field solver for discipline ${JSON.stringify(model.discipline)}; supported: "fifo" (use jsqCavity for other disciplines)`,
    );
  }
  const dist = serviceDistribution(model.service);
  const rho = model.lambda * dist.mean;
  let ph = dist.phaseType;
  let fit: PhaseTypeFitLabel = 'exact';
  if (ph === undefined) {
    if (!(dist.scv > 0 && Number.isFinite(dist.scv))) {
      throw new InvalidModelError(
        `no phase-type fit for service ${JSON.stringify(model.service.kind)} with SCV ${dist.scv}: the two-moment fit needs a finite SCV > 0`,
      );
    }
    ph = phaseTypeFit(dist.mean, dist.scv);
    fit = 'two-moment PH fit';
  }
  const m = ph.alpha.length;
  const alpha = Float64Array.from(ph.alpha);
  const total = alpha.reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) > 1e-12) throw new InvalidModelError(`phase-type alpha must sum to 1, got ${total}`);
  const A = new Float64Array(m * m);
  const mu = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let row = 0;
    for (let j = 0; j < m; j++) {
      A[i * m + j] = ph.A[i][j];
      row += ph.A[i][j];
    }
    mu[i] = Math.max(0, -row);
  }
  return {
    lambda: model.lambda,
    d: model.d,
    rho,
    m,
    alpha,
    A,
    mu,
    phaseType: { alpha: [...ph.alpha], A: ph.A.map((r) => [...r]) },
    fit,
  };
}
