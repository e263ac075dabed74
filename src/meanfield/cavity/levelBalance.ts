/**
 * Level-crossing balance of the JSQ(d) cavity queue (theory.md §3, §5): in a stationary queue whose arrival rate at
 * k jobs is λa_k, a_k = (s_k^d − s_{k+1}^d)/(s_k − s_{k+1}), up-crossings k → k+1 equal down-crossings k+1 → k:
 *
 *     λ(s_k^d − s_{k+1}^d) = μ_{k+1}(s_{k+1} − s_{k+2}),   k = 0, 1, …   (s_0 = 1)
 *
 * with μ_k the completion rate while k jobs are present. It is exact for every discipline and service law; only μ
 * depends on them (μ_k ≡ 1/E[S] for exponential sizes gives the SQ(d) closed form s_{k+1} = λE[S]·s_k^d). Given μ the
 * tail follows without simulation noise in the mass direction, so the cavity iteration runs on μ instead of on s.
 *
 * Here s_1 = ρ is held and μ is scaled by a common factor c, the unknown that restores the equation count:
 * c = 1 at the cavity fixed point (there the π-weighted mean of μ_k over busy levels is λ/ρ = 1/E[S]); with μ
 * estimated from a run at another tail, c − 1 measures how far that tail is from the fixed point.
 *
 * Given μ the equations fix s by shooting: s_{k+2} = s_{k+1} − λ(s_k^d − s_{k+1}^d)/(cμ_{k+1}) is non-increasing for
 * every c; too small a c drives it below 0, too large a c leaves it at a positive limit, and the tail is the boundary
 * c*, found by bisection. The map μ → s is well conditioned for low-variability sizes and size-based disciplines with
 * exponential sizes (FIFO erlang:2 at λ = 0.99 converges in about 8 runs), but not for high-variability FIFO
 * (hyperexp:4, weibull:0.5): there a small change in μ at the top levels moves E[T] by a factor 3 and the iteration
 * oscillates; jsqCavity then falls back to the busy-tail iteration.
 */
export interface LevelBalanceResult {
  /** s_0..s_K (s_0 = 1, s_1 = ρ), cut where s_k < 10⁻¹⁵. */
  tail: Float64Array;
  /** c* (1 at the fixed point). */
  scale: number;
}

/**
 * μ_k = completions leaving k jobs / time at k jobs, over adaptive bins of consecutive levels holding at least
 * `minCount` completions each (the last bin's rate continues past the visited levels).
 * @param times time at each level (index 0 idle); @param completions down-crossings k → k−1 at index k.
 * @returns mu[0..top] (mu[0] NaN), top = highest visited level; null if no level ≥ 1 was visited.
 */
export function binnedCompletionRates(times: ArrayLike<number>, completions: ArrayLike<number>, minCount: number): Float64Array | null {
  let top = times.length - 1;
  while (top >= 1 && !(times[top] > 0)) top--;
  if (top < 1) return null;
  const mu = new Float64Array(top + 1);
  mu[0] = NaN;
  const bins: { from: number; to: number; count: number; time: number }[] = [];
  let from = 1,
    count = 0,
    time = 0;
  for (let k = 1; k <= top; k++) {
    count += completions[k] ?? 0;
    time += times[k];
    if (count >= minCount || k === top) {
      bins.push({ from, to: k, count, time });
      from = k + 1;
      count = 0;
      time = 0;
    }
  }
  if (bins.length > 1 && bins[bins.length - 1].count < minCount) {
    const last = bins.pop()!;
    const prev = bins[bins.length - 1];
    prev.to = last.to;
    prev.count += last.count;
    prev.time += last.time;
  }
  for (const b of bins) for (let k = b.from; k <= b.to; k++) mu[k] = b.count / b.time;
  if (!mu.subarray(1).every((m) => m > 0 && Number.isFinite(m))) return null;
  return mu;
}

/**
 * Solves the balance equations for μ (module comment) by shooting on c, bisection on log c over [10⁻⁶, 10⁶].
 * @param mu mu[1..] > 0 (mu[0] unused); past its end the last entry repeats.
 * @returns the tail s_0..s_K (s_1 = ρ) and c*.
 */
export function shootLevelBalance(lambda: number, rho: number, d: number, mu: ArrayLike<number>, maxLevels = 100_000): LevelBalanceResult {
  const last = mu[mu.length - 1];
  /** −1: goes negative (c too small); +1: stalls above 0 (c too large); 0: reaches 0. */
  const shoot = (c: number, out?: number[]) => {
    let a = 1,
      b = rho;
    out?.push(1, rho);
    for (let k = 0; k < maxLevels; k++) {
      const drop = (lambda * (a ** d - b ** d)) / (c * (k + 1 < mu.length ? mu[k + 1] : last));
      const next = b - drop;
      if (next < 0) return -1;
      if (next < 1e-15) return 0;
      out?.push(next);
      if (drop <= 1e-17 * b) return 1;
      a = b;
      b = next;
    }
    return 1;
  };
  let lo = 1e-6,
    hi = 1e6;
  for (let i = 0; i < 200; i++) {
    const mid = Math.sqrt(lo * hi);
    if (mid <= lo || mid >= hi) break;
    if (shoot(mid) < 0) lo = mid;
    else hi = mid;
  }
  const tail: number[] = [];
  shoot(hi, tail);
  return { tail: Float64Array.from(tail), scale: hi };
}
