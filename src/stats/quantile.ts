/**
 * Empirical quantiles of a sample in a typed array, in O(m) by selection (Hoare's quickselect with a
 * median-of-three pivot) instead of a sort. Definition: R's type 7 / d3.quantile, linear interpolation between
 * order statistics x_(⌊h⌋) and x_(⌊h⌋+1) with h = (m − 1)p (0-based).
 */
import { InvalidModelError } from '../errors.ts';

/** Rearranges a[lo..hi] so that a[k] is its (k − lo)-th smallest, smaller ones left, larger right. */
function select(a: Float32Array | Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // median of three to a[mid]
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(a: Float32Array | Float64Array, i: number, j: number): void {
  const x = a[i];
  a[i] = a[j];
  a[j] = x;
}

/**
 * Type-7 quantiles of values[0..count) for each p (reorders that prefix in place).
 * @param values sample (first `count` entries are used; NaN not allowed). @param ps probabilities in [0, 1].
 * @returns one quantile per p, in the order of `ps`.
 * @throws {InvalidModelError} if count < 1 or a p is outside [0, 1].
 * @example quantiles(Float64Array.of(3, 1, 2, 4), 4, [0.5]) // [2.5]
 */
export function quantiles(values: Float32Array | Float64Array, count: number, ps: readonly number[]): number[] {
  if (!(count >= 1 && count <= values.length)) throw new InvalidModelError(`quantiles need 1 ≤ count ≤ ${values.length}, got ${count}`);
  return ps.map((p) => {
    if (!(p >= 0 && p <= 1)) throw new InvalidModelError(`quantile probability must be in [0, 1], got ${p}`);
    const h = (count - 1) * p;
    const k = Math.floor(h);
    select(values, 0, count - 1, k);
    const lo = values[k];
    if (k + 1 >= count || h === k) return lo;
    let next = Infinity;
    for (let i = k + 1; i < count; i++) if (values[i] < next) next = values[i];
    return lo + (h - k) * (next - lo);
  });
}
