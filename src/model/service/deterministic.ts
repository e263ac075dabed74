/**
 * Deterministic service times S ≡ m: one atom at m, E[S²] = m², SCV 0, no density.
 * Source: theory.md §1 "Sizes".
 */
import { ServiceLaw, type ServiceSpecOf, type ServiceDistribution, type UniformSource } from './distribution.ts';
import { requireMean, requireProbability } from './support.ts';

/** Point mass at spec.mean; `sample` draws nothing. */
export class DeterministicDistribution extends ServiceLaw<'deterministic'> implements ServiceDistribution {
  readonly atoms: readonly { readonly x: number; readonly p: number }[];

  /** @throws {InvalidModelError} if spec.mean is not a finite number > 0. */
  constructor(spec: ServiceSpecOf<'deterministic'>) {
    const mean = requireMean(spec);
    super(spec, { mean, secondMoment: mean * mean, scv: 0, supportMax: mean });
    this.atoms = Object.freeze([Object.freeze({ x: this.mean, p: 1 })]);
  }

  ccdf(x: number): number {
    return x < this.mean ? 1 : 0;
  }

  cdf(x: number): number {
    return x < this.mean ? 0 : 1;
  }

  /** NaN: the law is a point mass (see `atoms`). */
  density(_x: number): number {
    return NaN;
  }

  /** m for every p ∈ [0, 1]. @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    requireProbability('quantile p', p);
    return this.mean;
  }

  /** m^k if x ≥ m, else 0. */
  partialMoment(k: 0 | 1 | 2, x: number): number {
    return x < this.mean ? 0 : k === 0 ? 1 : k === 1 ? this.mean : this.secondMoment;
  }

  sample(_rng: UniformSource): number {
    return this.mean;
  }
}
