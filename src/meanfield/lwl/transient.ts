/**
 * LWL(d) mean-field transient from an empty system: the workload distribution at given times, by the
 * mass-conserving scheme of theory.md §4 "Transient PIDE" (time step = workload step Δ, first order):
 * cells m_0 (idle) and m_j, j ≥ 1 (workload jΔ), S_j = Σ_{i≥j} m_i; each step cell j sends Δλ(S_j^d − S_{j+1}^d)
 * (the arrivals whose least loaded sample is in cell j) to cells j + k by the mean-preserving lattice size law p_k
 * (kernel.ts), then every cell moves down one (Δ of work served; cell 1 joins the idle cell). Needs λdΔ ≤ 1 so
 * no cell sends more than it holds. The stationary point keeps the load exactly (Σk·p_k·Δ = E[S]). We observe the
 * state after the arrivals of a step and before its service (a server in cell j has work in ((j−1)Δ, jΔ]), so
 * F̄(t, jΔ) ≈ S_{j+1}, and at stationarity the busy fraction S_1 equals ρ exactly.
 * Batches of K > 1 spread over the K least loaded of d (LL(d,K), theory.md §15): cell j sends Δλ(T₁(S_j) − T₁(S_{j+1}))
 * instead, T₁ the batch-sampling map at ρ = 1 (`batchSamplingMap`; T₁(u) = u^d at K = 1, bit for bit). Since
 * T₁′ ≤ d/K, the same λdΔ ≤ 1 keeps every cell's sending within its mass.
 */
import { checkTimeGrid } from '../../model/timeGrid.ts';
import { InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { VERSION, codeId } from '../../version.ts';
import { KernelConvolver, nextPowerOfTwo } from '../../numerics/convolution.ts';
import { clampToRange } from '../../numerics/clamp.ts';
import { ccdfCellAverages, latticeSizeLaw } from './kernel.ts';
import { defaultHorizon, lwlParameters, positiveOption } from './parameters.ts';
import { LWL_SOURCE } from './workload.ts';
import type { ArrivalRouting } from '../support.ts';
import { batchSamplingMap } from '../batch.ts';

export interface LwlTransientOptions {
  /** Output instants, strictly increasing, finite, ≥ 0 (time units); the system is empty at t = 0. */
  times: number[];
  /** Time and workload step Δ (default 0.01·E[S], lowered to 1/(λd) if needed). */
  step?: number;
  /** Largest workload kept (default as the equilibrium solver: 300·E[S], 600·E[S] heavy tails); mass pushed past it stays in the top cell. */
  horizon?: number;
  /** Quantile levels of U to report (default [0.5, 0.9, 0.99]), each in (0, 1). */
  quantileLevels?: number[];
  /** Return the whole ccdf at each time (default true). */
  includeCcdf?: boolean;
  /**
   * A dispatcher memory's arrival routing (support.ts; `memoryLwlTransient` sets it on the model without memory):
   * each step a fraction π₀ of the arrivals follows LL(d), the rest joins idle servers (cell 0). Default: all LL(d).
   */
  routing?: ArrivalRouting;
  /** Sees the fraction of the horizon integrated after every accepted step (progress output; pure: no output here). */
  onProgress?: (fraction: number) => void;
}

export interface LwlTransientResult {
  times: number[];
  /** w_j = jΔ (length M + 1), or [] without includeCcdf. */
  grid: number[];
  /** workloadCcdf[i][j] ≈ P(U(times[i]) > w_j) (each length M + 1), or [] without includeCcdf. */
  workloadCcdf: number[][];
  /** busyFraction[i] = F̄(times[i], 0) = P(U > 0). */
  busyFraction: number[];
  /** meanWorkload[i] = E[U(times[i])] (time units). */
  meanWorkload: number[];
  /** quantiles.values[i][q] = smallest grid w with P(U(times[i]) > w) ≤ 1 − levels[q]. */
  quantiles: { levels: number[]; values: number[][] };
  diagnostics: {
    step: number;
    horizon: number;
    steps: number;
    /** Mass that reached the top cell (a horizon too short shows here). */
    massAtHorizon: number;
    /** max |Σm − 1| over the run (round-off). */
    maxMassError: number;
  };
  provenance: {
    model: SupermarketModel;
    equation: string;
    source: string;
    version: string;
    /** The code identity (version.ts `codeIdentity`). */
    code: string;
    options: Required<Omit<LwlTransientOptions, 'times' | 'routing' | 'onProgress'>>;
  };
}

const TOP_CUT = 1e-13; // cells beyond the last with S_j > TOP_CUT send no arrivals
const SIZE_TAIL_CUT = 1e-17; // the lattice size law is cut where its tail mass is below this

/**
 * The time step Δ (also the workload cell width) and the workload horizon of `lwlTransient` (defaults: Δ =
 * min(0.01·E[S], 1/(λd)), horizon `defaultHorizon`): its work is one step per Δ of time over horizon/Δ cells.
 * @throws {InvalidModelError} as `lwlTransient` for a bad step or horizon.
 */
export function lwlTransientGrid(
  model: SupermarketModel,
  options: Pick<LwlTransientOptions, 'step' | 'horizon'> = {},
): { step: number; horizon: number } {
  const { lambda, d, service } = lwlParameters(model, false, { batches: true });
  const step = positiveOption('step', options.step ?? Math.min(0.01 * service.mean, 1 / (lambda * d)));
  if (lambda * d * step > 1)
    throw new InvalidModelError(`step must satisfy λ·d·step ≤ 1, got ${lambda}·${d}·${step} = ${lambda * d * step}`);
  return { step, horizon: positiveOption('horizon', options.horizon ?? defaultHorizon(service)) };
}

/**
 * The map u ↦ rate (per job arrival) at which jobs join servers whose workload tail fraction is u: u^d for LL(d),
 * T₁(u) of theory.md §15 for batches of K spread over the K least loaded of d (LL(d,K)); null for u^d (the fast path).
 * @throws {InvalidModelError} for whole batches (BSQ has no workload equation) or d < K.
 */
function samplingMap(model: SupermarketModel): ((u: number) => number) | null {
  const K = model.batch ?? 1;
  if (K === 1) return null;
  if (model.batchDispatch === 'whole')
    throw new InvalidModelError('the LWL(d) workload PIDE covers batches spread over the K least loaded (LL(d,K)), not whole batches');
  if (model.d < K) throw new InvalidModelError(`batch sampling needs d ≥ K, got d = ${model.d}, K = ${K}`);
  return batchSamplingMap(1, model.d, K);
}

/**
 * LWL(d) mean-field transient from empty (any discipline: the workload is discipline-free); with batches of K > 1
 * (`batchDispatch` 'spread') the LL(d,K) transient, theory.md §15.
 * @param model `selection` 'lwl', any discipline and service law, ρ < 1 (the transient itself would not need it).
 * @param options `times` (required), `step`, `horizon`, `quantileLevels`, `includeCcdf`.
 * @returns per time: `workloadCcdf` (grid w_j = jΔ, F̄(t, w_j) = S_{j+1}), `busyFraction`, `meanWorkload`, `quantiles`;
 *   between steps the outputs are interpolated linearly in time. Converges to `lwlWorkloadCcdf` as t → ∞ (error O(Δ)).
 * @throws {InvalidModelError} if selection is not 'lwl', times are not finite, ≥ 0 and strictly increasing, the
 *   step breaks λdΔ ≤ 1, or an option is out of range.
 */
export function lwlTransient(model: SupermarketModel, options: LwlTransientOptions): LwlTransientResult {
  const { lambda, d, service } = lwlParameters(model, false, { batches: true });
  const times = checkTimeGrid(options?.times);
  const { step, horizon } = lwlTransientGrid(model, options);
  const levels = options.quantileLevels ?? [0.5, 0.9, 0.99];
  levels.forEach((p, q) => {
    if (!(p > 0 && p < 1)) throw new InvalidModelError(`quantileLevels[${q}] must be in (0, 1), got ${p}`);
  });
  const includeCcdf = options.includeCcdf ?? true;
  const sampling = samplingMap(model);
  if (sampling !== null && options.routing !== undefined)
    throw new InvalidModelError('a dispatcher memory with batches has no workload equation');
  const M = Math.max(2, Math.round(horizon / step));
  if (M > 5e6) throw new InvalidModelError(`horizon/step must be ≤ 5e6 cells, got ${M}`);

  const p = latticeSizeLaw(ccdfCellAverages(service, step, M + 1));
  let kMax = M;
  for (let tail = 0; kMax > 0 && tail + p[kMax] < SIZE_TAIL_CUT; kMax--) tail += p[kMax];
  const m = new Float64Array(M + 1);
  m[0] = 1;
  const S = new Float64Array(M + 2);
  const a = new Float64Array(M + 1);
  const placed = new Float64Array(M + 1);
  let conv: KernelConvolver | null = null;
  let top = 0; // last cell that sends arrivals
  let massAtHorizon = 0;
  let maxMassError = 0;

  const summarise = () => {
    // Suffix sums over the whole array (cells past `top` hold only round-off-sized mass).
    S[M + 1] = 0;
    for (let j = M; j >= 0; j--) S[j] = S[j + 1] + m[j];
    maxMassError = Math.max(maxMassError, Math.abs(S[0] - 1));
    let mean = 0;
    for (let j = 1; j <= M; j++) mean += S[j];
    const ccdf = new Float64Array(M + 1);
    for (let j = 0; j <= M; j++) ccdf[j] = S[j + 1];
    clampToRange(ccdf); // a ccdf lies in [0, 1]: suffix sums of round-off
    const quant = levels.map((level) => {
      let j = 0;
      while (j < M && ccdf[j] > 1 - level) j++;
      return j * step;
    });
    return { ccdf, busy: ccdf[0], mean: mean * step, quant };
  };

  const routing = options.routing;
  const advance = () => {
    // Serve Δ of work: every cell moves down one; cell 1 becomes idle. Then the arrivals of the step.
    const emptied = m[1];
    m[0] += m[1];
    m.copyWithin(1, 2);
    m[M] = 0;
    if (top > 0) top--;
    S[M + 1] = 0;
    for (let j = M; j >= 0; j--) S[j] = S[j + 1] + m[j];
    while (top < M && S[top + 1] > TOP_CUT) top++;
    let rate = lambda * step;
    let toIdle = 0;
    if (routing !== undefined) {
      // memory (theory.md §12): π₀ from the busy fraction and the servers emptied this step per arrival
      const pi0 = routing.pi0(S[1], emptied / rate);
      toIdle = rate * (1 - pi0);
      rate *= pi0;
    }
    let sent = 0;
    let above = sampling === null ? 0 : sampling(S[0]); // T₁(S_j), carried to the next cell
    for (let j = 0; j <= top; j++) {
      let v: number;
      if (sampling === null) v = rate * (S[j] ** d - S[j + 1] ** d);
      else {
        const next = sampling(S[j + 1]);
        v = rate * (above - next);
        above = next;
      }
      if (j === 0 && toIdle !== 0) v = Math.min(m[0], v + toIdle); // an idle cell cannot send more than it holds
      a[j] = v;
      m[j] -= v;
      sent += v;
    }
    const length = Math.min(M + 1, top + kMax + 1);
    if (conv === null || conv.length < length) conv = new KernelConvolver(p, Math.min(M + 1, nextPowerOfTwo(length)));
    conv.convolve(a.subarray(0, top + 1), placed);
    let kept = 0;
    for (let j = 0; j < length; j++) {
      const v = placed[j] > 0 ? placed[j] : 0;
      m[j] += v;
      kept += v;
    }
    const over = sent - kept;
    if (over > 0) {
      m[M] += over;
      massAtHorizon += over;
    }
    for (let j = 0; j <= M; j++) if (m[j] < 0) m[j] = 0;
  };

  const busyFraction: number[] = [],
    meanWorkload: number[] = [],
    quantileValues: number[][] = [],
    ccdfs: number[][] = [];
  let n = 0; // steps done
  const onProgress = options.onProgress;
  const totalSteps = Math.max(1, times[times.length - 1] / step);
  let current = summarise();
  for (const t of times) {
    const target = t / step;
    let moved = false;
    while (n + 1 <= target + 1e-9) {
      advance();
      n++;
      moved = true;
      if (onProgress !== undefined && (n & 255) === 0) onProgress(n / totalSteps);
    }
    if (moved) current = summarise();
    const frac = target - n;
    let out = current;
    if (frac > 1e-9) {
      const saved = m.slice(),
        savedTop = top;
      advance();
      const after = summarise();
      m.set(saved);
      top = savedTop;
      const mix = (x: number, y: number) => (1 - frac) * x + frac * y;
      out = {
        ccdf: current.ccdf.map((v, j) => mix(v, after.ccdf[j])),
        busy: mix(current.busy, after.busy),
        mean: mix(current.mean, after.mean),
        quant: current.quant.map((v, q) => mix(v, after.quant[q])),
      };
    }
    busyFraction.push(out.busy);
    meanWorkload.push(out.mean);
    quantileValues.push(out.quant);
    if (includeCcdf) ccdfs.push(Array.from(out.ccdf));
  }
  onProgress?.(1);
  return {
    times: [...times],
    grid: includeCcdf ? Array.from({ length: M + 1 }, (_, j) => j * step) : [],
    workloadCcdf: ccdfs,
    busyFraction,
    meanWorkload,
    quantiles: { levels: [...levels], values: quantileValues },
    diagnostics: { step, horizon: M * step, steps: n, massAtHorizon, maxMassError },
    provenance: {
      model,
      equation:
        sampling === null
          ? 'cells m_j: send λ·step·(S_j^d − S_{j+1}^d) from cell j to j + k w.p. p_k, then shift down one cell'
          : `cells m_j: send λ·step·(T₁(S_j) − T₁(S_{j+1})) from cell j to j + k w.p. p_k (T₁ the batch-sampling map, K = ${model.batch}), then shift down one cell`,
      source:
        sampling === null
          ? `${LWL_SOURCE}; scheme: theory.md §4 "Transient PIDE"`
          : `theory.md §15 (LL(d,K): Ying, Srikant & Kang, INFOCOM 2015; Hellemans, PhD thesis 2021, §8); scheme: theory.md §4 "Transient PIDE"`,
      version: VERSION,
      code: codeId(),
      options: { step, horizon: M * step, quantileLevels: [...levels], includeCcdf },
    },
  };
}
