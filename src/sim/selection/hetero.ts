/**
 * Selection over heterogeneous servers (theory.md §13): d servers sampled uniformly over the servers or
 * speed-weighted (a class by its probability, then a uniform server of it), and the one joined: the fewest jobs
 * (JSQ(d)), the least expected delay (jobs + 1)/speed (SED(d)), the least time to drain its work U_j/speed (LWL(d)),
 * or the first sampled (random, d = 1). Ties: the first minimiser in draw order, a uniform one among the sampled
 * minimisers (the draws are exchangeable), as in jsqd.ts.
 */
import type { Rng } from '../../stats/rng.ts';
import { SEL_JSQ, SEL_LWL, SEL_RANDOM, SEL_SED } from '../core.ts';
import type { ServerLayout } from '../serverClasses.ts';
import { fisherYatesStep } from './jsqd.ts';

/** The k-th sampled server (k = 0..d−1) under the layout's sampling. */
export function sampleServer(layout: ServerLayout, rng: Rng, n: number, k: number, without: boolean, perm: Int32Array): number {
  const cumulative = layout.cumulative;
  if (cumulative.length === 0) return without ? fisherYatesStep(rng, n, k, perm) : rng.below(n);
  const u = rng.nextDouble();
  let c = 0;
  while (u >= cumulative[c] && c < cumulative.length - 1) c++;
  return layout.start[c] + rng.below(layout.count[c]);
}

/**
 * The server an arrival joins (SEL_* code: random, JSQ, SED, LWL).
 * @param len queue lengths. @param finish F_j: the time server j would empty (its drain time, work/speed, is F_j − t).
 */
export function heteroSelect(
  layout: ServerLayout,
  selection: number,
  rng: Rng,
  len: Int32Array,
  finish: Float64Array,
  t: number,
  n: number,
  d: number,
  without: boolean,
  perm: Int32Array,
): number {
  const inv = layout.invSpeed;
  let best = -1;
  let bestV = 0;
  const m = selection === SEL_RANDOM ? 1 : d;
  for (let k = 0; k < m; k++) {
    const j = sampleServer(layout, rng, n, k, without, perm);
    let v: number;
    if (selection === SEL_JSQ) v = len[j];
    else if (selection === SEL_SED) v = (len[j] + 1) * inv[j];
    else if (selection === SEL_LWL) v = finish[j] > t ? finish[j] : t;
    else v = 0;
    if (best < 0 || v < bestV) {
      best = j;
      bestV = v;
    }
  }
  return best;
}
