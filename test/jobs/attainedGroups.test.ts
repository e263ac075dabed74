/**
 * LAS's attained-service groups (src/jobs/attainedGroups.ts) against a brute-force LAS server (O(k) per step:
 * serve every job of least attained service at rate 1/m, step to the next completion, merge or arrival): the same
 * departure time for every job of 20 random runs of 300 jobs (sizes a 90/10 mix of short and long exponentials).
 */
import { expect, it } from 'vitest';
import { AttainedGroups } from '../../src/jobs/attainedGroups.ts';
import { JobPool } from '../../src/jobs/jobPool.ts';
import { Rng } from '../../src/stats/rng.ts';

/** Brute-force LAS: returns departure time per job index. */
function brute(arr: number[], size: number[]): number[] {
  const N = arr.length;
  const att = new Array(N).fill(0);
  const dep = new Array(N).fill(NaN);
  const present: number[] = [];
  let t = 0;
  let i = 0;
  while (i < N || present.length > 0) {
    let minA = Infinity;
    for (const j of present) minA = Math.min(minA, att[j]);
    const served = present.filter((j) => att[j] <= minA + 1e-9 * Math.max(1, minA));
    const m = served.length;
    let next = Infinity; // time to next internal event
    for (const j of served) next = Math.min(next, (size[j] - att[j]) * m);
    let nextLevel = Infinity;
    for (const j of present) if (att[j] > minA + 1e-9 * Math.max(1, minA)) nextLevel = Math.min(nextLevel, att[j]);
    if (nextLevel < Infinity) next = Math.min(next, (nextLevel - minA) * m);
    const ta = i < N ? arr[i] : Infinity;
    const dt = Math.min(next, ta - t);
    for (const j of served) att[j] += dt / m;
    t += dt;
    for (let k = present.length - 1; k >= 0; k--) {
      const j = present[k];
      if (att[j] >= size[j] - 1e-9 * Math.max(1, size[j])) {
        dep[j] = t;
        present.splice(k, 1);
      }
    }
    if (i < N && ta <= t) {
      present.push(i);
      i++;
    }
  }
  return dep;
}

it('AttainedGroups = brute-force LAS', () => {
  const rng = new Rng(5n);
  for (let rep = 0; rep < 20; rep++) {
    const N = 300;
    const arr: number[] = [];
    const size: number[] = [];
    let t = 0;
    for (let k = 0; k < N; k++) {
      t += rng.nextExp() / 0.9;
      arr.push(t);
      size.push(rng.nextDouble() < 0.1 ? 5 * rng.nextExp() : rng.nextExp() * 0.5);
    }
    const expected = brute(arr, size);
    const pool = new JobPool(16);
    const clock = new Float64Array(1).fill(Infinity);
    const g = new AttainedGroups(1, pool, clock);
    const dep = new Array(N).fill(NaN);
    let i = 0;
    let jobs = 0;
    while (i < N || jobs > 0) {
      if (i < N && arr[i] < clock[0]) {
        const x = pool.alloc(arr[i], size[i], size[i], i);
        g.add(0, x, arr[i]);
        i++;
        jobs++;
      } else {
        const tt = clock[0];
        const r = g.fire(0, tt);
        if (r >= 0) {
          dep[pool.seq(r)] = tt;
          pool.release(r);
          jobs--;
        }
      }
    }
    for (let k = 0; k < N; k++) expect(dep[k]).toBeCloseTo(expected[k], 6);
  }
});
