/**
 * Anderson acceleration (type II, depth m) of a fixed-point iteration x ← T(x): keeps the last m differences of
 * iterates and residuals g = T(x) − x and steps to x + g − (ΔX + ΔG)γ, where γ minimises ‖g − ΔG·γ‖₂ (normal
 * equations with a tiny ridge). For a linear T (LWL with d = 1, i.e. M/G/1) it is equivalent to GMRES, so it needs
 * far fewer sweeps than plain Picard when the contraction factor is close to 1.
 * Source: Walker & Ni, SIAM J. Numer. Anal. 49(4), 2011.
 */

/** Solves the small symmetric system A·x = b (n ≤ ~10) by Gaussian elimination with partial pivoting; null if singular. */
function solveSmall(A: number[][], b: number[]): number[] | null {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    if (!(Math.abs(M[p][c]) > 0)) return null;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = c + 1; r < n; r++) {
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k];
    x[r] = s / M[r][r];
  }
  return x.every(Number.isFinite) ? x : null;
}

/** Anderson mixer for vectors of a fixed length; `depth` 0 gives plain Picard. */
export class AndersonMixer {
  private readonly dX: Float64Array[] = [];
  private readonly dG: Float64Array[] = [];
  /** Gram matrix of dG, kept row by row as columns come and go. */
  private readonly gram: number[][] = [];
  private prevX: Float64Array | null = null;
  private prevG: Float64Array | null = null;

  constructor(
    readonly length: number,
    readonly depth: number,
  ) {}

  /**
   * Next iterate from the current x and g = T(x) − x; writes it into `out` (may alias neither x nor g).
   * Plain Picard (out = x + g) on the first call, when depth = 0, or when the least-squares system is singular.
   */
  next(x: Float64Array, g: Float64Array, out: Float64Array): void {
    const n = this.length;
    if (this.depth > 0 && this.prevX !== null && this.prevG !== null) {
      const dx = this.dX.length === this.depth ? this.dX.shift()! : new Float64Array(n);
      const dg = this.dG.length === this.depth ? this.dG.shift()! : new Float64Array(n);
      for (let i = 0; i < n; i++) {
        dx[i] = x[i] - this.prevX[i];
        dg[i] = g[i] - this.prevG[i];
      }
      if (this.gram.length === this.depth) {
        this.gram.shift();
        for (const row of this.gram) row.shift();
      }
      this.dX.push(dx);
      this.dG.push(dg);
      const row: number[] = [];
      for (let p = 0; p < this.dG.length; p++) {
        const gp = this.dG[p];
        let t = 0;
        for (let i = 0; i < n; i++) t += gp[i] * dg[i];
        row.push(t);
        if (p < this.gram.length) this.gram[p].push(t);
      }
      this.gram.push(row);
    }
    if (this.depth > 0) {
      this.prevX ??= new Float64Array(n);
      this.prevG ??= new Float64Array(n);
      this.prevX.set(x);
      this.prevG.set(g);
    }
    for (let i = 0; i < n; i++) out[i] = x[i] + g[i];
    const m = this.dG.length;
    if (m === 0) return;
    const A = this.gram.map((row) => row.slice());
    const b = new Array<number>(m).fill(0);
    let trace = 0;
    for (let p = 0; p < m; p++) {
      const gp = this.dG[p];
      let s = 0;
      for (let i = 0; i < n; i++) s += gp[i] * g[i];
      b[p] = s;
      trace += A[p][p];
    }
    for (let p = 0; p < m; p++) A[p][p] += 1e-14 * trace + 1e-300;
    const gamma = solveSmall(A, b);
    if (gamma === null) {
      this.reset();
      return;
    }
    for (let p = 0; p < m; p++) {
      const c = gamma[p],
        dx = this.dX[p],
        dg = this.dG[p];
      for (let i = 0; i < n; i++) out[i] -= c * (dx[i] + dg[i]);
    }
  }

  /** Forgets the history (the next step is plain Picard). */
  reset(): void {
    this.dX.length = 0;
    this.dG.length = 0;
    this.gram.length = 0;
    this.prevX = null;
    this.prevG = null;
  }
}
