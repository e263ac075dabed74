import { describe, expect, it } from 'vitest';
import { batchEstimate, lag1Autocorrelation } from '../../src/stats/batchMeans.ts';
import {
  addBucketSpan,
  bucketSpan,
  fractionsAtMost,
  groupByHighBits,
  groupedValues,
  locateQuantiles,
  percentileName,
  pooledQuantiles,
  pooledQuantilesAndFractions,
  quantiles,
  radixHistogram,
} from '../../src/stats/quantile.ts';
import { Rng } from '../../src/stats/rng.ts';

/** Type-7 quantile of a sorted copy (the d3 / R definition), the independent reference. */
function sortedQuantile(xs: number[], p: number): number {
  const s = xs.slice().sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const k = Math.floor(h);
  return k + 1 < s.length ? s[k] + (h - k) * (s[k + 1] - s[k]) : s[k];
}

describe('percentileName', () => {
  it('writes 100·p exactly from the shortest decimal of p: distinct levels, distinct names', () => {
    expect([0.5, 0.95, 0.99, 0.05, 0.001].map(percentileName)).toEqual(['p50', 'p95', 'p99', 'p5', 'p0.1']);
    expect(percentileName(0.999999999)).toBe('p99.9999999'); // was p100 (6 significant digits)
    expect(percentileName(1e-7)).toBe('p0.00001');
    expect(percentileName(1.5e-7)).toBe('p0.000015');
    expect(percentileName(0.9999999999999999)).toBe('p99.99999999999999');
    // every level the name shows reads back as that level: 100·p from the name, divided by 100, is p
    const rng = new Rng(3n);
    for (let k = 0; k < 1000; k++) {
      const p = k % 2 === 0 ? rng.nextOpen() : 1 - rng.nextOpen() * 10 ** -(k % 12);
      if (!(p > 0 && p < 1)) continue;
      const percent = percentileName(p).slice(1);
      expect(Number(`${percent}e-2`), `${p} → ${percent}`).toBe(p);
    }
    expect(() => percentileName(1)).toThrow(/level in \(0, 1\)/);
    expect(() => percentileName(0)).toThrow(/level in \(0, 1\)/);
  });
});

describe('quantiles', () => {
  it('quantiles(values, count, ps) equals the sorted type-7 quantile on random data with ties, and ignores entries past count', () => {
    const rng = new Rng(5n);
    for (const m of [1, 2, 3, 10, 1001]) {
      const xs = Array.from({ length: m }, () => Math.floor(rng.nextDouble() * 20) / 4);
      const arr = Float64Array.from([...xs, -1e9, 1e9]);
      const ps = [0, 0.01, 0.5, 0.95, 0.99, 1];
      expect(quantiles(arr, m, ps)).toEqual(ps.map((p) => sortedQuantile(xs, p)));
    }
    expect(quantiles(Float64Array.of(3, 1, 2, 4), 4, [0.5])).toEqual([2.5]);
  });

  it('quantiles(float32 values, count, ps) equals the sorted type-7 quantile: signs, ties, one narrow bucket, a wide range', () => {
    const rng = new Rng(7n);
    const ps = [0, 0.01, 0.5, 0.95, 0.99, 1];
    const cases: number[][] = [
      Array.from({ length: 5000 }, () => Math.fround((rng.nextDouble() - 0.3) * 40)),
      Array.from({ length: 3001 }, () => Math.floor(rng.nextDouble() * 7) / 8), // heavy ties
      Array.from({ length: 2000 }, () => Math.fround(2 + rng.nextDouble() / 1024)), // all in one high-16-bit bucket
      Array.from({ length: 4000 }, () => Math.fround(rng.nextExpByLog() ** 4 * 1e-3)), // spans many binades
      [3],
    ];
    for (const xs of cases) {
      const arr = Float32Array.from([...xs, -1e9, 1e9]);
      const before = arr.slice();
      expect(quantiles(arr, xs.length, ps)).toEqual(ps.map((p) => sortedQuantile(xs, p)));
      expect(arr).toEqual(before); // float32 samples are only read
    }
  });

  it('pooledQuantiles(parts, ps) equals quantiles of the concatenation, for parts of any sizes and offsets', () => {
    const rng = new Rng(9n);
    const xs = Array.from({ length: 6000 }, () => Math.fround(rng.nextExpByLog() * 3));
    const whole = Float32Array.from([0, ...xs]);
    const parts = [whole.subarray(1, 2), whole.subarray(2, 3000), whole.subarray(3000, 3000), whole.subarray(3000)];
    const ps = [0.5, 0.95, 0.99];
    expect(pooledQuantiles(parts, ps)).toEqual(ps.map((p) => sortedQuantile(xs, p)));
    expect(pooledQuantiles([Float32Array.of(3, 1), Float32Array.of(2, 4)], [0.5])).toEqual([2.5]);
    expect(() => pooledQuantiles([new Float32Array(0)], [0.5])).toThrow(/count/);
  });

  it('pooledQuantiles with many probabilities (a ccdf grid) equals the sorted reference, call after call', () => {
    // ~110 ranks in as many buckets, ranks sharing a bucket and a coarse bin, heavy ties; repeated calls check that
    // the per-thread counts left behind by one call do not reach the next
    const rng = new Rng(13n);
    const ps = [0, ...Array.from({ length: 49 }, (_, k) => 0.02 * (k + 1)), 0.99, 0.995, 0.999, 1];
    const cases: number[][] = [
      Array.from({ length: 20_000 }, () => Math.fround(rng.nextExpByLog() * 2)),
      Array.from({ length: 9001 }, () => Math.floor(rng.nextDouble() * 5) / 4), // heavy ties
      Array.from({ length: 7000 }, () => Math.fround(2 + rng.nextDouble() / 1024)), // one high-16-bit bucket
      Array.from({ length: 12_000 }, () => Math.fround(rng.nextExpByLog() ** 4 * 1e-3)), // many binades
    ];
    for (let round = 0; round < 2; round++) {
      for (const xs of cases) {
        const half = xs.length >> 1;
        const parts = [Float32Array.from(xs.slice(0, half)), Float32Array.from(xs.slice(half))];
        const sorted = xs.slice().sort((a, b) => a - b); // sortedQuantile's sort, once for all ps
        expect(pooledQuantiles(parts, ps)).toEqual(ps.map((p) => sortedQuantile(sorted, p)));
      }
    }
  });

  it('quantiles(bad input) throws', () => {
    expect(() => quantiles(new Float64Array(3), 0, [0.5])).toThrow(/count/);
    expect(() => quantiles(new Float64Array(3), 3, [1.5])).toThrow(/probability/);
  });

  it('batchEstimate(batches, pooled) centres the batch half-width on the pooled value; lag1Autocorrelation of an alternating series is near −1', () => {
    const e = batchEstimate([1, 2, 3, 4], 2.4);
    expect(e.mean).toBe(2.4);
    expect(e.halfWidth).toBeCloseTo((3.182446 * Math.sqrt(5 / 3)) / 2, 5);
    expect(e.ci95[0]).toBeCloseTo(2.4 - e.halfWidth, 12);
    expect(lag1Autocorrelation([1, -1, 1, -1, 1, -1])).toBeCloseTo(-5 / 6, 12);
  });
});

describe('fractionsAtMost', () => {
  /** The plain comparison, one threshold at a time (what simulate computed before). */
  const plain = (part: Float32Array, t: number) => part.filter((x) => x <= t).length / part.length;

  it('equals x <= t per part, for thresholds on, between and beside the floats, and with −0 and negatives', () => {
    const rng = new Rng(11n);
    const positive = Float32Array.from({ length: 5000 }, () => -Math.log(rng.nextDouble()) * 3);
    const ties = Float32Array.from({ length: 999 }, (_, i) => Math.floor(i / 7) / 8);
    const zeros = Float32Array.of(0, 0, 0.5, 1, Infinity);
    const signed = Float32Array.of(-0, 0, -1.5, 2, -0, 3);
    const x = positive[17];
    const just = (f: number, dir: number) => {
      const b = new Float32Array([f]);
      const i = new Int32Array(b.buffer);
      i[0] += dir;
      return b[0];
    };
    // a float32 itself, a double just above and below it, the float32 neighbours, 0, −0, negatives, +∞, extremes
    const thresholds = [x, x + 1e-12, x - 1e-12, just(x, 1), just(x, -1), 0, -0, -1, Infinity, 1.0625, 1e-45, 3.4e38];
    for (const parts of [[positive, ties, zeros], [signed], [zeros, signed]]) {
      // three at a time (the simulator's p50, p95, p99) and other counts
      for (let k = 0; k < thresholds.length; k += 3) {
        for (const ts of [thresholds.slice(k, k + 3), thresholds.slice(k, k + 2), thresholds.slice(k, k + 4)]) {
          const got = fractionsAtMost(parts, ts);
          expect(got).toEqual(ts.map((t) => parts.map((part) => plain(part, t))));
        }
      }
    }
    expect(fractionsAtMost([Float32Array.of(1, 2), Float32Array.of(3, 4)], [2.5])).toEqual([[1, 0]]);
  });
});

describe('pooledQuantiles within one bucket', () => {
  it('picks ranks spread over every byte of the low 16 bits of one bucket, grouped or not (as a sort)', () => {
    // 20 000 values in [1, 1 + 2^-7): one high-16-bit bucket; ranks of 99 levels in many of its 256 coarse bins
    const rng = new Rng(37n);
    const xs = Float32Array.from({ length: 20_000 }, () => 1 + rng.nextExpByLog() * 2 ** -10);
    for (let i = 0; i < xs.length; i++) if (!(xs[i] < 1 + 2 ** -7)) xs[i] = 1;
    const ps = Array.from({ length: 99 }, (_, k) => (k + 1) / 100);
    const want = ps.map((p) => sortedQuantile(Array.from(xs), p));
    const high = radixHistogram([xs.subarray(0, 7000), xs.subarray(7000)]);
    expect(pooledQuantiles([xs.subarray(0, 7000), xs.subarray(7000)], ps)).toEqual(want);
    const grouped = [xs.subarray(0, 7000), xs.subarray(7000)].map((part) => {
      const h = radixHistogram([part]);
      return { part: groupByHighBits(part, h, new Uint16Array(part.length)), span: bucketSpan(h) };
    });
    expect(
      pooledQuantiles(
        grouped.map((g) => g.part),
        ps,
        high,
        grouped.map((g) => g.span),
      ),
    ).toEqual(want);
  });
});

describe('pooledQuantilesAndFractions', () => {
  it("gives in one pass what pooledQuantiles, fractionsAtMost and each part's own pooledQuantiles give", () => {
    const rng = new Rng(17n);
    const ps = [0.5, 0.95, 0.99, ...Array.from({ length: 49 }, (_, k) => +(0.02 * (k + 1)).toFixed(2)), 0.995, 0.999];
    const own = [0.5, 0.95, 0.99];
    const cases: number[][][] = [
      // the simulator's case: response times, replications of different lengths
      [4000, 3000, 5000].map((m) => Array.from({ length: m }, () => Math.fround(rng.nextExpByLog() * 2.6))),
      // heavy ties (thresholds on values many parts hold), one narrow bucket, many binades
      [3, 3, 3].map(() => Array.from({ length: 2001 }, () => Math.floor(rng.nextDouble() * 5) / 4)),
      [1, 2].map(() => Array.from({ length: 1500 }, () => Math.fround(2 + rng.nextDouble() / 1024))),
      [1, 2].map(() => Array.from({ length: 3000 }, () => Math.fround(rng.nextExpByLog() ** 4 * 1e-3))),
      // signs and −0, a single value, tiny parts
      [[-0, 0, -1.5, 2, -0, 3, 0.25], [1], [-2, -0, 0, 5]],
    ];
    for (const data of cases) {
      const parts = data.map((xs) => Float32Array.from(xs));
      for (const [qs, atMost] of [
        [ps, 3],
        [[0, 0.5, 1], 3],
        [[1, 0.01], 2],
        [[0.3], 1],
        [ps, 0],
      ] as const) {
        const locations = parts.map((part, i) => (i === 1 ? undefined : locateQuantiles(part.length, own, radixHistogram([part]))));
        const got = pooledQuantilesAndFractions(parts, qs, atMost, radixHistogram(parts), locations);
        const want = pooledQuantiles(parts, qs);
        expect(got.quantiles).toEqual(want);
        expect(got.fractions).toEqual(atMost === 0 ? [] : fractionsAtMost(parts, want.slice(0, atMost)));
        expect(got.own).toEqual(parts.map((part, i) => (i === 1 ? undefined : pooledQuantiles([part], own))));
        // and the same again (the per-thread scratch left clean), without the histogram given
        expect(pooledQuantilesAndFractions(parts, qs, atMost).quantiles).toEqual(want);
        // parts grouped by bucket (all but part 0): the same numbers from their runs
        const highs = parts.map((part) => radixHistogram([part]));
        const grouped = parts.map((part, i) => (i === 0 ? part : groupByHighBits(part, highs[i], new Uint16Array(part.length))));
        const byRuns = pooledQuantilesAndFractions(
          grouped,
          qs,
          atMost,
          radixHistogram(parts),
          locations,
          highs.map((h, i) => (i === 0 ? undefined : bucketSpan(h))),
        );
        expect(byRuns).toEqual(got);
        expect(pooledQuantiles(grouped, qs, undefined, [undefined, ...highs.slice(1).map(bucketSpan)])).toEqual(want);
      }
    }
    expect(pooledQuantilesAndFractions([Float32Array.of(3, 1), Float32Array.of(2, 4)], [0.5], 1).fractions).toEqual([[0.5, 0.5]]);
    expect(() => pooledQuantilesAndFractions([Float32Array.of(1)], [0.5], 2)).toThrow(/0 to 3/);
    // a grouped part is read through its span: none given (or one for float32 values) is refused, not misread
    const one = Float32Array.of(1, 2);
    const span = bucketSpan(radixHistogram([one]));
    expect(() => pooledQuantiles([groupByHighBits(one, radixHistogram([one]), new Uint16Array(2))], [0.5])).toThrow(/bucket span/);
    expect(() => pooledQuantiles([one], [0.5], undefined, [span])).toThrow(/bucket span/);
  });
});

describe('groupByHighBits', () => {
  it('reorders a sample stably by the high 16 bits of its keys, every bucket one run in increasing order', () => {
    const rng = new Rng(23n);
    const xs = Float32Array.from([-0, 0, -1.5, 3, ...Array.from({ length: 3000 }, () => rng.nextExpByLog() * 2)]);
    const high = radixHistogram([xs]);
    const out = groupedValues(groupByHighBits(xs, high, new Uint16Array(xs.length + 2)).subarray(0, xs.length), bucketSpan(high));
    const key = (x: number) => {
      const b = new Int32Array(Float32Array.of(x).buffer)[0];
      return (b ^ ((b >> 31) | 0x80000000)) >>> 0;
    };
    // the reference: a stable sort by bucket
    const want = Array.from(xs)
      .map((x, i) => ({ x, i, c: key(x) >>> 16 }))
      .sort((a, b) => a.c - b.c || a.i - b.i)
      .map((e) => e.x);
    expect(Array.from(out.subarray(0, xs.length))).toEqual(want);
    expect(Object.is(out[0], -1.5) && Object.is(out[1], -0) && Object.is(out[2], 0)).toBe(true);
    expect(() => groupByHighBits(xs, high, new Uint16Array(xs.buffer))).toThrow(/separate output/);
    expect(() => groupByHighBits(xs, high, new Uint16Array(3))).toThrow(/separate output/);
    expect(() => groupByHighBits(xs.subarray(1), high, new Uint16Array(xs.length))).toThrow(/histogram counts/);
    expect(() => groupedValues(new Uint16Array(3), bucketSpan(high))).toThrow(/span counts/);
  });

  it('groups every length alike (the scatter takes eight values a step, then the rest one by one)', () => {
    const rng = new Rng(29n);
    const all = Float32Array.from([-2, -0, 0, ...Array.from({ length: 1010 }, () => rng.nextExpByLog() * 3)]);
    for (const len of [1, 2, 3, 7, 8, 9, 15, 16, 17, 1001, 1002, 1003, 1004, 1005, 1006, 1007]) {
      const xs = all.subarray(all.length - len);
      const high = radixHistogram([xs]);
      const out = groupedValues(groupByHighBits(xs, high, new Uint16Array(len)), bucketSpan(high));
      // the reference: stable, one value at a time, by bucket
      const want = Array.from(xs)
        .map((x, i) => ({ x, i, c: ((b) => (b ^ ((b >> 31) | 0x80000000)) >>> 16)(new Int32Array(Float32Array.of(x).buffer)[0]) }))
        .sort((a, b) => a.c - b.c || a.i - b.i)
        .map((e) => e.x);
      expect(Array.from(out)).toEqual(want);
    }
  });

  it('bucketSpan keeps the nonzero stretch of a histogram; addBucketSpan adds it back', () => {
    const high = radixHistogram([Float32Array.of(1, 1, 3, 0.5)]);
    const span = bucketSpan(high);
    expect(span.counts[0]).toBeGreaterThan(0);
    expect(span.counts[span.counts.length - 1]).toBeGreaterThan(0);
    const back = new Int32Array(high.length);
    addBucketSpan(back, span);
    addBucketSpan(back, bucketSpan(new Int32Array(high.length)));
    expect(back).toEqual(high);
  });
});
