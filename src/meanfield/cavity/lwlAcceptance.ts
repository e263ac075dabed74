/**
 * Acceptance probabilities of the LWL(d) cavity queue (theory.md §5): a potential arrival (rate λd) joins a server
 * with workload w > 0 with probability F̄(w)^{d−1}, and an idle server with probability (1 − ρ^d)/(d(1 − ρ)), where
 * F̄(w) = P(U > w) is the equilibrium workload ccdf of theory.md §4 — the exponential closed form or a table.
 */
import { InvalidModelError } from '../../errors.ts';
import { bracketIndex, interpolateAt } from '../../stats/bisect.ts';
import type { AcceptanceRule } from './cavityQueue.ts';

/** F̄ on a grid: ccdf[i] = P(U > grid[i]); grid strictly increasing from 0, model time units. */
export interface WorkloadCcdfTable {
  grid: number[];
  ccdf: number[];
}

/** (1 − ρ^d)/(d(1 − ρ)): the idle-server acceptance (1 when d = 1). */
export function idleAcceptance(rho: number, d: number): number {
  return (1 - rho ** d) / (d * (1 - rho));
}

/**
 * Exponential sizes of mean `meanService`: F̄(w)^{d−1} = 1/(ρ + (ρ^{1−d} − ρ)e^{(d−1)w/E[S]}) (theory.md §4,
 * Hellemans and Van Houdt 2018).
 */
export class ExponentialLwlAcceptance implements AcceptanceRule {
  private readonly idle: number;
  private readonly c: number;
  private readonly rate: number;
  constructor(
    private readonly rho: number,
    private readonly d: number,
    meanService: number,
  ) {
    this.idle = idleAcceptance(rho, d);
    this.c = rho ** (1 - d) - rho;
    this.rate = (d - 1) / meanService;
  }
  probability(workload: number, _jobs: number): number {
    if (!(workload > 0)) return this.idle;
    if (this.d === 1) return 1;
    return 1 / (this.rho + this.c * Math.exp(this.rate * workload));
  }
}

/**
 * F̄ interpolated linearly on a table (O(1) on a uniform grid, bisection otherwise); past the last grid point F̄ is
 * held at its last value (the table should reach where F̄ is negligible).
 */
export class TableLwlAcceptance implements AcceptanceRule {
  private readonly grid: Float64Array;
  private readonly ccdf: Float64Array;
  private readonly idle: number;
  private readonly step: number;
  private readonly uniform: boolean;
  /**
   * @throws {InvalidModelError} if grid and ccdf differ in length or have < 2 points, grid[0] ≠ 0, the grid is not
   *   strictly increasing, a value is outside [0, 1] or increases by more than 1e−9, or |ccdf[0] − ρ| > 1e−3.
   */
  constructor(
    table: WorkloadCcdfTable,
    rho: number,
    private readonly d: number,
  ) {
    const { grid, ccdf } = table ?? ({} as WorkloadCcdfTable);
    if (!Array.isArray(grid) || !Array.isArray(ccdf) || grid.length !== ccdf.length || grid.length < 2) {
      throw new InvalidModelError(`workloadCcdf needs grid and ccdf arrays of equal length ≥ 2, got ${grid?.length} and ${ccdf?.length}`);
    }
    if (grid[0] !== 0) throw new InvalidModelError(`workloadCcdf.grid[0] must be 0, got ${grid[0]}`);
    for (let i = 0; i < grid.length; i++) {
      if (i > 0 && !(grid[i] > grid[i - 1]))
        throw new InvalidModelError(
          `workloadCcdf.grid must be strictly increasing: grid[${i}] = ${grid[i]} ≤ grid[${i - 1}] = ${grid[i - 1]}`,
        );
      if (!(ccdf[i] >= 0 && ccdf[i] <= 1)) throw new InvalidModelError(`workloadCcdf.ccdf[${i}] must lie in [0, 1], got ${ccdf[i]}`);
      if (i > 0 && ccdf[i] > ccdf[i - 1] + 1e-9)
        throw new InvalidModelError(`workloadCcdf.ccdf must be non-increasing: ccdf[${i}] = ${ccdf[i]} > ccdf[${i - 1}] = ${ccdf[i - 1]}`);
    }
    if (Math.abs(ccdf[0] - rho) > 1e-3)
      throw new InvalidModelError(`workloadCcdf.ccdf[0] = F̄(0) must equal ρ = ${rho} (within 1e−3), got ${ccdf[0]}`);
    this.grid = Float64Array.from(grid);
    this.ccdf = Float64Array.from(ccdf);
    this.idle = idleAcceptance(rho, d);
    const n = grid.length - 1;
    this.step = grid[n] / n;
    this.uniform = grid.every((g, i) => Math.abs(g - i * this.step) <= 1e-9 * Math.max(1, grid[n]));
  }

  private ccdfAt(w: number): number {
    const g = this.grid;
    const n = g.length - 1;
    if (w >= g[n]) return this.ccdf[n];
    const i = this.uniform ? Math.min(n - 1, Math.floor(w / this.step)) : bracketIndex(g, w);
    return interpolateAt(g, this.ccdf, i, w);
  }

  probability(workload: number, _jobs: number): number {
    if (!(workload > 0)) return this.idle;
    return this.d === 1 ? 1 : this.ccdfAt(workload) ** (this.d - 1);
  }
}
