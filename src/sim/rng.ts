/**
 * Seeded random streams for the simulator: xoshiro128** (32-bit operations only, so it stays in V8's
 * integer fast paths), 53-bit doubles from two draws, exact bounded integers (Lemire's method), and one
 * independent stream per replication derived from a single master seed.
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
export function streamSeed(master: number, index: number): bigint {
  if (!Number.isSafeInteger(master)) throw new InvalidModelError(`seed must be a safe integer, got ${master}`);
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new InvalidModelError(`stream index must be an integer ≥ 0, got ${index}`);
  }
  const m = mix64(BigInt.asUintN(64, BigInt(master)));
  return mix64((m + BigInt(index + 1) * GOLDEN64) & MASK64);
}

/**
 * xoshiro128** generator (period 2^128 − 1). The state is four int32 fields; every method uses only
 * 32-bit integer operations and is monomorphic, so V8 inlines it into the simulator's hot loop.
 */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

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
    const s1 = this.s1;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9);
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 = s1 ^ this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    const s3 = this.s3;
    this.s3 = (s3 << 11) | (s3 >>> 21);
    return result;
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

  /** Exponential variate with mean 1: −log(u), u ∈ (0, 1) with 53 bits. */
  nextExp(): number {
    return -Math.log(this.nextOpen());
  }

  /**
   * Exactly uniform integer in [0, n) by Lemire's multiply-and-reject, computed in doubles (exact because
   * x·n < 2^53 for n ≤ 2^21). Expected draws: 1 + n/2^32.
   * @param n bound, integer in [1, MAX_UNIFORM_BOUND]; not checked here (the caller validates once).
   */
  below(n: number): number {
    for (;;) {
      const m = (this.nextInt32() >>> 0) * n;
      const r = Math.floor(m * TWO_POW_MINUS_32);
      const low = m - r * TWO_POW_32;
      if (low >= n || low >= (TWO_POW_32 - n) % n) return r;
    }
  }
}
