/**
 * LWL(d) over heterogeneous servers with exponential sizes (theory.md §13): the fixed point of the drain-time law per
 * class. U_c is the time a class-c server needs to empty (its work divided by its speed); an arrival joins the sampled
 * server of least U and adds Exp(μ_c) to it, μ_c = speed_c/E[S]. With G(w) = Σ_c p_c P(U_c > w) the probability that
 * one sample has U > w, a class-c server at U = u > 0 receives jobs at rate a_c(u) = λ(p_c/f_c)·d·G(u)^{d−1} and an
 * idle one at A_c = λ(p_c/f_c)(1 − G(0)^d)/(1 − G(0)) (idle samples tie, split uniformly). Level crossing at w > 0
 * (drift −1, jumps Exp(μ_c)) gives the density f_c′ = (a_c − μ_c) f_c with f_c(0) = π₀_c A_c, so
 *   f_c(w) = f_c(0)·exp(∫₀ʷ (a_c − μ_c)),   P(U_c > 0) = b_c/(1 + b_c),   b_c = A_c ∫₀^∞ exp(∫₀ʷ (a_c − μ_c)) dw,
 * iterated on G (Picard) to a fixed point. E[T] = (1/λ) Σ_c f_c [π₀_c A_c/μ_c + ∫ f_c(u) a_c(u)(u + 1/μ_c) du]. One class
 * of speed 1 is LL(d) of theory.md §4 (the closed form checks it). Trapezoid sums on a grid of step h, Richardson
 * between h and h/2 (the difference is the numerical error). An ansatz of asymptotic independence, as §4's LL(d).
 * Source: theory.md §4, §13; Hellemans & Van Houdt 2018 (LL(d) workload equation), with a drain rate per class.
 */
import { ConvergenceError, InvalidModelError } from '../../errors.ts';
import { requireStable, type SupermarketModel } from '../../model/model.ts';
import { classSamplingProbabilities } from '../../model/servers.ts';

/** One class at the LWL fixed point. */
export interface HeteroLwlClass {
  readonly speed: number;
  readonly fraction: number;
  /** P(U_c > 0): fraction of the class's servers busy. */
  readonly busyFraction: number;
  /** Mean response time of the jobs it serves. */
  readonly meanResponseTime: number;
  /** Fraction of all jobs it serves. */
  readonly jobShare: number;
}

export interface HeteroLwlFixedPoint {
  readonly meanResponseTime: number;
  readonly classes: HeteroLwlClass[];
  /** |E[T](h) − E[T](h/2)|: the discretisation error of the answer (Richardson-extrapolated). */
  readonly numericalError: number;
  readonly iterations: number;
  readonly residual: number;
  /**
   * G(w) = Σ_c p_c P(U_c > w), the probability that one sampled server needs more than w time units to drain, on the
   * uniform grid 0, step, 2·step, … of the finer solve (discipline-free: the drain-time law is the workload's). The
   * LWL cavity with speeds (hetero/cavity.ts) thins its arrivals by it.
   */
  readonly drainTimeCcdf: { readonly step: number; readonly ccdf: Float64Array };
}

interface Problem {
  readonly lambda: number;
  readonly d: number;
  readonly fractions: readonly number[];
  readonly sampling: readonly number[];
  readonly rates: readonly number[];
}

interface GridAnswer {
  readonly meanResponseTime: number;
  readonly busy: number[];
  readonly classT: number[];
  readonly share: number[];
  readonly iterations: number;
  readonly residual: number;
  readonly G: Float64Array;
}

/** The fixed point on the grid 0, h, …, N·h. */
function solveOnGrid(p: Problem, h: number, N: number): GridAnswer {
  const C = p.fractions.length;
  const { lambda, d } = p;
  const G = new Float64Array(N + 1);
  const Gnew = new Float64Array(N + 1);
  const expo = new Float64Array(N + 1);
  const tailC = Array.from({ length: C }, () => new Float64Array(N + 1));
  const dens = Array.from({ length: C }, () => new Float64Array(N + 1));
  const busy = new Array<number>(C).fill(0);
  const idleRate = new Array<number>(C).fill(0);
  let residual = Infinity;
  let iterations = 0;
  const share = (c: number) => (lambda * p.sampling[c]) / p.fractions[c];
  const a = (c: number, g: number) => share(c) * d * Math.pow(g, d - 1);
  for (; iterations < 5000 && residual > 1e-13; iterations++) {
    const G0 = G[0];
    Gnew.fill(0);
    for (let c = 0; c < C; c++) {
      const mu = p.rates[c];
      // exponent E(w) = ∫₀ʷ (a_c − μ_c), trapezoid
      expo[0] = 0;
      let prev = a(c, G[0]) - mu;
      for (let i = 1; i <= N; i++) {
        const cur = a(c, G[i]) - mu;
        expo[i] = expo[i - 1] + 0.5 * h * (prev + cur);
        prev = cur;
      }
      let I = 0;
      for (let i = 0; i <= N; i++) I += (i === 0 || i === N ? 0.5 : 1) * Math.exp(expo[i]);
      I *= h;
      const A = G0 < 1 ? (d === 1 ? share(c) : (share(c) * (1 - Math.pow(G0, d))) / (1 - G0)) : share(c) * d;
      const b = A * I;
      const busyC = b / (1 + b);
      const f0 = (1 - busyC) * A;
      // tail P(U_c > w) = ∫_w^∞ f_c, trapezoid from the top
      const tail = tailC[c];
      const den = dens[c];
      for (let i = 0; i <= N; i++) den[i] = f0 * Math.exp(expo[i]);
      tail[N] = 0;
      for (let i = N - 1; i >= 0; i--) tail[i] = tail[i + 1] + 0.5 * h * (den[i] + den[i + 1]);
      busy[c] = busyC;
      idleRate[c] = A;
      for (let i = 0; i <= N; i++) Gnew[i] += p.sampling[c] * tail[i];
    }
    residual = 0;
    for (let i = 0; i <= N; i++) {
      residual = Math.max(residual, Math.abs(Gnew[i] - G[i]));
      G[i] = Gnew[i];
    }
  }
  if (!(residual <= 1e-11))
    throw new ConvergenceError('the LWL drain-time fixed point with server speeds did not converge', residual, iterations);
  // response times from the converged laws
  const classT: number[] = [];
  const rates: number[] = [];
  let total = 0;
  for (let c = 0; c < C; c++) {
    const mu = p.rates[c];
    const den = dens[c];
    let jobs = (1 - busy[c]) * idleRate[c];
    let time = jobs / mu;
    for (let i = 0; i <= N; i++) {
      const wgt = (i === 0 || i === N ? 0.5 : 1) * h * den[i] * a(c, G[i]);
      jobs += wgt;
      time += wgt * (i * h + 1 / mu);
    }
    classT.push(time / jobs);
    rates.push(jobs);
    total += p.fractions[c] * time;
  }
  return {
    meanResponseTime: total / lambda,
    busy: [...busy],
    classT,
    share: rates.map((r, c) => (p.fractions[c] * r) / lambda),
    iterations,
    residual,
    G,
  };
}

/**
 * The LWL(d) fixed point of a heterogeneous model with exponential sizes and FIFO (module comment).
 * @param options `step` h of the grid (default 0.004·min E[S]/speed), `horizon` (default: 60/min_c(μ_c − load on it)).
 * @throws {UnstableModelError} for an overloaded class. @throws {ConvergenceError}.
 */
export function heteroLwlFixedPoint(model: SupermarketModel, options: { step?: number; horizon?: number } = {}): HeteroLwlFixedPoint {
  requireStable(model);
  const servers = model.servers;
  if (servers === undefined || model.selection !== 'lwl')
    throw new InvalidModelError('heteroLwlFixedPoint needs LWL(d) with server classes');
  const mean = model.service.mean;
  const p: Problem = {
    lambda: model.lambda,
    d: model.d,
    fractions: servers.fractions,
    sampling: classSamplingProbabilities(servers),
    rates: servers.speeds.map((s) => s / mean),
  };
  // the slowest decay of a class's drain-time tail: μ_c − λ(p_c/f_c)·(d = 1 ? 1 : 0) (G → 0 for d ≥ 2)
  const decay = Math.min(...p.rates.map((mu, c) => mu - (p.d === 1 ? (p.lambda * p.sampling[c]) / p.fractions[c] : 0)));
  const horizon = options.horizon ?? 40 / decay;
  const h = options.step ?? Math.min(0.004 / Math.max(...p.rates), horizon / 2000);
  const N = Math.ceil(horizon / h);
  const coarse = solveOnGrid(p, h, N);
  const fine = solveOnGrid(p, h / 2, 2 * N);
  const rich = (x: number, y: number) => (4 * y - x) / 3; // trapezoid: error O(h²)
  return {
    meanResponseTime: rich(coarse.meanResponseTime, fine.meanResponseTime),
    classes: servers.speeds.map((speed, c) => ({
      speed,
      fraction: servers.fractions[c],
      busyFraction: rich(coarse.busy[c], fine.busy[c]),
      meanResponseTime: rich(coarse.classT[c], fine.classT[c]),
      jobShare: rich(coarse.share[c], fine.share[c]),
    })),
    numericalError: Math.abs(fine.meanResponseTime - coarse.meanResponseTime) / 3,
    iterations: fine.iterations,
    residual: fine.residual,
    drainTimeCcdf: { step: h / 2, ccdf: fine.G },
  };
}
