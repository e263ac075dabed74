// Recycled per-replication buffers (src/sim/buffers.ts): what is handed out is zero-filled and never shared, and a
// run on recycled (garbage-filled) buffers gives the numbers of a run on fresh ones.
import { describe, expect, it } from 'vitest';
import {
  freeBufferBytes,
  freeSharedBytes,
  keepShared,
  lendShared,
  recycle,
  setBufferRecycling,
  sharedBuffersTaken,
  takeFloat32,
  takeFloat64,
  takeInt32,
  takeShared,
} from '../../src/sim/buffers.ts';
import { simulate, type SimulateOptions } from '../../src/sim/index.ts';
import { parseModel } from '../../src/model/model.ts';
import { pooledQuantiles } from '../../src/stats/quantile.ts';

describe('recycled buffers', () => {
  it('hand out zero-filled arrays of the length asked, reusing a given-back buffer of that size', () => {
    const a = takeFloat64(1000);
    expect(a.length).toBe(1000);
    a.fill(7);
    const buffer = a.buffer;
    recycle(a);
    const b = takeFloat64(1000);
    expect(b.buffer).toBe(buffer);
    expect(b.every((x) => x === 0)).toBe(true);
    // the same bytes serve another element type of the same byte length
    recycle(b);
    const c = takeInt32(2000);
    expect(c.buffer).toBe(buffer);
    expect(c.every((x) => x === 0)).toBe(true);
    recycle(c);
  });

  it('give a buffer out once: a second recycle, a view of it, a foreign or a detached buffer is ignored', () => {
    const a = takeFloat32(4096);
    recycle(a);
    recycle(a); // twice
    recycle(a.subarray(0, 10)); // a view of a buffer already given back
    const x = takeFloat32(4096);
    const y = takeFloat32(4096);
    expect(x.buffer).not.toBe(y.buffer);
    const before = freeBufferBytes();
    recycle(new Float32Array(4096)); // not handed out here
    expect(freeBufferBytes()).toBe(before);
    const moved = takeFloat64(512);
    structuredClone(moved, { transfer: [moved.buffer as ArrayBuffer] }); // detaches it, as postMessage does
    recycle(moved);
    expect(freeBufferBytes()).toBe(before);
    recycle(x);
    recycle(y);
  });

  it('keep at most 64 MiB free', () => {
    const many = Array.from({ length: 40 }, () => takeFloat64(2 ** 18)); // 40 × 2 MiB
    for (const a of many) recycle(a);
    expect(freeBufferBytes()).toBeLessThanOrEqual(64 * 2 ** 20);
    for (let i = 0; i < 40; i++) takeFloat64(2 ** 18);
  });

  it('keep nothing while recycling is off', () => {
    const was = setBufferRecycling(false);
    try {
      const a = takeFloat64(3333);
      const before = freeBufferBytes();
      recycle(a);
      expect(freeBufferBytes()).toBe(before);
    } finally {
      setBufferRecycling(was);
    }
  });
});

describe('shared buffers lent across threads', () => {
  it('a lent buffer goes back to its lender once, when recycled; one not lent, or with recycling off, stays', () => {
    const back: SharedArrayBuffer[] = [];
    const a = new Float64Array(new SharedArrayBuffer(80));
    lendShared(a, (b) => back.push(b));
    recycle(a.subarray(2, 4)); // a view gives back its buffer
    recycle(a); // twice: ignored
    expect(back).toEqual([a.buffer]);
    recycle(new Uint16Array(new SharedArrayBuffer(64))); // not lent
    const c = new Uint16Array(new SharedArrayBuffer(64));
    lendShared(c, (b) => back.push(b));
    const was = setBufferRecycling(false);
    try {
      recycle(c);
    } finally {
      setBufferRecycling(was);
    }
    expect(back).toHaveLength(1);
  });

  it('takeShared reuses a kept buffer of that byte length, else allocates; at most 64 MiB kept, oldest lengths dropped first', () => {
    const start = sharedBuffersTaken();
    const a = takeShared(4096);
    keepShared([a]);
    expect(takeShared(4096)).toBe(a);
    expect(takeShared(4096)).not.toBe(a); // none of that length free: a fresh one
    keepShared([a]);
    expect(takeShared(8192)).not.toBe(a); // another length: fresh
    const taken = sharedBuffersTaken();
    expect(taken.fresh - start.fresh).toBe(3);
    expect(taken.reused - start.reused).toBe(1);
    // 40 × 2 MiB of a new length push out the older ones and stay within the limit
    const old = takeShared(3 * 2 ** 20);
    keepShared([old]);
    keepShared(Array.from({ length: 40 }, () => new SharedArrayBuffer(2 ** 21)));
    expect(freeSharedBytes()).toBeLessThanOrEqual(64 * 2 ** 20);
    expect(takeShared(3 * 2 ** 20)).not.toBe(old);
    expect(takeShared(4096)).not.toBe(a);
    expect(takeShared(2 ** 21).byteLength).toBe(2 ** 21);
  });
});

describe('simulate on recycled buffers', () => {
  const strip = (r: unknown) => JSON.stringify(r, (k, v) => (k === 'wallSeconds' || k === 'eventsPerSecond' ? undefined : (v as unknown)));
  // consecutive runs of different sizes, so that later runs get the earlier runs' garbage-filled buffers; the race
  // engine (exponential FIFO), the event engine (FIFO, Weibull sizes) and the priority engine (SRPT), percentiles from
  // whole float32 prefixes and from systematic samples (POOLED_SAMPLE_CAP over many replications)
  const runs: [Parameters<typeof parseModel>[0], SimulateOptions][] = [
    [
      { lambda: 0.9, d: 2 },
      { n: 200, jobs: 20_000, replications: 4, seed: 1, warmupTime: 20 },
    ],
    [
      { lambda: 0.7, d: 3 },
      { n: 50, jobs: 20_000, replications: 4, seed: 2, warmupTime: 20 },
    ],
    [
      { lambda: 0.9, d: 2 },
      { n: 200, jobs: 20_000, replications: 4, seed: 3, warmupTime: 20 },
    ],
    [
      { lambda: 0.8, d: 2, service: 'weibull:0.5' },
      { n: 100, jobs: 20_000, replications: 3, seed: 4, warmupTime: 20 },
    ],
    [
      { lambda: 0.8, d: 2, discipline: 'srpt' },
      { n: 100, jobs: 20_000, replications: 3, seed: 5, warmupTime: 20 },
    ],
    [
      { lambda: 0.8, d: 2, discipline: 'srpt' },
      { n: 100, jobs: 20_000, replications: 3, seed: 5, warmupTime: 20 },
    ],
  ];
  it('gives the numbers of fresh buffers, run after run', () => {
    const was = setBufferRecycling(false);
    let fresh: string[];
    try {
      fresh = runs.map(([m, o]) => strip(simulate(parseModel(m), o)));
    } finally {
      setBufferRecycling(was);
    }
    // fill what is free with garbage first: nothing a run reads may come from an earlier run
    const junk = [takeFloat32(20_000), takeFloat64(4000), takeInt32(1 << 16), takeFloat64(200 * 64)];
    for (const a of junk) {
      a.fill(-123.5);
      recycle(a);
    }
    const recycled = runs.map(([m, o]) => strip(simulate(parseModel(m), o)));
    expect(recycled).toEqual(fresh);
    expect(freeBufferBytes()).toBeGreaterThan(0); // the runs gave their buffers back
  });

  it('pooled percentiles do not depend on the scratch of an earlier call', () => {
    const a = Float32Array.from({ length: 5000 }, (_, i) => (i * 7919) % 5000);
    const b = Float32Array.from({ length: 3001 }, (_, i) => 1 + ((i * 104729) % 3001) / 10);
    const first = pooledQuantiles([b], [0.5, 0.95, 0.99]);
    pooledQuantiles([a], [0.01, 0.5, 0.999]);
    expect(pooledQuantiles([b], [0.5, 0.95, 0.99])).toEqual(first);
    expect(first[0]).toBeCloseTo(1 + 1500 / 10, 4); // the median of 1 + k/10, k = 0..3000
  });
});
