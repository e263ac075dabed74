/**
 * Seeded random streams for the simulator: xoshiro128** (32-bit operations only, so it stays in V8's
 * integer fast paths), 53-bit doubles from two draws, exponentials by a 256-layer ziggurat (53-bit u),
 * exact bounded integers (Lemire's method), and one stream per replication derived from a single master seed
 * by hashing (streams start at unrelated points of the 2^128 − 1 cycle; overlap within a run is astronomically
 * unlikely, though not excluded by construction as a jump function would). The ziggurat tables use V8's own
 * fdlibm port of exp/log, so results are bit-identical across machines for the same Node version.
 *
 * Sources: D. Blackman, S. Vigna, "Scrambled linear pseudorandom number generators", ACM TOMS 47(4), 2021
 * (xoshiro128**, https://prng.di.unimi.it/xoshiro128starstar.c); splitmix64 (Steele, Lea, Flood, OOPSLA
 * 2014; https://prng.di.unimi.it/splitmix64.c) for seeding; D. Lemire, "Fast random integer generation in
 * an interval", ACM TOMACS 29(1), 2019, for `below`.
 */
import { InvalidModelError } from '../errors.ts';

const TWO_POW_32 = 4294967296;
const TWO_POW_MINUS_32 = 1 / TWO_POW_32;
const TWO_POW_MINUS_53 = 1 / 9007199254740992;
/** Largest bound for which `below(n)` is exact: x·n must stay below 2^53 for every 32-bit x. */
export const MAX_UNIFORM_BOUND = 2 ** 21;

/**
 * Ziggurat tables for f(x) = e^{−x}: 256 layers of equal area v; X[0] = v/f(r) (base strip), X[1] = r,
 * X[i+1] = −log(e^{−X[i]} + v/X[i]), X[256] = 0; F[i] = e^{−X[i]}. Constants from Marsaglia–Tsang (2000).
 */
export const ZIG_R = 7.69711747013104972;
const ZIG_V = 0.0039496598225815571993;
export const ZIG_X = new Float64Array(257);
export const ZIG_F = new Float64Array(257);
ZIG_X[0] = ZIG_V / Math.exp(-ZIG_R);
ZIG_X[1] = ZIG_R;
for (let i = 1; i < 255; i++) ZIG_X[i + 1] = -Math.log(Math.exp(-ZIG_X[i]) + ZIG_V / ZIG_X[i]);
ZIG_X[256] = 0;
for (let i = 0; i < 257; i++) ZIG_F[i] = Math.exp(-ZIG_X[i]);

const MASK64 = (1n << 64n) - 1n;
const GOLDEN64 = 0x9e3779b97f4a7c15n;

/** splitmix64's output function (finaliser) on a 64-bit BigInt. Used only at seeding time. */
function mix64(z: bigint): bigint {
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

/**
 * The 64-bit seed of replication `index` under `master`: splitmix64 finaliser applied to
 * mix64(master) + (index + 1)·φ·2^64 (mod 2^64), so streams of nearby masters and indices are unrelated.
 * @param master integer master seed (any safe integer; negatives are taken mod 2^64).
 * @param index replication index ≥ 0.
 * @returns the stream seed as a BigInt in [0, 2^64).
 */
/** FNV-1a hash of `text` (32-bit), from the standard offset basis unless another `basis` is given. */
export function fnv1a(text: string, basis = 0x811c9dc5): number {
  let h = basis;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const MASK53 = (1n << 53n) - 1n;
const FNV64_BASIS = 0xcbf29ce484222325n;
const FNV64_PRIME = 0x100000001b3n;
/** Largest master seed `cellSeed` takes: 2^53 − 1, the largest integer a double holds exactly with all below it. */
export const MAX_MASTER_SEED = Number.MAX_SAFE_INTEGER;

/**
 * A bijection of [0, 2^53): splitmix64's finaliser shape (xor-shift, multiply by an odd constant, twice, xor-shift)
 * modulo 2^53. Each step is invertible mod 2^53 (an xor-shift right by s ≥ 1; a product with an odd number), so
 * distinct inputs give distinct outputs.
 */
function mix53(z: bigint): bigint {
  z = ((z ^ (z >> 26n)) * 0xbf58476d1ce4e5b9n) & MASK53;
  z = ((z ^ (z >> 24n)) * 0x94d049bb133111ebn) & MASK53;
  return z ^ (z >> 27n);
}

/** 64-bit FNV-1a of the UTF-16 code units of `key`, folded to 53 bits (high 11 bits xor-ed into the low ones). */
function keyHash53(key: string): bigint {
  let h = FNV64_BASIS;
  for (let i = 0; i < key.length; i++) h = ((h ^ BigInt(key.charCodeAt(i))) * FNV64_PRIME) & MASK64;
  return (h ^ (h >> 53n)) & MASK53;
}

const keyHashes = new Map<string, bigint>();

/**
 * THE seed of a named cell of a sweep (compare, run, conjecture, claims, the pool): mix53(mix53(master) ⊕ h(key)),
 * with h a 64-bit FNV-1a of the key folded to 53 bits and mix53 a bijection of [0, 2^53). For a fixed key the map
 * master → seed is a bijection of [0, 2^53), so two distinct masters never give the same seed to the same cell (the
 * 32-bit FNV-1a of "master|key" used before aliased whole runs: masters 40189 and 797186 gave every cell the same
 * seed). The seed depends only on the master and the key, not on the order cells run in; distinct keys of one master
 * collide with probability ~2^−53 per pair.
 * @param master integer in [0, 2^53 − 1] (MAX_MASTER_SEED). @param key the cell's key.
 * @returns an integer in [0, 2^53 − 1], a valid `seed` of simulate.
 * @throws {InvalidModelError} one line, for a master that is not an integer in [0, 2^53 − 1].
 */
export function cellSeed(master: number, key: string): number {
  if (!(Number.isSafeInteger(master) && master >= 0)) {
    throw new InvalidModelError(`master seed must be an integer in [0, 2^53 − 1 = ${MAX_MASTER_SEED}], got ${master}`);
  }
  let h = keyHashes.get(key);
  if (h === undefined) {
    h = keyHash53(key);
    if (keyHashes.size > 1 << 16) keyHashes.clear();
    keyHashes.set(key, h);
  }
  return Number(mix53(mix53(BigInt(master)) ^ h));
}

export function streamSeed(master: number, index: number): bigint {
  if (!Number.isSafeInteger(master)) throw new InvalidModelError(`seed must be a safe integer, got ${master}`);
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new InvalidModelError(`stream index must be an integer ≥ 0, got ${index}`);
  }
  const m = mix64(BigInt.asUintN(64, BigInt(master)));
  return mix64((m + BigInt(index + 1) * GOLDEN64) & MASK64);
}

/** Outputs generated per refill of an `Rng`'s buffer. */
const RNG_BUFFER = 256;

/**
 * xoshiro128** generator (period 2^128 − 1). The state is four int32 fields, advanced RNG_BUFFER outputs at a time
 * into a buffer that `nextInt32` reads in order: the stream is exactly xoshiro128**'s, output by output (buffering
 * changes when outputs are computed, never which). The hot loops call `nextInt32` up to five times per event and
 * V8 inlines every call; reading a buffer is a few bytecodes, where the generator step is ~110, and V8 stops
 * inlining once a function has inlined 920 bytes of bytecode. The generator step runs in `refill`, over locals.
 */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  /**
   * Outputs buffer[next..RNG_BUFFER) are the stream's next ones. Read in place by the TypeScript race loop
   * (sim/race.ts), which keeps the position in a local, writes it back before calling a method of this class and
   * reads it again after (as the WebAssembly kernel does with its copy): not for other callers.
   */
  readonly buffer = new Int32Array(RNG_BUFFER);
  next = RNG_BUFFER;

  /**
   * @param seed 64-bit seed (e.g. from `streamSeed`); the 128-bit state is filled by two splitmix64 steps,
   *   which never yields the all-zero state in practice (guarded anyway).
   */
  constructor(seed: bigint) {
    let x = BigInt.asUintN(64, seed);
    x = (x + GOLDEN64) & MASK64;
    const a = mix64(x);
    x = (x + GOLDEN64) & MASK64;
    const b = mix64(x);
    this.s0 = Number(a & 0xffffffffn) | 0;
    this.s1 = Number(a >> 32n) | 0;
    this.s2 = Number(b & 0xffffffffn) | 0;
    this.s3 = Number(b >> 32n) | 0;
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Next raw output as a signed int32 (all 32 bits random). */
  nextInt32(): number {
    if (this.next === RNG_BUFFER) this.refill();
    return this.buffer[this.next++];
  }

  /** Computes the next RNG_BUFFER outputs of xoshiro128** into the buffer. */
  private refill(): void {
    this.fill(0);
  }

  /**
   * Moves the unread outputs buffer[next..) to the front and computes the stream's next ones after them, so that all
   * RNG_BUFFER outputs are unread (next = 0): the same stream, computed earlier (the race loop reads ≤ 5 per event in
   * place, assembly/race.ts's `topUp`).
   */
  topUp(): void {
    const left = RNG_BUFFER - this.next;
    this.buffer.copyWithin(0, this.next);
    this.fill(left);
  }

  /**
   * Computes the stream's next outputs into buffer[from..RNG_BUFFER); next = 0. ×5 and ×9 by `Math.imul` (the low 32
   * bits of the product, as the reference C's uint32 arithmetic): V8 emits one integer multiply, where `(x·c) | 0`
   * went through a double product and a truncation.
   */
  private fill(from: number): void {
    const buffer = this.buffer;
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    for (let k = from; k < RNG_BUFFER; k++) {
      const m = Math.imul(s1, 5);
      buffer[k] = Math.imul((m << 7) | (m >>> 25), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
    this.next = 0;
  }

  /**
   * Hands the stream to code that continues it elsewhere (the WebAssembly race kernel, src/sim/race.ts): copies the
   * buffered outputs into `buffer` (length RNG_BUFFER = 256), the read position into `slots[nextSlot]` and the four
   * xoshiro128** words into `slots[wordsSlot ..< wordsSlot + 4]`. The other side must read buffer[next..] first,
   * then step the generator from those words; `resume` takes the stream back.
   */
  handOver(buffer: Int32Array, slots: Float64Array, nextSlot: number, wordsSlot: number): void {
    buffer.set(this.buffer);
    slots[nextSlot] = this.next;
    slots[wordsSlot] = this.s0;
    slots[wordsSlot + 1] = this.s1;
    slots[wordsSlot + 2] = this.s2;
    slots[wordsSlot + 3] = this.s3;
  }

  /** Takes the stream back after `handOver`: the same layout, as the other side left it. */
  resume(buffer: Int32Array, slots: Float64Array, nextSlot: number, wordsSlot: number): void {
    this.buffer.set(buffer);
    this.next = slots[nextSlot];
    this.s0 = slots[wordsSlot] | 0;
    this.s1 = slots[wordsSlot + 1] | 0;
    this.s2 = slots[wordsSlot + 2] | 0;
    this.s3 = slots[wordsSlot + 3] | 0;
  }

  /** Uniform double in [0, 1) with 53 random bits (two draws). */
  nextDouble(): number {
    const hi = this.nextInt32() >>> 5;
    const lo = this.nextInt32() >>> 6;
    return (hi * 67108864 + lo) * TWO_POW_MINUS_53;
  }

  /** Uniform double in the open interval (0, 1) with 53 bits: (k + ½)/2^53, safe for −log(u). */
  nextOpen(): number {
    const hi = this.nextInt32() >>> 5;
    const lo = this.nextInt32() >>> 6;
    return (hi * 67108864 + lo + 0.5) * TWO_POW_MINUS_53;
  }

  /**
   * Exponential variate with mean 1 by the ziggurat method (256 layers; exact rejection sampling, no logarithm
   * in ~99% of calls). One draw gives the layer (8 bits) and 24 bits of u, a second draw 29 more: u has 53 bits.
   * Source: Marsaglia, Tsang, "The Ziggurat Method for Generating Random Variables", J. Stat. Softw. 5(8), 2000,
   * with independent layer bits as recommended by Doornik (2005); tail: r + Exp(1) by memorylessness.
   */
  nextExp(): number {
    const a = this.nextInt32();
    const i = a & 255;
    const x = ((a >>> 8) * 536870912 + (this.nextInt32() >>> 3)) * TWO_POW_MINUS_53 * ZIG_X[i];
    return x < ZIG_X[i + 1] ? x : +this.expOutsideCore(i, x); // + : the result stays an unboxed double in the caller
  }

  /** The rare ziggurat steps (~1% of calls): base-strip tail, wedge test, and retries (called by `nextExp`, and by the race loop, which inlines the fast step). */
  expOutsideCore(i: number, x: number): number {
    for (;;) {
      if (i === 0) return ZIG_R + this.nextExpByLog();
      if (ZIG_F[i + 1] + (ZIG_F[i] - ZIG_F[i + 1]) * this.nextDouble() < Math.exp(-x)) return x;
      const a = this.nextInt32();
      i = a & 255;
      x = ((a >>> 8) * 536870912 + (this.nextInt32() >>> 3)) * TWO_POW_MINUS_53 * ZIG_X[i];
      if (x < ZIG_X[i + 1]) return x;
    }
  }

  /** Exponential variate with mean 1 by inversion: −log(u), u ∈ (0, 1) with 53 bits. */
  nextExpByLog(): number {
    return -Math.log(this.nextOpen());
  }

  /**
   * Exactly uniform integer in [0, n) by Lemire's multiply-and-reject, computed in doubles (exact because
   * x·n < 2^53 for n ≤ 2^21). Expected draws: 1 + n/2^32.
   * @param n bound, integer in [1, MAX_UNIFORM_BOUND]; not checked here (the caller validates once).
   */
  below(n: number): number {
    const m = (this.nextInt32() >>> 0) * n;
    const r = (m * TWO_POW_MINUS_32) | 0; // ⌊·⌋, as r < n ≤ 2^21
    return m - r * TWO_POW_32 >= n ? r : this.belowRejection(n, m, r);
  }

  /**
   * Lemire's rejection step (probability < n/2^32 per call): accept if the low part ≥ 2^32 mod n, else redraw. For
   * `below` and loops that inline its fast step: m = x·n of the first draw x, r = ⌊m/2^32⌋.
   */
  belowRejection(n: number, m: number, r: number): number {
    const threshold = (TWO_POW_32 - n) % n;
    for (;;) {
      if (m - r * TWO_POW_32 >= threshold) return r;
      m = (this.nextInt32() >>> 0) * n;
      r = Math.floor(m * TWO_POW_MINUS_32);
    }
  }
}
