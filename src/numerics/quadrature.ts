/**
 * Globally adaptive Gauss–Kronrod (G7/K15) quadrature of a vector-valued integrand on a finite interval split at
 * given breakpoints, with QUADPACK's error estimate per component.
 * Source: Piessens, de Doncker-Kapenga, Überhuber, Kahaner, QUADPACK (Springer 1983), routines QK15 and QAG
 * (nodes, weights, and the estimate resasc·min(1, (200|K − G|/resasc)^{3/2})); no ε-extrapolation (QAGS), so
 * interior singularities must be placed at breakpoints or removed by a change of variables (see sizeLaw.ts).
 */

/** Integrand: writes the m component values at x into `out` (length m); must not keep `out`. */
export type VectorIntegrand = (x: number, out: Float64Array) => void;

export interface QuadratureOptions {
  /** Stop when every component i has error_i ≤ max(absTolerance, relTolerance·|value_i|) (default 1e-11). */
  relTolerance?: number;
  /** Per-component relative tolerances overriding `relTolerance` (e.g. loose ones for error-propagation components). */
  componentRelTolerances?: readonly number[];
  /** Absolute tolerance per component (default 1e-300). */
  absTolerance?: number;
  /** Largest number of subintervals kept (default 4000); the answer is returned with its error estimate then. */
  maxIntervals?: number;
}

export interface QuadratureResult {
  /** ∫ f_i over the whole range, index i = component i (length m). */
  value: Float64Array;
  /** Error estimate per component (absolute; length m). */
  error: Float64Array;
  /** Number of integrand calls. */
  evaluations: number;
  /** True if every component met its tolerance. */
  converged: boolean;
}

const XGK = [
  0.991455371120812639206854697526329, 0.949107912342758524526189684047851, 0.864864423359769072789712788640926,
  0.741531185599394439863864773280788, 0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
  0.207784955007898467600689403773245, 0,
];
const WGK = [
  0.02293532201052922496373200805897, 0.063092092629978553290700663189204, 0.104790010322250183839876322541518,
  0.140653259715525918745189590510238, 0.16900472663926790282658342659855, 0.190350578064785409913256402421014,
  0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
];
const WG = [
  0.129484966168869693270611432679082, 0.27970539148927666790146777142378, 0.381830050505118944950369775488975,
  0.417959183673469387755102040816327,
];
const EPS = 2.220446049250313e-16;

interface Piece {
  a: number;
  b: number;
  value: Float64Array;
  error: Float64Array;
}

/** One K15 rule on [a, b]: fills value and error (QUADPACK QK15) for m components; `fv` is scratch (15·m). */
function kronrod15(f: VectorIntegrand, a: number, b: number, m: number, fv: Float64Array, tmp: Float64Array): Piece {
  const c = 0.5 * (a + b);
  const h = 0.5 * (b - a);
  const value = new Float64Array(m);
  const error = new Float64Array(m);
  const xs = [c];
  for (let j = 0; j < 7; j++) xs.push(c - h * XGK[j], c + h * XGK[j]);
  for (let p = 0; p < 15; p++) {
    f(xs[p], tmp);
    for (let i = 0; i < m; i++) fv[p * m + i] = tmp[i];
  }
  for (let i = 0; i < m; i++) {
    const fc = fv[i];
    let resg = fc * WG[3];
    let resk = fc * WGK[7];
    let resabs = Math.abs(resk);
    for (let j = 0; j < 7; j++) {
      const f1 = fv[(1 + 2 * j) * m + i];
      const f2 = fv[(2 + 2 * j) * m + i];
      resk += WGK[j] * (f1 + f2);
      resabs += WGK[j] * (Math.abs(f1) + Math.abs(f2));
      if (j % 2 === 1) resg += WG[(j - 1) / 2] * (f1 + f2);
    }
    const reskh = 0.5 * resk;
    let resasc = WGK[7] * Math.abs(fc - reskh);
    for (let j = 0; j < 7; j++) {
      resasc += WGK[j] * (Math.abs(fv[(1 + 2 * j) * m + i] - reskh) + Math.abs(fv[(2 + 2 * j) * m + i] - reskh));
    }
    const absH = Math.abs(h);
    resabs *= absH;
    resasc *= absH;
    let err = Math.abs((resk - resg) * h);
    if (resasc !== 0 && err !== 0) err = resasc * Math.min(1, ((200 * err) / resasc) ** 1.5);
    if (resabs > Number.MIN_VALUE / (50 * EPS)) err = Math.max(50 * EPS * resabs, err);
    value[i] = resk * h;
    error[i] = Number.isFinite(err) ? err : Infinity;
  }
  return { a, b, value, error };
}

/**
 * ∫ f over [points[0], points[last]], first split at every point (sorted, increasing; duplicates ignored), then
 * bisecting the subinterval with the largest error relative to its component's tolerance until all components meet
 * the tolerance or `maxIntervals` is reached.
 * @param f vector integrand with `m` components; evaluated only at interior Kronrod nodes (never at the points).
 * @param points breakpoints, length ≥ 2, finite and non-decreasing.
 * @returns values, error estimates, evaluation count and whether the tolerance was met (no throw: callers decide).
 */
export function integrateVector(
  f: VectorIntegrand,
  m: number,
  points: readonly number[],
  options: QuadratureOptions = {},
): QuadratureResult {
  const relTol = options.relTolerance ?? 1e-11;
  const absTol = options.absTolerance ?? 1e-300;
  const maxIntervals = options.maxIntervals ?? 4000;
  const fv = new Float64Array(15 * m);
  const tmp = new Float64Array(m);
  const pieces: Piece[] = [];
  for (let k = 0; k + 1 < points.length; k++) {
    if (points[k + 1] > points[k]) pieces.push(kronrod15(f, points[k], points[k + 1], m, fv, tmp));
  }
  let evaluations = 15 * pieces.length;
  const total = new Float64Array(m);
  const totalErr = new Float64Array(m);
  const sum = () => {
    total.fill(0);
    totalErr.fill(0);
    for (const p of pieces) {
      for (let i = 0; i < m; i++) {
        total[i] += p.value[i];
        totalErr[i] += p.error[i];
      }
    }
  };
  sum();
  const relTols = Array.from({ length: m }, (_, i) => options.componentRelTolerances?.[i] ?? relTol);
  const tolerance = (i: number) => Math.max(absTol, relTols[i] * Math.abs(total[i]));
  const done = () => {
    for (let i = 0; i < m; i++) if (!(totalErr[i] <= tolerance(i))) return false;
    return true;
  };
  let converged = done();
  while (!converged && pieces.length < maxIntervals) {
    let worst = -1;
    let worstScore = -1;
    for (let k = 0; k < pieces.length; k++) {
      const p = pieces[k];
      let score = 0;
      for (let i = 0; i < m; i++) score = Math.max(score, p.error[i] / tolerance(i));
      if (score > worstScore && p.b - p.a > 4 * EPS * Math.max(Math.abs(p.a), Math.abs(p.b), Number.MIN_VALUE)) {
        worstScore = score;
        worst = k;
      }
    }
    if (worst < 0) break;
    const p = pieces[worst];
    const mid = 0.5 * (p.a + p.b);
    const left = kronrod15(f, p.a, mid, m, fv, tmp);
    const right = kronrod15(f, mid, p.b, m, fv, tmp);
    evaluations += 30;
    pieces[worst] = left;
    pieces.push(right);
    for (let i = 0; i < m; i++) {
      total[i] += left.value[i] + right.value[i] - p.value[i];
      totalErr[i] += left.error[i] + right.error[i] - p.error[i];
    }
    if (pieces.length % 64 === 0) sum();
    converged = done();
  }
  sum();
  return { value: total, error: totalErr, evaluations, converged: done() };
}

/** Scalar convenience form of `integrateVector` on [a, b] (breakpoints optional, inside (a, b)). */
export function integrate(
  f: (x: number) => number,
  a: number,
  b: number,
  options: QuadratureOptions & { breakpoints?: readonly number[] } = {},
): { value: number; error: number; evaluations: number; converged: boolean } {
  const inner = (options.breakpoints ?? []).filter((x) => x > a && x < b);
  const points = [a, ...inner.slice().sort((u, v) => u - v), b];
  const r = integrateVector(
    (x, out) => {
      out[0] = f(x);
    },
    1,
    points,
    options,
  );
  return { value: r.value[0], error: r.error[0], evaluations: r.evaluations, converged: r.converged };
}
