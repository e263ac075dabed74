/**
 * M/G/1 under the sharing disciplines: processor sharing (PS) and least attained service (LAS, also foreground–
 * background, FB). Per size x, with the truncated load ρ_x = λ∫₀ˣ F̄(t)dt = λE[min(S, x)] and the truncated second
 * moment m₂(x) = 2∫₀ˣ tF̄(t)dt = E[min(S, x)²] (F̄ = P(S > ·)):
 *   PS:  E[T(x)] = x/(1 − ρ)                                   (insensitive; E[T] = E[S]/(1 − ρ), E[T/S] = 1/(1 − ρ))
 *   LAS: E[T(x)] = λm₂(x)/(2(1 − ρ_x)²) + x/(1 − ρ_x)
 * For exponential sizes LAS's mean equals PS's 1/(1 − ρ) (a check the tests make). LAS's E[T(x)] = O(x) as x → 0,
 * so its slowdown is finite for every law, as PS's is.
 * Source: Kleinrock, Queueing Systems II (1976), §4.4 (PS) and §4.7 (FB); Schrage, Oper. Res. 15(2), 1967 (FB);
 * Harchol-Balter, Performance Modeling and Design of Computer Systems (2013), ch. 22 and 30.
 */
import type { Mg1Means } from './knownSize.ts';
import type { SizeLaw } from './sizeLaw.ts';

/** The sharing disciplines of the M/G/1 room. */
export type SharingDiscipline = 'ps' | 'las';

/** ρ_x = λE[min(S, x)] and m₂(x) = E[min(S, x)²], in closed form from the law's partial moments. */
export function truncatedMoments(law: SizeLaw, x: number): { rho: number; m2: number } {
  const tail = law.ccdf(x);
  const d = law.dist;
  return {
    rho: law.lambda * (d.partialMoment(1, x) + x * tail),
    m2: d.partialMoment(2, x) + x * x * tail,
  };
}

/** E[T(x)] of a sharing discipline for a job of size x ≥ 0 (time units). */
export function sharingResponseTimeAt(law: SizeLaw, discipline: SharingDiscipline, x: number): number {
  switch (discipline) {
    case 'ps':
      return x / (1 - law.lambda * law.mean);
    case 'las': {
      const { rho, m2 } = truncatedMoments(law, x);
      return (law.lambda * m2) / (2 * (1 - rho) ** 2) + x / (1 - rho);
    }
    default: {
      const never: never = discipline;
      throw new Error(`unknown sharing discipline ${String(never)}`);
    }
  }
}

/**
 * E[T] and E[T/S] of PS (closed forms, error 0) or LAS (E[T] = E[T(S)], E[T/S] = E[T(S)/S] by the law's adaptive
 * quadrature, with its error estimate).
 */
export function sharingMeans(law: SizeLaw, discipline: SharingDiscipline, relTolerance: number): Mg1Means {
  if (discipline === 'ps') {
    const stretch = 1 / (1 - law.lambda * law.mean);
    return {
      meanResponseTime: law.mean * stretch,
      responseTimeError: 0,
      meanSlowdown: stretch,
      slowdownError: 0,
      slowdownFinite: true,
      evaluations: 0,
      converged: true,
    };
  }
  const r = law.expect(
    (x, out) => {
      const t = sharingResponseTimeAt(law, 'las', x);
      out[0] = t;
      out[1] = x > 0 ? t / x : 1;
    },
    2,
    { relTolerance },
  );
  return {
    meanResponseTime: r.value[0],
    responseTimeError: r.error[0],
    meanSlowdown: r.value[1],
    slowdownError: r.error[1],
    slowdownFinite: true,
    evaluations: r.evaluations,
    converged: r.converged,
  };
}
