/**
 * The WebAssembly race kernel (assembly/race.ts → src/sim/wasm/raceKernel.ts) against its sources of truth:
 * - the committed bytes are what the kernel source compiles to (fails when assembly/race.ts is edited without
 *   `npm run build:wasm`);
 * - its random primitives mirror src/stats/rng.ts and jsqPair output for output over long streams, including the
 *   rare paths: the ziggurat's tail and wedge, Lemire's rejection (bound near 2^21) and the pair rule's rejection
 *   (n = 50 000, where ~42 % of pairs are redrawn). The race loop's inline copies of the fast paths are pinned by
 *   raceIdentity.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compileRaceKernel } from '../../scripts/build-wasm.ts';
import { RACE_WASM } from '../../src/sim/wasm/raceKernel.ts';
import { jsqPair } from '../../src/sim/selection/jsqd.ts';
import { Rng, ZIG_F, ZIG_R, ZIG_X, streamSeed } from '../../src/stats/rng.ts';

const bytes = Buffer.from(RACE_WASM, 'base64');

it('the committed kernel bytes are what assembly/race.ts compiles to (npm run build:wasm)', async () => {
  expect(Buffer.from(await compileRaceKernel()).equals(bytes)).toBe(true);
});

/** Memory layout and parameter slots as in src/sim/race.ts and assembly/race.ts. */
const [P, P_RNG_NEXT, P_ZIG_R, P_S0] = [65536, 17, 18, 20];
const RNG = P + 256;
const ZX = RNG + 1024;
const ZF = ZX + 8 * 257;
const LEN = ZF + 8 * 257;

/** `count` draws of primitive `kind` (0 exp, 1 below(bound), 2 jsqPair over `len`) through the kernel, continuing `rng`'s stream. */
function kernelDraws(rng: Rng, kind: number, bound: number, m: number, len: Int32Array, count: number): Float64Array {
  const out = LEN + 4 * len.length;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((out + 8 * count) / 65536) + 1 });
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
    env: { memory },
    race: { hostExp: Math.exp, hostLog: Math.log },
  });
  const draws = instance.exports.draws as (...args: number[]) => void;
  const p = new Float64Array(memory.buffer, P, 32);
  p[P_ZIG_R] = ZIG_R;
  rng.handOver(new Int32Array(memory.buffer, RNG, 256), p, P_RNG_NEXT, P_S0);
  new Float64Array(memory.buffer, ZX, 257).set(ZIG_X);
  new Float64Array(memory.buffer, ZF, 257).set(ZIG_F);
  new Int32Array(memory.buffer, LEN, len.length).set(len);
  draws(P, RNG, ZX, ZF, kind, bound, m, LEN, count, out);
  rng.resume(new Int32Array(memory.buffer, RNG, 256), p, P_RNG_NEXT, P_S0);
  return new Float64Array(memory.buffer, out, count).slice();
}

/** Draws the same stream in JS and in the kernel (two Rngs from one seed), then one more output of each to check the hand-back. */
function compare(kind: number, bound: number, m: number, len: Int32Array, count: number, draw: (rng: Rng) => number): Float64Array {
  const js = new Rng(streamSeed(11, kind * 1000 + bound));
  const wasm = new Rng(streamSeed(11, kind * 1000 + bound));
  js.nextInt32(); // start mid-buffer
  wasm.nextInt32();
  const expected = Float64Array.from({ length: count }, () => draw(js));
  const got = kernelDraws(wasm, kind, bound, m, len, count);
  expect(Buffer.from(got.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
  expect(wasm.nextInt32()).toBe(js.nextInt32());
  return expected;
}

describe('kernel random primitives = src/stats/rng.ts, output for output', () => {
  it('nextExp over 10^6 draws (ziggurat core, wedge and tail)', () => {
    const xs = compare(0, 0, 0, new Int32Array(0), 1_000_000, (rng) => rng.nextExp());
    expect(xs.filter((x) => x > ZIG_R).length).toBeGreaterThan(100); // tail draws (base strip beyond R)
  });

  it('below(bound) for bounds 7 and 2^21 − 1 (Lemire rejection ~2^−11 per draw)', () => {
    compare(1, 7, 0, new Int32Array(0), 200_000, (rng) => rng.below(7));
    compare(1, 2 ** 21 - 1, 0, new Int32Array(0), 1_000_000, (rng) => rng.below(2 ** 21 - 1));
  });

  it('jsqPair at n = 50 000 with and without replacement (~42 % of pairs redrawn)', () => {
    const n = 50_000;
    const seeded = new Rng(streamSeed(3, 3));
    const len = Int32Array.from({ length: n }, () => seeded.below(1000));
    for (const m of [n, n - 1]) compare(2, n, m, len, 300_000, (rng) => jsqPair(rng, len, n, m));
  });
});
