/**
 * LWL(d) equilibrium workload ccdf for phase-type sizes S ~ PH(α, A) as an initial-value ODE (theory.md §4
 * "Numerics" item 3; Hellemans' thesis, "PHD"; Hellemans & Van Houdt, POMACS 2(2), 2018):
 *   F̄' = −λ[(1 − F̄^d) + αAξ],  ξ' = (1 − F̄^d)·1 + Aξ,  F̄(0) = ρ, ξ(0) = 0,
 * where ξ(w) = ∫_0^w (1 − F̄(u)^d) e^{A(w−u)}1 du (differentiate the FPE with Ḡ(x) = α e^{Ax} 1).
 * Integrated with odex (Hairer–Wanner extrapolation) and sampled on the grid by its dense output.
 */
import { integrateOdex } from '../../numerics/odex.ts';
import type { PhaseType } from '../../model/service/index.ts';

export interface PhaseTypeSolution {
  /** F̄ at w_j = jΔ, j = 0..M (length M + 1), clamped to [0, ρ]. */
  ccdf: Float64Array;
  nStep: number;
  nEval: number;
}

/**
 * Integrates the PH form of the LWL(d) equilibrium on [0, MΔ].
 * @param lambda λ. @param rho ρ = λE[S]. @param d choices. @param ph PH(α, A) of S (m phases).
 * @param step Δ (grid for the output). @param cells M. @param tolerance odex relative and absolute tolerance.
 * @throws {SolverError} if odex throws or stops with an outcome other than Converged (e.g. MaxStepsExceeded).
 */
export function phaseTypeSolve(
  lambda: number,
  rho: number,
  d: number,
  ph: PhaseType,
  step: number,
  cells: number,
  tolerance: number,
): PhaseTypeSolution {
  const m = ph.alpha.length;
  const A = ph.A;
  const alphaA = new Float64Array(m); // row vector αA
  for (let j = 0; j < m; j++) for (let i = 0; i < m; i++) alphaA[j] += ph.alpha[i] * A[i][j];
  const f = (_w: number, y: number[]): number[] => {
    const F = y[0] > 0 ? y[0] : 0;
    const h = 1 - F ** d;
    const out = new Array<number>(m + 1);
    let drift = 0;
    for (let j = 0; j < m; j++) drift += alphaA[j] * y[1 + j];
    out[0] = -lambda * (h + drift);
    for (let i = 0; i < m; i++) {
      let s = h;
      const row = A[i];
      for (let j = 0; j < m; j++) s += row[j] * y[1 + j];
      out[1 + i] = s;
    }
    return out;
  };
  const ccdf = new Float64Array(cells + 1);
  ccdf[0] = rho;
  let next = 1;
  const clamp = (v: number) => (v < 0 ? 0 : v > rho ? rho : v);
  const y0 = new Array<number>(m + 1).fill(0);
  y0[0] = rho;
  const result = integrateOdex(
    f,
    y0,
    0,
    cells * step,
    {
      tolerance,
      maxSteps: 1_000_000,
      denseComponents: [0],
      label: `the LWL(d) phase-type ODE (${m} phases)`,
      hint: `loosen the tolerance ${tolerance} or shorten the horizon`,
    },
    (_xOld, x, _y, dense) => {
      while (next <= cells && next * step <= x) {
        ccdf[next] = clamp(dense(0, next * step));
        next++;
      }
    },
  );
  for (; next <= cells; next++) ccdf[next] = clamp(result.y[0]); // the last node, if round-off left it out
  return { ccdf, nStep: result.nStep, nEval: result.nEval };
}
