/**
 * A square band matrix (kl sub-diagonals, ku super-diagonals) with an in-place LU factorisation with partial
 * pivoting and a solve: the linear algebra of the phase-type JSQ(d) Newton step, whose Jacobian in cumulative
 * variables is banded (kl = 2m − 1, ku = 3m − 1 for m phases). O(N·kl·(kl + ku)) work, O(N·(2kl + ku + 1)) memory,
 * where mathjs `lusolve` on the dense matrix takes seconds already at N = 400.
 * Source: Golub and Van Loan, Matrix Computations, 4th ed., 2013, §4.3.5 (band Gaussian elimination with partial
 * pivoting: the U factor gains kl extra super-diagonals); LINPACK DGBFA/DGBSL ordering of swaps and multipliers.
 */
import { InvalidModelError, SolverError } from '../errors.ts';

export class BandedMatrix {
  /** Row i stores columns i − kl .. i + kl + ku at offsets 0 .. 2kl + ku (room for pivoting fill-in). */
  private readonly data: Float64Array;
  private readonly width: number;
  private readonly pivot: Int32Array;
  private factored = false;

  /**
   * @param n order N ≥ 1. @param kl sub-diagonals ≥ 0. @param ku super-diagonals ≥ 0.
   * @throws {InvalidModelError} if a size is not a non-negative integer (n ≥ 1).
   */
  constructor(
    readonly n: number,
    readonly kl: number,
    readonly ku: number,
  ) {
    for (const [name, v, min] of [
      ['n', n, 1],
      ['kl', kl, 0],
      ['ku', ku, 0],
    ] as const) {
      if (!Number.isInteger(v) || v < min) throw new InvalidModelError(`BandedMatrix ${name} must be an integer ≥ ${min}, got ${v}`);
    }
    this.width = 2 * kl + ku + 1;
    this.data = new Float64Array(n * this.width);
    this.pivot = new Int32Array(n);
  }

  /**
   * Adds v to entry (i, j) (0-based).
   * @throws {InvalidModelError} if (i, j) lies outside the band (j < i − kl or j > i + ku).
   */
  add(i: number, j: number, v: number): void {
    if (j < i - this.kl || j > i + this.ku || i < 0 || i >= this.n || j < 0 || j >= this.n) {
      throw new InvalidModelError(`BandedMatrix entry (${i}, ${j}) lies outside the band kl = ${this.kl}, ku = ${this.ku}, n = ${this.n}`);
    }
    this.data[i * this.width + j - i + this.kl] += v;
    this.factored = false;
  }

  /** Entry (i, j) of the matrix as assembled (before `solve` factors it in place); 0 outside the band. */
  get(i: number, j: number): number {
    if (j < i - this.kl || j > i + this.ku) return 0;
    return this.data[i * this.width + j - i + this.kl];
  }

  private factor(): void {
    const { n, kl, ku, width: w, data } = this;
    for (let k = 0; k < n; k++) {
      const last = Math.min(n - 1, k + kl);
      let p = k;
      let best = Math.abs(data[k * w + kl]);
      for (let i = k + 1; i <= last; i++) {
        const v = Math.abs(data[i * w + k - i + kl]);
        if (v > best) {
          best = v;
          p = i;
        }
      }
      if (!(best > 0)) throw new SolverError(`banded LU: the matrix is singular (no pivot in column ${k} of ${n})`);
      this.pivot[k] = p;
      const cEnd = Math.min(n - 1, k + kl + ku);
      if (p !== k) {
        for (let c = k; c <= cEnd; c++) {
          const a = k * w + c - k + kl;
          const b = p * w + c - p + kl;
          const t = data[a];
          data[a] = data[b];
          data[b] = t;
        }
      }
      const diag = data[k * w + kl];
      for (let i = k + 1; i <= last; i++) {
        const idx = i * w + k - i + kl;
        const l = data[idx] / diag;
        data[idx] = l;
        if (l === 0) continue;
        for (let c = k + 1; c <= cEnd; c++) data[i * w + c - i + kl] -= l * data[k * w + c - k + kl];
      }
    }
    this.factored = true;
  }

  /**
   * Solves M·x = rhs, factoring M in place on the first call (the entries are then no longer M's).
   * @param rhs length N, not modified. @returns x, length N.
   * @throws {SolverError} if M is singular. @throws {InvalidModelError} if rhs has the wrong length.
   */
  solve(rhs: ArrayLike<number>): Float64Array {
    const { n, kl, ku, width: w, data } = this;
    if (rhs.length !== n) throw new InvalidModelError(`BandedMatrix.solve: rhs length ${rhs.length} must equal n = ${n}`);
    if (!this.factored) this.factor();
    const x = Float64Array.from(rhs);
    for (let k = 0; k < n; k++) {
      const p = this.pivot[k];
      if (p !== k) {
        const t = x[k];
        x[k] = x[p];
        x[p] = t;
      }
      const last = Math.min(n - 1, k + kl);
      for (let i = k + 1; i <= last; i++) x[i] -= data[i * w + k - i + kl] * x[k];
    }
    for (let k = n - 1; k >= 0; k--) {
      const cEnd = Math.min(n - 1, k + kl + ku);
      let v = x[k];
      for (let c = k + 1; c <= cEnd; c++) v -= data[k * w + c - k + kl] * x[c];
      x[k] = v / data[k * w + kl];
    }
    return x;
  }
}
