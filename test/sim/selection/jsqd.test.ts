import { describe, expect, it } from 'vitest';
import { Rng, streamSeed } from '../../../src/stats/rng.ts';
import { identityPermutation, jsqWithoutReplacement, jsqWithReplacement } from '../../../src/sim/selection/jsqd.ts';

const N = 60_000;
function chi2(cells: number[], expected: number[]): number {
  return cells.reduce((s, c, i) => s + (c - expected[i]) ** 2 / expected[i], 0);
}

describe('JSQ(d) selection', () => {
  it('jsqWithReplacement(rng, [0, 0], 2, 2) splits ties evenly between the two servers', () => {
    const rng = new Rng(streamSeed(11, 0));
    const len = new Int32Array([0, 0]);
    const cells = [0, 0];
    for (let i = 0; i < N; i++) cells[jsqWithReplacement(rng, len, 2, 2)]++;
    expect(chi2(cells, [N / 2, N / 2])).toBeLessThan(10.8); // 99.9% of χ²(1)
  });

  it('jsqWithoutReplacement(rng, [0, 0], 2, 2, perm) splits ties evenly between the two servers', () => {
    const rng = new Rng(streamSeed(12, 0));
    const len = new Int32Array([0, 0]);
    const perm = identityPermutation(2);
    const cells = [0, 0];
    for (let i = 0; i < N; i++) cells[jsqWithoutReplacement(rng, len, 2, 2, perm)]++;
    expect(chi2(cells, [N / 2, N / 2])).toBeLessThan(10.8);
  });

  it('jsqWithoutReplacement picks uniformly among sampled minimisers, never the lowest index', () => {
    // Servers 0 and 3 are longer; d = 3 of 5 distinct. P(server j chosen) for the three short servers is equal.
    const rng = new Rng(streamSeed(13, 0));
    const len = new Int32Array([2, 0, 0, 1, 0]);
    const perm = identityPermutation(5);
    const cells = [0, 0, 0, 0, 0];
    for (let i = 0; i < N; i++) cells[jsqWithoutReplacement(rng, len, 5, 3, perm)]++;
    expect(cells[0]).toBe(0);
    expect(cells[3]).toBe(0); // any 3 of 5 include at least one of servers 1, 2, 4
    expect(chi2([cells[1], cells[2], cells[4]], [N / 3, N / 3, N / 3])).toBeLessThan(13.8); // 99.9% of χ²(2)
  });

  it('jsqWithReplacement picks the shortest sampled queue: P(join the only short server) = 1 − (1 − 1/n)^d', () => {
    const rng = new Rng(streamSeed(14, 0));
    const len = new Int32Array([3, 0, 3, 3]);
    let hits = 0;
    for (let i = 0; i < N; i++) if (jsqWithReplacement(rng, len, 4, 2) === 1) hits++;
    const p = 1 - 0.75 ** 2;
    expect(Math.abs(hits / N - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / N));
  });

  it('jsqWithReplacement(rng, len, 5, 2) joins server j with P(min of two draws = j) when all lengths differ', () => {
    const rng = new Rng(streamSeed(15, 0));
    const len = new Int32Array([0, 1, 2, 3, 4]);
    const cells = [0, 0, 0, 0, 0];
    for (let i = 0; i < N; i++) cells[jsqWithReplacement(rng, len, 5, 2)]++;
    const expected = [0, 1, 2, 3, 4].map((j) => (N * ((5 - j) ** 2 - (4 - j) ** 2)) / 25);
    expect(chi2(cells, expected)).toBeLessThan(18.5); // 99.9% of χ²(4)
  });

  it('jsqWithoutReplacement(rng, len, 5, 2, perm) joins server j with P = (n − j − 1)/C(n, 2) when all lengths differ', () => {
    const rng = new Rng(streamSeed(16, 0));
    const len = new Int32Array([0, 1, 2, 3, 4]);
    const perm = identityPermutation(5);
    const cells = [0, 0, 0, 0, 0];
    for (let i = 0; i < N; i++) cells[jsqWithoutReplacement(rng, len, 5, 2, perm)]++;
    expect(cells[4]).toBe(0);
    const expected = [0, 1, 2, 3].map((j) => (N * (4 - j)) / 10);
    expect(chi2(cells.slice(0, 4), expected)).toBeLessThan(16.3); // 99.9% of χ²(3)
  });
});
