/**
 * The ODEX integrator (Hairer–Wanner: explicit extrapolation of the Gragg midpoint rule, step-size sequence 4 with
 * dense output), a port of odex 2.0.4 (Colin Smith's JavaScript port of ODEX.F) with the same arithmetic in the same
 * order, so every step, count and dense value is the package's to the bit (test/numerics/odexCore.test.ts checks it).
 * Why a port: odex 2.0.4 builds its step functions as closures inside every `solve`, so V8 compiled them again on
 * every solve ("wrong feedback cell" deoptimisations; 38 % of the optimising compiler's time in a heavy `compare`
 * cell); here they are methods of one class, compiled once per thread. Only what numerics/odex.ts uses is kept:
 * scalar tolerances, dense output always on, the package's defaults for every other setting (step-size sequence 4).
 * Source: Hairer, Nørsett, Wanner, Solving ODEs I, §II.9; theory.md §2 ("odex pitfalls").
 *
 * odex 2.0.4: Copyright (c) 2016 Colin Smith; ODEX.F: E. Hairer and G. Wanner. Both under the BSD 2-clause licence:
 * 1. Redistributions of source code must retain the above copyright notice, this list of conditions and the following
 * disclaimer.
 * 2. Redistributions in binary form must reproduce the above copyright notice, this list of conditions and the
 * following disclaimer in the documentation and/or other materials provided with the distribution.
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES,
 * INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE
 * ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT,
 * INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE
 * GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF
 * LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY
 * OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 */

/** How an integration ended (odex's Outcome, same numbers). */
export const OdexOutcome = { Converged: 0, MaxStepsExceeded: 1, EarlyReturn: 2 } as const;
export type OdexOutcome = (typeof OdexOutcome)[keyof typeof OdexOutcome];

/** Dense output on the last accepted step: component c (0-based, one of the dense components) at time t in it. */
export type DenseOutput = (c: number, t: number) => number;

/**
 * Called once at the start (xOld = x = t0, no dense output) and on every accepted step [xOld, x] with the state y at
 * x (a fresh 0-based copy) and its dense output (valid until the next call); false stops the integration.
 */
export type OdexObserver = (xOld: number, x: number, y: number[], dense: DenseOutput | undefined) => boolean;

export interface OdexCoreOptions {
  /** Relative and absolute tolerance (odex's relativeTolerance = absoluteTolerance, scalars). */
  readonly tolerance: number;
  /** Step budget (odex maxSteps, > 0). */
  readonly maxSteps: number;
  /** Components (0-based) with dense output; default all. */
  readonly denseComponents?: readonly number[];
}

export interface OdexCoreResult {
  outcome: OdexOutcome;
  nStep: number;
  nAccept: number;
  nReject: number;
  nEval: number;
}

// odex 2.0.4's defaults for the settings numerics/odex.ts never changes
const U_ROUND = 2.3e-16;
const INITIAL_STEP = 1e-4;
const KM = 9; // maxExtrapolationColumns
const STABILITY_CHECK_COUNT = 1;
const STABILITY_CHECK_LINES = 2;
const INTERPOLATION_DEGREE = 4;
const STEP_REDUCTION = 0.5;
const FAC1 = 0.02;
const FAC2 = 4.0;
const FAC3 = 0.8;
const FAC4 = 0.9;
const SAFE1 = 0.65;
const SAFE2 = 0.94;

/** The order after a step that converged in line 2 (odex: min(3, maxExtrapolationColumns − 1)). */
const KOPT_AFTER_2 = Math.min(3, KM - 1);

const START = 0;
const BASIC_STEP = 1;
const CONVERGENCE_STEP = 2;
const HOPE_FOR_CONVERGENCE = 3;
const ACCEPT = 4;
const REJECT = 5;

/**
 * A 1-based array of length n (entry 0 unused), odex's `Solver.dim`, of doubles from the start: NaN where odex leaves
 * an entry unset (undefined, which arithmetic reads as NaN too), so V8 never changes the array's elements kind (a
 * change deoptimised the step functions).
 */
function dim(n: number): number[] {
  return new Array<number>(n + 1).fill(NaN);
}

/** A 1-based r × c table (odex's `Solver.dim2`). */
function dim2(r: number, c: number): number[][] {
  const a = new Array<number[]>(r + 1);
  for (let i = 1; i <= r; ++i) a[i] = dim(c);
  return a;
}

/** A 1-based array of small integers (indices, step counts), entries unset as `Solver.dim`'s. */
function dimIndex(n: number): number[] {
  return new Array<number>(n + 1);
}

/**
 * One ODEX integration: odex's `solve` and `odxcor` locals as fields, its inner functions as methods. Run it with
 * `Odex.solve`, the one entry (a test can watch every integration with `vi.spyOn(Odex, 'solve')`).
 */
export class Odex {
  /**
   * Integrates dy/dt = f(t, y) from t0 to tEnd with ODEX (see the module's comment), showing the start and every
   * accepted step to `observer`.
   * @param f right-hand side; y and the returned derivative have length y0.length. Whatever it throws passes through.
   * @throws {Error} on a step budget ≤ 0 or a dense component outside [0, y0.length], as odex does.
   */
  static solve(
    f: (t: number, y: number[]) => number[],
    t0: number,
    y0: readonly number[],
    tEnd: number,
    options: OdexCoreOptions,
    observer: OdexObserver,
  ): OdexCoreResult {
    if (options.maxSteps <= 0) throw new Error('maxSteps must be positive');
    return new Odex(f, t0, y0, tEnd, options, observer).run();
  }

  private readonly n: number;
  private readonly y: number[];
  private readonly dz: number[];
  private readonly yh1: number[];
  private readonly yh2: number[];
  private readonly dy: number[];
  private readonly icom: number[];
  private readonly nrd: number;
  // the scalars that hold times, steps and errors start as doubles (NaN), so a first integer value (t0 = 0) does
  // not give the object a map that a later double deprecates (a deoptimisation of the step functions)
  private readonly hMax: number = NaN;
  private readonly tol: number = NaN;
  private readonly xEnd: number = NaN;
  private readonly dens: number[];
  private readonly fSafe: number[][];
  private readonly ySafe: number[][];
  private readonly hh: number[];
  private readonly t: number[][];
  private readonly nj: number[];
  private readonly a: number[];
  private readonly scal: number[];
  private readonly iPoint: number[];
  private readonly errfac: number[];
  private readonly w: number[];
  private readonly posneg: number;
  private readonly maxSteps: number;
  private nEval = 0;
  private nStep = 0;
  private nAccept = 0;
  private nReject = 0;
  private xOldd = NaN;
  private hhh = NaN;
  private x = NaN;
  private xOld = NaN;
  private h = NaN;
  private k: number;
  private kc = 0;
  private iPt = 0;
  private err = NaN;
  private errOld = 1e10;
  private hoptde = NaN;
  private reject = false;
  private last = false;
  private atov = false;

  private constructor(
    private readonly f: (t: number, y: number[]) => number[],
    x: number,
    y0: readonly number[],
    xEnd: number,
    options: OdexCoreOptions,
    private readonly observer: OdexObserver,
  ) {
    const n = (this.n = y0.length);
    this.y = dim(n);
    this.y[0] = 0;
    for (let i = 1; i <= n; ++i) this.y[i] = y0[i - 1];
    this.dz = dim(n);
    this.yh1 = dim(n);
    this.yh2 = dim(n);
    this.dy = dim(n);
    this.icom = [0];
    if (options.denseComponents) {
      for (const c of options.denseComponents) {
        if (c < 0 || c > n) throw new Error('bad dense component: ' + c);
        this.icom.push(c + 1);
      }
    } else for (let i = 1; i <= n; ++i) this.icom.push(i);
    const nrdens = this.icom.length - 1;
    this.xEnd = xEnd;
    this.err = 0;
    this.hMax = Math.abs(xEnd - x);
    this.tol = options.tolerance;
    this.maxSteps = options.maxSteps;
    this.nrd = Math.max(1, nrdens);
    this.dens = dim(Math.max(1, (2 * KM + 5) * nrdens));
    this.fSafe = dim2(2 * KM * KM + KM, this.nrd);
    this.ySafe = dim2(KM, this.nrd);
    this.hh = dim(KM);
    this.t = dim2(KM, n);
    this.nj = dimIndex(KM);
    this.nj[0] = 0;
    for (let i = 1; i <= KM; ++i) this.nj[i] = 4 * i - 2;
    this.a = dim(KM);
    this.a[1] = 1 + this.nj[1];
    for (let i = 2; i <= KM; ++i) this.a[i] = this.a[i - 1] + this.nj[i];
    this.scal = dim(n);
    for (let i = 1; i <= n; ++i) this.scal[i] = this.tol + this.tol + Math.abs(this.y[i]);
    this.posneg = xEnd - x >= 0 ? 1 : -1;
    this.k = Math.max(2, Math.min(KM - 1, Math.floor(-(Math.log(this.tol + 1e-40) / Math.LN10) * 0.6 + 1.5)));
    const h = Math.max(Math.abs(INITIAL_STEP), 1e-4);
    this.h = this.posneg * Math.min(h, this.hMax, Math.abs(xEnd - x) / 2);
    this.iPoint = dimIndex(KM + 1);
    this.errfac = dim(2 * KM);
    this.x = x;
    this.xOld = x;
    this.iPoint[1] = 0;
    for (let i = 1; i <= KM; ++i) {
      let njAdd = 4 * i - 2;
      if (this.nj[i] > njAdd) ++njAdd;
      this.iPoint[i + 1] = this.iPoint[i] + njAdd;
    }
    for (let mu = 1; mu <= 2 * KM; ++mu) {
      const errx = Math.sqrt(mu / (mu + 4)) * 0.5;
      let prod = Math.pow(1 / (mu + 4), 2);
      for (let j = 1; j <= mu; ++j) prod *= errx / j;
      this.errfac[mu] = prod;
    }
    this.hoptde = this.posneg * this.hMax;
    this.w = dim(KM);
    this.w[1] = 0;
  }

  /** odex's F: f on the 1-based y, written into the 1-based yp. */
  private F(x: number, y: number[], yp: number[]): void {
    const ret = callRhs(this.f, x, y.slice(1));
    for (let i = 0; i < ret.length; ++i) yp[i + 1] = ret[i];
  }

  private counts(outcome: OdexOutcome): OdexCoreResult {
    return { outcome, nStep: this.nStep, nAccept: this.nAccept, nReject: this.nReject, nEval: this.nEval };
  }

  /** odxcor's state machine. */
  private run(): OdexCoreResult {
    if (callObserver(this.observer, this.xOld, this.x, this.y.slice(1), undefined) === false) return this.counts(OdexOutcome.EarlyReturn);
    const nj = this.nj;
    let state = START;
    for (;;) {
      switch (state) {
        case START: {
          this.atov = false;
          // is xEnd reached in the next step?
          if (0.1 * Math.abs(this.xEnd - this.x) <= Math.abs(this.x) * U_ROUND) return this.counts(OdexOutcome.Converged);
          this.h = this.posneg * Math.min(Math.abs(this.h), Math.abs(this.xEnd - this.x), this.hMax, Math.abs(this.hoptde));
          if ((this.x + 1.01 * this.h - this.xEnd) * this.posneg > 0) {
            this.h = this.xEnd - this.x;
            this.last = true;
          }
          if (this.nStep === 0) {
            this.F(this.x, this.y, this.dz);
            ++this.nEval;
          }
          // the first and last step
          if (this.nStep === 0 || this.last) {
            this.iPt = 0;
            ++this.nStep;
            state = HOPE_FOR_CONVERGENCE;
            for (let j = 1; j <= this.k; ++j) {
              this.kc = j;
              this.midex(j);
              if (this.atov) {
                state = START;
                break;
              }
              if (j > 1 && this.err <= 1) {
                state = ACCEPT;
                break;
              }
            }
            continue;
          }
          state = BASIC_STEP;
          continue;
        }
        case BASIC_STEP: {
          this.iPt = 0;
          ++this.nStep;
          if (this.nStep >= this.maxSteps) return this.counts(OdexOutcome.MaxStepsExceeded);
          this.kc = this.k - 1;
          let restart = false;
          for (let j = 1; j <= this.kc; ++j) {
            this.midex(j);
            if (this.atov) {
              restart = true;
              break;
            }
          }
          if (restart) {
            state = START;
            continue;
          }
          // convergence monitor
          if (this.k === 2 || this.reject) state = CONVERGENCE_STEP;
          else if (this.err <= 1) state = ACCEPT;
          else if (this.err > Math.pow((nj[this.k + 1] * nj[this.k]) / 4, 2)) state = REJECT;
          else state = CONVERGENCE_STEP;
          continue;
        }
        case CONVERGENCE_STEP:
          this.midex(this.k);
          if (this.atov) {
            state = START;
            continue;
          }
          this.kc = this.k;
          state = this.err <= 1 ? ACCEPT : HOPE_FOR_CONVERGENCE;
          continue;
        case HOPE_FOR_CONVERGENCE:
          // hope for convergence in line k + 1
          if (this.err > Math.pow(nj[this.k + 1] / 2, 2)) {
            state = REJECT;
            continue;
          }
          this.kc = this.k + 1;
          this.midex(this.kc);
          state = this.atov ? START : this.err > 1 ? REJECT : ACCEPT;
          continue;
        case ACCEPT:
          if (!this.acceptStep(this.n)) return this.counts(OdexOutcome.EarlyReturn);
          state = START;
          continue;
        case REJECT:
          this.k = Math.min(this.k, this.kc, KM - 1);
          if (this.k > 2 && this.w[this.k - 1] < this.w[this.k] * FAC3) this.k -= 1;
          ++this.nReject;
          this.h = this.posneg * this.hh[this.k];
          this.reject = true;
          state = BASIC_STEP;
      }
    }
  }

  /**
   * The jth line of the extrapolation table and an estimate of the optimal step size (odex's midex).
   */
  private midex(j: number): void {
    const n = this.n;
    const { nj, yh1, yh2, y, dz, ySafe, icom, fSafe, scal, t, dy } = this;
    const nrd = this.nrd;
    const h = this.h;
    const hj = h / nj[j];
    // Euler starting step
    for (let i = 1; i <= n; ++i) {
      yh1[i] = y[i];
      yh2[i] = y[i] + hj * dz[i];
    }
    // explicit midpoint rule
    const m = nj[j] - 1;
    const njMid = (nj[j] / 2) | 0;
    for (let mm = 1; mm <= m; ++mm) {
      if (mm === njMid) {
        for (let i = 1; i <= nrd; ++i) ySafe[j][i] = yh2[icom[i]];
      }
      this.F(this.x + hj * mm, yh2, dy);
      if (Math.abs(mm - njMid) <= 2 * j - 1) {
        ++this.iPt;
        const row = fSafe[this.iPt];
        for (let i = 1; i <= nrd; ++i) row[i] = dy[icom[i]];
      }
      for (let i = 1; i <= n; ++i) {
        const ys = yh1[i];
        yh1[i] = yh2[i];
        yh2[i] = ys + 2 * hj * dy[i];
      }
      if (mm <= STABILITY_CHECK_COUNT && j <= STABILITY_CHECK_LINES) {
        // stability check
        let del1 = 0;
        for (let i = 1; i <= n; ++i) del1 += Math.pow(dz[i] / scal[i], 2);
        let del2 = 0;
        for (let i = 1; i <= n; ++i) del2 += Math.pow((dy[i] - dz[i]) / scal[i], 2);
        const quot = del2 / Math.max(U_ROUND, del1);
        if (this.abortLine(quot > 4, 1)) return;
      }
    }
    // final smoothing step
    this.F(this.x + h, yh2, dy);
    if (njMid <= 2 * j - 1) {
      ++this.iPt;
      const row = fSafe[this.iPt];
      for (let i = 1; i <= nrd; ++i) row[i] = dy[icom[i]];
    }
    const tj = t[j];
    for (let i = 1; i <= n; ++i) tj[i] = (yh1[i] + yh2[i] + hj * dy[i]) / 2;
    this.nEval += nj[j];
    // polynomial extrapolation
    if (j === 1) return;
    const dblenj = nj[j];
    let fac: number;
    for (let l = j; l > 1; --l) {
      fac = Math.pow(dblenj / nj[l - 1], 2) - 1;
      const tl = t[l];
      const tl1 = t[l - 1];
      for (let i = 1; i <= n; ++i) tl1[i] = tl[i] + (tl[i] - tl1[i]) / fac;
    }
    let err = 0;
    // scaling
    const t1 = t[1];
    const t2 = t[2];
    for (let i = 1; i <= n; ++i) {
      const t1i = Math.max(Math.abs(y[i]), Math.abs(t1[i]));
      scal[i] = this.tol + this.tol * t1i;
      err += Math.pow((t1[i] - t2[i]) / scal[i], 2);
    }
    err = Math.sqrt(err / n);
    this.err = err;
    const errOld = this.errOld;
    if (this.abortLine(err * U_ROUND >= 1 || (j > 2 && err >= errOld), 0)) return;
    this.errOld = Math.max(4 * err, 1);
    // compute optimal step sizes
    const exp0 = 1 / (2 * j - 1);
    const facMin = Math.pow(FAC1, exp0);
    fac = Math.min(FAC2 / facMin, Math.max(facMin, Math.pow(err / SAFE1, exp0) / SAFE2));
    fac = 1 / fac;
    this.hh[j] = Math.min(Math.abs(h) * fac, this.hMax);
    this.w[j] = this.a[j] / this.hh[j];
  }

  /**
   * Ends the current line when `abort` (odex's atov: the step is halved and marked rejected, `evals` more evaluations
   * counted), else changes nothing. Called on every check, not only on an abort, so the optimised step functions never
   * reach operations that have never run (each such first run deoptimised midex and V8 compiled it again).
   * @returns abort.
   */
  private abortLine(abort: boolean, evals: number): boolean {
    this.atov = abort;
    this.nEval += abort ? evals : 0;
    this.h *= abort ? STEP_REDUCTION : 1;
    this.reject = abort || this.reject;
    return abort;
  }

  /**
   * Accepts the step: dense output, the observer, the next order and step size (odex's acceptStep). @returns false
   * when the observer asked to stop.
   */
  private acceptStep(n: number): boolean {
    const { nj, ySafe, dens, icom, t, dz, yh1, yh2, fSafe, iPoint, y, w, hh, a } = this;
    const nrd = this.nrd;
    this.xOld = this.x;
    this.x += this.h;
    const h = this.h;
    const kc = this.kc;
    // kmit = mu of the paper
    const kmit = 2 * kc - INTERPOLATION_DEGREE + 1;
    for (let i = 1; i <= nrd; ++i) dens[i] = y[icom[i]];
    this.xOldd = this.xOld;
    this.hhh = h;
    for (let i = 1; i <= nrd; ++i) dens[nrd + i] = h * dz[icom[i]];
    const kln = 2 * nrd;
    for (let i = 1; i <= nrd; ++i) dens[kln + i] = t[1][icom[i]];
    // the solution at the mid-point
    for (let j = 2; j <= kc; ++j) {
      const dblenj = nj[j];
      for (let l = j; l >= 2; --l) {
        const factor = Math.pow(dblenj / nj[l - 1], 2) - 1;
        const sl = ySafe[l];
        const sl1 = ySafe[l - 1];
        for (let i = 1; i <= nrd; ++i) sl1[i] = sl[i] + (sl[i] - sl1[i]) / factor;
      }
    }
    let krn = 4 * nrd;
    for (let i = 1; i <= nrd; ++i) dens[krn + i] = ySafe[1][i];
    // the first derivative at the right end
    for (let i = 1; i <= n; ++i) yh1[i] = t[1][i];
    this.F(this.x, yh1, yh2);
    krn = 3 * nrd;
    for (let i = 1; i <= nrd; ++i) dens[krn + i] = yh2[icom[i]] * h;
    for (let kmi = 1; kmi <= kmit; ++kmi) {
      // the kmi-th derivative at the mid-point
      const kbeg = ((kmi + 1) / 2) | 0;
      for (let kk = kbeg; kk <= kc; ++kk) {
        const facnj = Math.pow(nj[kk] / 2, kmi - 1);
        this.iPt = iPoint[kk + 1] - 2 * kk + kmi;
        const row = fSafe[this.iPt];
        const s = ySafe[kk];
        for (let i = 1; i <= nrd; ++i) s[i] = row[i] * facnj;
      }
      for (let j = kbeg + 1; j <= kc; ++j) {
        const dblenj = nj[j];
        for (let l = j; l >= kbeg + 1; --l) {
          const factor = Math.pow(dblenj / nj[l - 1], 2) - 1;
          const sl = ySafe[l];
          const sl1 = ySafe[l - 1];
          for (let i = 1; i <= nrd; ++i) sl1[i] = sl[i] + (sl[i] - sl1[i]) / factor;
        }
      }
      krn = (kmi + 4) * nrd;
      for (let i = 1; i <= nrd; ++i) dens[krn + i] = ySafe[kbeg][i] * h;
      if (kmi === kmit) continue;
      // differences
      for (let kk = ((kmi + 2) / 2) | 0; kk <= kc; ++kk) {
        const lbeg = iPoint[kk + 1];
        let lend = iPoint[kk] + kmi + 1;
        if (kmi === 1) lend += 2; // step-size sequence 4
        let l: number;
        for (l = lbeg; l >= lend; l -= 2) {
          const fl = fSafe[l];
          const fl2 = fSafe[l - 2];
          for (let i = 1; i <= nrd; ++i) fl[i] -= fl2[i];
        }
        if (kmi === 1) {
          l = lend - 2;
          const fl = fSafe[l];
          for (let i = 1; i <= nrd; ++i) fl[i] -= dz[icom[i]];
        }
      }
      // differences
      for (let kk = ((kmi + 2) / 2) | 0; kk <= kc; ++kk) {
        const lbeg = iPoint[kk + 1] - 1;
        const lend = iPoint[kk] + kmi + 2;
        for (let l = lbeg; l >= lend; l -= 2) {
          const fl = fSafe[l];
          const fl2 = fSafe[l - 2];
          for (let i = 1; i <= nrd; ++i) fl[i] -= fl2[i];
        }
      }
    }
    interpolationCoefficients(nrd, dens, kmit);
    // estimate of the interpolation error
    if (kmit >= 1) {
      let errint = 0;
      for (let i = 1; i <= nrd; ++i) errint += Math.pow(dens[(kmit + 4) * nrd + i] / this.scal[icom[i]], 2);
      errint = Math.sqrt(errint / nrd) * this.errfac[kmit];
      this.hoptde = h / Math.max(Math.pow(errint, 1 / (kmit + 4)), 0.01);
      if (errint > 10) {
        this.h = this.hoptde;
        this.x = this.xOld;
        ++this.nReject;
        this.reject = true;
        return true;
      }
    }
    for (let i = 1; i <= n; ++i) dz[i] = yh2[i];
    for (let i = 1; i <= n; ++i) y[i] = t[1][i];
    ++this.nAccept;
    if (callObserver(this.observer, this.xOld, this.x, y.slice(1), denseOutput(nrd, icom, this.xOldd, this.hhh, kmit, dens)) === false)
      return false;
    // the optimal order and the next step size: odex's branches, but every comparison and candidate is computed on
    // every step and only the choice branches, so the optimised acceptStep never reaches an operation that has never
    // run (the order's corner cases deoptimised it again and again); entries w[0], a[KM] are NaN/defined, unused
    const k = this.k;
    const reject = this.reject;
    const kDown = kc - 1;
    const kDown2 = kc - 2;
    const kUp = Math.min(kc + 1, KM - 1);
    const kSame = Math.min(kc, KM - 1);
    const down = w[kDown] < w[kc] * FAC3;
    const up = w[kc] < w[kDown] * FAC4;
    const down2 = w[kDown2] < w[kDown] * FAC3;
    const kLow = kc > 3 && down2 ? kDown2 : kDown;
    const upFromLow = w[kc] < w[kLow] * FAC4;
    const kopt = kc === 2 ? (reject ? 2 : KOPT_AFTER_2) : kc <= k ? (up ? kUp : down ? kDown : kc) : upFromLow ? kSame : kLow;
    const hUp = (hh[kc] * a[kopt + 1]) / a[kc];
    const hSame = (hh[kc] * a[kopt]) / a[kc];
    const hNext = kopt <= kc ? hh[kopt] : kc < k && up ? hUp : hSame;
    // after a rejected step: no larger order, no larger step
    const kAfterReject = Math.min(kopt, kc);
    const hAfterReject = this.posneg * Math.min(Math.abs(this.h), Math.abs(hh[kAfterReject]));
    this.k = reject ? kAfterReject : kopt;
    this.h = reject ? hAfterReject : this.posneg * Math.abs(hNext);
    this.reject = false;
    return true;
  }
}

/**
 * f(x, y): the one call site of every right-hand side. Each solve brings its own closure, so V8 compiled the call
 * inlined for the first one it saw and deoptimised the step functions on the next ("wrong call target", then "wrong
 * feedback cell"); the warm-up below makes the site megamorphic before any solve (more than 8 calls, so V8 has given
 * the function its feedback vector), a plain call that every closure takes.
 */
function callRhs(f: (t: number, y: number[]) => number[], x: number, y: number[]): number[] {
  return f(x, y);
}
const RHS_WARM_UP = [(): number[] => [], (_t: number, y: number[]): number[] => y];
for (let i = 0; i < 32; ++i) callRhs(RHS_WARM_UP[i % 2], 0, []);

/** observer(xOld, x, y, dense): the one call site of every observer, made megamorphic up front as `callRhs`'s. */
function callObserver(observer: OdexObserver, xOld: number, x: number, y: number[], dense: DenseOutput | undefined): boolean {
  return observer(xOld, x, y, dense);
}
const OBSERVER_WARM_UP: OdexObserver[] = [() => true, (_xOld, _x, y) => y.length === 0];
for (let i = 0; i < 32; ++i) callObserver(OBSERVER_WARM_UP[i % 2], 0, 0, [], undefined);

/** The coefficients of the interpolation formula, in place in `y` (odex's interp). */
function interpolationCoefficients(n: number, y: number[], imit: number): void {
  const a = new Array<number>(31).fill(NaN); // zero-based: 0..30
  // Hermite interpolation first
  for (let i = 1; i <= n; ++i) {
    const y0 = y[i];
    const y1 = y[2 * n + i];
    const yp0 = y[n + i];
    const yp1 = y[3 * n + i];
    const yDiff = y1 - y0;
    const aspl = -yp1 + yDiff;
    const bspl = yp0 - yDiff;
    y[n + i] = yDiff;
    y[2 * n + i] = aspl;
    y[3 * n + i] = bspl;
    if (imit < 0) continue;
    // the derivatives of the Hermite polynomial at the mid-point
    const ph0 = (y0 + y1) * 0.5 + 0.125 * (aspl + bspl);
    const ph1 = yDiff + (aspl - bspl) * 0.25;
    const ph2 = -(yp0 - yp1);
    const ph3 = 6 * (bspl - aspl);
    // the further coefficients
    if (imit >= 1) {
      a[1] = 16 * (y[5 * n + i] - ph1);
      if (imit >= 3) {
        a[3] = 16 * (y[7 * n + i] - ph3 + 3 * a[1]);
        if (imit >= 5) {
          for (let im = 5; im <= imit; im += 2) {
            const fac1 = (im * (im - 1)) / 2;
            const fac2 = fac1 * (im - 2) * (im - 3) * 2;
            a[im] = 16 * (y[(im + 4) * n + i] + fac1 * a[im - 2] - fac2 * a[im - 4]);
          }
        }
      }
    }
    a[0] = (y[4 * n + i] - ph0) * 16;
    if (imit >= 2) {
      a[2] = (y[n * 6 + i] - ph2 + a[0]) * 16;
      if (imit >= 4) {
        for (let im = 4; im <= imit; im += 2) {
          const fac1 = (im * (im - 1)) / 2;
          const fac2 = im * (im - 1) * (im - 2) * (im - 3);
          a[im] = (y[n * (im + 4) + i] + a[im - 2] * fac1 - a[im - 4] * fac2) * 16;
        }
      }
    }
    for (let im = 0; im <= imit; ++im) y[n * (im + 4) + i] = a[im];
  }
}

/** The dense output of one accepted step (odex's contex): reads `y` (the `dens` table) when called. */
function denseOutput(nrd: number, icom: readonly number[], xOld: number, h: number, imit: number, y: readonly number[]): DenseOutput {
  return (c, x) => {
    let i = 0;
    // components are 0-based outside, 1-based in icom
    for (let j = 1; j <= nrd; ++j) if (icom[j] === c + 1) i = j;
    if (i === 0) throw new Error('no dense output available for component ' + c);
    const theta = (x - xOld) / h;
    const theta1 = 1 - theta;
    const phthet = y[i] + theta * (y[nrd + i] + theta1 * (y[2 * nrd + i] * theta + y[3 * nrd + i] * theta1));
    if (imit < 0) return phthet;
    const thetah = theta - 0.5;
    let ret = y[nrd * (imit + 4) + i];
    for (let im = imit; im >= 1; --im) ret = y[nrd * (im + 3) + i] + (ret * thetah) / im;
    return phthet + Math.pow(theta * theta1, 2) * ret;
  };
}
