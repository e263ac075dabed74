/**
 * Finite-n simulation of a density-dependent population model (Gillespie's direct method): the state X^(n) lives on
 * the lattice (1/n)ℤ^K, each transition ℓ fires at rate n·β_ℓ(x) and moves x by ℓ/n. The rates are the model's
 * compiled expressions (compile.ts, as in populationDrift), re-evaluated after a jump only for the transitions whose
 * rate names a variable that changed. Time averages of the state and of the observables over [warmup, warmup +
 * horizon], over independent replications with Student-t intervals, are what the refined mean field π + V/n
 * predicts (theory.md §6; §8 for replications and warm-up). Pure: no I/O.
 * Source: Gillespie, J. Comput. Phys. 22(4), 1976; Kurtz, J. Appl. Prob. 7(1), 1970; rmf_tool's `DDPP.simulate`.
 */
import { InvalidModelError, SolverError } from '../errors.ts';
import { feasible, tInterval, type Estimate } from '../stats/tInterval.ts';
import { Rng, streamSeed } from '../stats/rng.ts';
import { VERSION, codeId } from '../version.ts';
import { compileNode, referencedVariables, type Evaluator } from '../model/population/compile.ts';
import { prepareExpression } from '../model/population/expression.ts';
import { symbolTable, type PopulationModel } from '../model/population/parse.ts';

export interface PopulationSimulationOptions {
  /** Population size n (e.g. servers), integer in [1, 10⁹]. */
  n: number;
  /** Measured time per replication after the warm-up, model time units, > 0. */
  horizon: number;
  /** Time discarded before measuring, ≥ 0 (default 0; `simulationWarmup` in meanfield/warmup.ts proposes one). */
  warmup?: number;
  /** Independent replications, integer ≥ 2 (default 10); replication r uses stream streamSeed(seed, r). */
  replications?: number;
  /** Master seed, a safe integer (default 1). */
  seed?: number;
  /** Start state (length K, default the model's `initial`), rounded to the nearest lattice point round(n·x)/n. */
  from?: ArrayLike<number>;
  /** Event cap per replication (default 10⁹): a guard against a horizon far too long for n. */
  maxEvents?: number;
}

export interface PopulationReplication {
  /** Time average of x_i over the measured window (length K). */
  x: number[];
  /** Observable name → its time average over the window. */
  observables: Record<string, number>;
  /** Jumps fired, warm-up included. */
  events: number;
}

export interface PopulationSimulationResult {
  n: number;
  /** Time-average state, x[i] for model.variables[i], each an Estimate over replications (95% Student-t). */
  x: Estimate[];
  /** Observable name → time average of g(X^(n)(t)) (Estimate over replications). */
  observables: Record<string, Estimate>;
  /** Jumps fired in all replications. */
  events: number;
  warmup: number;
  horizon: number;
  perReplication: PopulationReplication[];
  /** Master seed and the stream seeds (hex), one per replication. */
  seeds: { master: number; replications: string[] };
  provenance: {
    model: string;
    parameters: Readonly<Record<string, number>>;
    method: string;
    source: string;
    version: string;
    code: string;
  };
}

interface Compiled {
  rate: Evaluator[];
  /** jumpIndex[ℓ], jumpValue[ℓ]: the non-zero entries of ℓ. */
  jumpIndex: Int32Array[];
  jumpValue: Float64Array[];
  /** dependents[i] = transitions whose rate names variable i. */
  dependents: Int32Array[];
  observableNames: string[];
  observable: Evaluator[];
}

function compile(model: PopulationModel): Compiled {
  const table = symbolTable(model);
  const index = table.variables;
  const K = model.variables.length;
  const prefix = model.file ? `${model.file}: ` : '';
  const deps: number[][] = Array.from({ length: K }, () => []);
  const rate = model.transitions.map((t, l) => {
    const where = `${prefix}${t.label}.rate`;
    const node = prepareExpression(t.rate, table, where);
    for (const i of referencedVariables(node, index)) deps[i].push(l);
    return compileNode(node, index, where);
  });
  const observableNames = Object.keys(model.observables);
  return {
    rate,
    jumpIndex: model.transitions.map((t) => Int32Array.from(Object.keys(t.change).map((v) => index.get(v)!))),
    jumpValue: model.transitions.map((t) => Float64Array.from(Object.values(t.change))),
    dependents: deps.map((d) => Int32Array.from(d)),
    observableNames,
    observable: observableNames.map((name) =>
      compileNode(prepareExpression(model.observables[name], table, `${prefix}observables.${name}`), index, `${prefix}observables.${name}`),
    ),
  };
}

function checkRate(model: PopulationModel, l: number, beta: number, x: Float64Array): number {
  if (beta >= 0 && beta < Infinity) return beta;
  if (beta < 0 && beta > -1e-12) return 0; // rounding in expressions such as s_{i−1}^d − s_i^d at equality
  const shown = Array.from(x.subarray(0, 6), (v, i) => `${model.variables[i]}=${v}`).join(', ');
  throw new InvalidModelError(
    `${model.file ? `${model.file}: ` : ''}${model.transitions[l].label}: rate must be finite and ≥ 0, got ${beta} at state ${shown}${x.length > 6 ? ', …' : ''}`,
  );
}

function positiveInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new InvalidModelError(`${name} must be an integer in [${min}, ${max}], got ${value}`);
  return value;
}

/** One replication: Gillespie's direct method with time averages over [warmup, warmup + horizon]. */
function runReplication(
  model: PopulationModel,
  c: Compiled,
  n: number,
  start: Float64Array,
  warmup: number,
  horizon: number,
  rng: Rng,
  maxEvents: number,
): PopulationReplication {
  const K = start.length;
  const L = c.rate.length;
  const counts = Float64Array.from(start, (v) => Math.round(n * v));
  const x = Float64Array.from(counts, (v) => v / n);
  const beta = new Float64Array(L);
  let total = 0;
  for (let l = 0; l < L; l++) total += beta[l] = checkRate(model, l, c.rate[l](x), x);
  const areaX = new Float64Array(K);
  const areaG = new Float64Array(c.observable.length);
  const gNow = Float64Array.from(c.observable, (g) => g(x));
  const end = warmup + horizon;
  let t = 0;
  let events = 0;
  const stamp = new Uint32Array(L); // dedupe of transitions to re-evaluate after a jump
  let epoch = 0;
  while (t < end) {
    const dt = total > 0 ? rng.nextExp() / (n * total) : Infinity;
    const lo = Math.max(t, warmup);
    const hi = Math.min(t + dt, end);
    if (hi > lo) {
      const w = hi - lo;
      for (let i = 0; i < K; i++) areaX[i] += w * x[i];
      for (let o = 0; o < gNow.length; o++) areaG[o] += w * gNow[o];
    }
    t += dt;
    if (t >= end) break;
    if (++events > maxEvents)
      throw new SolverError(
        `population simulation exceeded maxEvents = ${maxEvents} at t = ${t.toFixed(3)} of ${end} (n = ${n}); shorten the horizon or raise maxEvents`,
      );
    let u = rng.nextDouble() * total;
    let l = 0;
    while (l < L - 1 && (u >= beta[l] || beta[l] === 0)) u -= beta[l++];
    while (beta[l] === 0) l--; // float residue of u past the last positive rate
    const idx = c.jumpIndex[l];
    const val = c.jumpValue[l];
    epoch = (epoch + 1) >>> 0 || 1;
    for (let m = 0; m < idx.length; m++) {
      const i = idx[m];
      counts[i] += val[m];
      x[i] = counts[i] / n;
    }
    for (let m = 0; m < idx.length; m++) {
      const dep = c.dependents[idx[m]];
      for (let q = 0; q < dep.length; q++) {
        const k = dep[q];
        if (stamp[k] === epoch) continue;
        stamp[k] = epoch;
        const b = checkRate(model, k, c.rate[k](x), x);
        total += b - beta[k];
        beta[k] = b;
      }
    }
    if ((events & 0xffff) === 0) {
      total = 0;
      for (let k = 0; k < L; k++) total += beta[k];
    } // bound the drift of the running sum
    for (let o = 0; o < gNow.length; o++) gNow[o] = c.observable[o](x);
  }
  const observables: Record<string, number> = {};
  c.observableNames.forEach((name, o) => {
    observables[name] = areaG[o] / horizon;
  });
  return { x: Array.from(areaX, (a) => a / horizon), observables, events };
}

/**
 * Simulates the population process of a model at size n and estimates time averages (theory.md §6: E[X^(n)] ≈
 * π + V/n; compare with `refinedAt(populationRefined(model), n)`).
 * @param model from `parsePopulationModel`; rates β_ℓ(x) must be finite and ≥ 0 on the states reached.
 * @param options `n`, `horizon` (measured time, model time units), `warmup` (0), `replications` (10), `seed` (1),
 *   `from` (the model's initial state), `maxEvents` (10⁹ per replication).
 * @returns `x` (length K) and `observables` as Estimates over replications (time averages over the window),
 *   `perReplication`, `events`, `seeds`, `provenance`. Same model, options and seed ⇒ identical numbers.
 * @throws {InvalidModelError} for n not an integer in [1, 10⁹], horizon not finite > 0, warmup not finite ≥ 0,
 *   replications < 2, a seed that is not a safe integer, `from` of the wrong length, a rate that is negative or not
 *   finite at a reached state. @throws {SolverError} if a replication exceeds maxEvents.
 * @example simulatePopulation(jsq, { n: 100, horizon: 2000, warmup: 200 }).observables.meanQueueLength.mean // ≈ 2.39
 */
export function simulatePopulation(model: PopulationModel, options: PopulationSimulationOptions): PopulationSimulationResult {
  const n = positiveInteger('n', options.n, 1, 1e9);
  const { horizon } = options;
  if (!(Number.isFinite(horizon) && horizon > 0)) throw new InvalidModelError(`horizon must be a finite number > 0, got ${horizon}`);
  const warmup = options.warmup ?? 0;
  if (!(Number.isFinite(warmup) && warmup >= 0)) throw new InvalidModelError(`warmup must be a finite number ≥ 0, got ${warmup}`);
  const replications = positiveInteger('replications', options.replications ?? 10, 2, 1e6);
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new InvalidModelError(`seed must be a safe integer, got ${seed}`);
  const maxEvents = options.maxEvents ?? 1e9;
  if (!(maxEvents >= 1)) throw new InvalidModelError(`maxEvents must be ≥ 1, got ${maxEvents}`);
  const K = model.variables.length;
  const from = options.from ?? model.initial;
  if (from.length !== K) throw new InvalidModelError(`from has ${from.length} values, the model has ${K} variables`);
  const start = Float64Array.from(from);
  if (!start.every(Number.isFinite)) throw new InvalidModelError('from must hold finite numbers');
  const c = compile(model);
  const perReplication: PopulationReplication[] = [];
  const streams: string[] = [];
  for (let r = 0; r < replications; r++) {
    const stream = streamSeed(seed, r);
    streams.push(`0x${stream.toString(16).padStart(16, '0')}`);
    perReplication.push(runReplication(model, c, n, start, warmup, horizon, new Rng(stream), maxEvents));
  }
  const observables: Record<string, Estimate> = {};
  for (const name of c.observableNames) observables[name] = tInterval(perReplication.map((p) => p.observables[name]));
  return {
    n,
    // population densities are ≥ 0: their intervals are intersected with [0, ∞) (coverage unchanged)
    x: Array.from({ length: K }, (_, i) => feasible(tInterval(perReplication.map((p) => p.x[i])), 0)),
    observables,
    events: perReplication.reduce((a, p) => a + p.events, 0),
    warmup,
    horizon,
    perReplication,
    seeds: { master: seed, replications: streams },
    provenance: {
      model: model.name,
      parameters: model.parameters,
      method: 'Gillespie direct method on (1/n)Z^K, time averages over [warmup, warmup + horizon], independent replications',
      source: 'theory.md §6 (jumps l/n at rate n*beta_l(x)), §8 (replications, Student-t CI); Gillespie 1976',
      version: VERSION,
      code: codeId(),
    },
  };
}
