import { describe, expect, it } from 'vitest';
import { Rng, cellSeed, streamSeed } from '../../src/stats/rng.ts';

describe('Rng', () => {
  it('new Rng(seed) gives the same sequence for the same seed and a different one otherwise', () => {
    const a = new Rng(streamSeed(1, 0));
    const b = new Rng(streamSeed(1, 0));
    const c = new Rng(streamSeed(1, 1));
    const xa = Array.from({ length: 100 }, () => a.nextInt32());
    const xb = Array.from({ length: 100 }, () => b.nextInt32());
    const xc = Array.from({ length: 100 }, () => c.nextInt32());
    expect(xa).toEqual(xb);
    expect(xa).not.toEqual(xc);
  });

  it('rng.topUp() at any read position leaves the stream output for output as it was (the race loop reads in place)', () => {
    const plain = new Rng(streamSeed(3, 0));
    const expected = Array.from({ length: 3000 }, () => plain.nextInt32());
    const topped = new Rng(streamSeed(3, 0));
    const got: number[] = [];
    // read 0..255 outputs between top-ups, crossing the buffer's end at every offset
    for (let k = 0; got.length < 3000; k = (k * 37 + 11) % 256) {
      topped.topUp();
      expect(topped.next).toBe(0);
      for (let i = 0; i < k && got.length < 3000; i++) got.push(topped.nextInt32());
    }
    expect(got).toEqual(expected);
  });

  it('streamSeed(master, r) differs across masters and replications', () => {
    const seeds = new Set<bigint>();
    for (let m = 0; m < 20; m++) for (let r = 0; r < 20; r++) seeds.add(streamSeed(m, r));
    expect(seeds.size).toBe(400);
  });

  it('rng.nextDouble() lies in [0, 1) with mean ½ and variance 1/12', () => {
    const rng = new Rng(streamSeed(3, 0));
    const N = 200_000;
    let s = 0;
    let s2 = 0;
    let outside = 0;
    for (let i = 0; i < N; i++) {
      const u = rng.nextDouble();
      if (!(u >= 0 && u < 1)) outside++;
      s += u;
      s2 += u * u;
    }
    expect(outside).toBe(0);
    expect(Math.abs(s / N - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / N));
    expect(Math.abs(s2 / N - s ** 2 / N ** 2 - 1 / 12)).toBeLessThan(0.002);
  });

  it('rng.below(n) is uniform on 0..n−1 (chi-square, 10 cells)', () => {
    const rng = new Rng(streamSeed(4, 0));
    const N = 100_000;
    const cells = new Array(10).fill(0);
    for (let i = 0; i < N; i++) cells[rng.below(10)]++;
    const chi2 = cells.reduce((s, c) => s + (c - N / 10) ** 2 / (N / 10), 0);
    expect(chi2).toBeLessThan(27.9); // 99.9% quantile of χ²(9)
    expect(new Rng(1n).below(1)).toBe(0);
  });

  it('rng.nextExp() (ziggurat) matches Exp(1): mean, second moment, P(X > 3), P(X > 8), P(X < 0.01)', () => {
    const rng = new Rng(streamSeed(5, 0));
    const N = 1_000_000;
    let s = 0;
    let s2 = 0;
    let over3 = 0;
    let over8 = 0;
    let under = 0;
    for (let i = 0; i < N; i++) {
      const x = rng.nextExp();
      s += x;
      s2 += x * x;
      if (x > 3) over3++;
      if (x > 8) over8++;
      if (x < 0.01) under++;
    }
    const within = (p: number, count: number) => Math.abs(count / N - p) < 5 * Math.sqrt((p * (1 - p)) / N);
    expect(Math.abs(s / N - 1)).toBeLessThan(5 / Math.sqrt(N));
    expect(Math.abs(s2 / N - 2)).toBeLessThan(5 * Math.sqrt(20 / N));
    expect(within(Math.exp(-3), over3)).toBe(true);
    expect(within(Math.exp(-8), over8)).toBe(true);
    expect(within(1 - Math.exp(-0.01), under)).toBe(true);
  });
});

describe('cellSeed', () => {
  it('cellSeed(master, key) differs for every master 0..999 of one key (masters 1..9 once all gave one seed)', () => {
    for (const key of ['d2-lambda0.9-n100', 'lwl-fifo-exp-d2-lambda0.9-n20']) {
      const seeds = new Set(Array.from({ length: 1000 }, (_, m) => cellSeed(m, key)));
      expect(seeds.size).toBe(1000);
    }
  });

  it('cellSeed(master, key) differs between the cells of one master, is deterministic and a safe integer', () => {
    const keys = ['d2-lambda0.7-n10', 'd2-lambda0.7-n20', 'd3-lambda0.7-n10', 'd2-lambda0.9-n10'];
    expect(new Set(keys.map((k) => cellSeed(1, k))).size).toBe(keys.length);
    expect(cellSeed(7, keys[0])).toBe(cellSeed(7, keys[0]));
    for (const m of [0, 1, 2 ** 32, Number.MAX_SAFE_INTEGER]) expect(Number.isSafeInteger(cellSeed(m, keys[0]))).toBe(true);
  });
});
