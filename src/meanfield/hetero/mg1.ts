/**
 * Heterogeneous servers under random selection (theory.md §7, §13): each job joins one server drawn by the sampling
 * law (class c with probability p_c: f_c uniform, f_c·speed_c/Σ f·speed speed-weighted), so in the n → ∞ limit every
 * server is an independent M/G/1 queue. A class-c server receives jobs at rate a_c = λp_c/f_c and drains work at
 * speed v_c; measured in its own work units (τ = v_c·t) it is the unit-speed M/G/1 queue of the same size law at
 * arrival rate a_c/v_c, load ρ_c = a_c·E[S]/v_c, so T_c = T′(a_c/v_c)/v_c with the discipline's M/G/1 formula T′
 * (meanfield/mg1, any discipline and size law it covers, predictions included: a prediction scales with its size).
 * E[T] = Σ_c p_c E[T_c] (the class serves the share p_c of the jobs), E[Q] = λE[T] per server (Little), the class's busy
 * fraction ρ_c. Source: theory.md §7 (Kleinrock; Schrage & Miller) per class; §13 for the sampling law.
 */
import type { SupermarketModel } from '../../model/model.ts';
import { classSamplingProbabilities } from '../../model/servers.ts';
import { serviceDistribution } from '../../model/service/index.ts';
import { InvalidModelError } from '../../errors.ts';
import { mg1, type Mg1Result } from '../mg1/index.ts';

/** One speed class of `heteroMg1`, in the shape of the other per-class solvers (hetero/occupancy.ts, hetero/lwl.ts). */
export interface HeteroMg1Class {
  readonly speed: number;
  readonly fraction: number;
  /** ρ_c = a_c·E[S]/v_c: the class's servers' busy fraction. */
  readonly busyFraction: number;
  /** Jobs per server of the class, a_c·E[T_c]. */
  readonly meanQueueLength: number;
  /** E[T_c] of the jobs it serves (time units); Infinity where the M/G/1 formula says ∞. */
  readonly meanResponseTime: number;
  /** p_c: the share of all jobs it serves. */
  readonly jobShare: number;
}

/** `heteroMg1`'s answer: E[T], E[Q] per server, the classes, and the M/G/1 quadratures' error and convergence. */
export interface HeteroMg1Result {
  readonly meanResponseTime: number;
  readonly meanQueueLength: number;
  readonly classes: HeteroMg1Class[];
  /** Σ_c p_c·(class error)/v_c: the M/G/1 quadratures' absolute error of E[T] (time units). */
  readonly numericalError: number;
  readonly converged: boolean;
}

/**
 * The class-c M/G/1 queue in its own work units (module comment): the homogeneous model at rate a_c/v_c, random
 * selection, d = 1, no server classes.
 */
export function heteroMg1ClassModel(model: SupermarketModel, c: number): SupermarketModel {
  const servers = model.servers;
  if (servers === undefined) throw new InvalidModelError('heteroMg1 needs server classes (--speeds)');
  const p = classSamplingProbabilities(servers);
  const { servers: _servers, ...base } = model;
  return { ...base, selection: 'random', d: 1, lambda: (model.lambda * p[c]) / servers.fractions[c] / servers.speeds[c] };
}

/**
 * The mean field of a heterogeneous model under random selection: an M/G/1 queue per speed class (module comment).
 * @param model a validated model with `servers` and selection 'random' (d is not read: one server per job).
 * @returns E[T] (time units), E[Q] jobs per server, per class speed, fraction, busy fraction, E[Q], E[T], job share.
 * @throws {InvalidModelError} without server classes or for another selection rule; whatever `mg1` throws for a class
 *   (UnstableModelError for ρ_c ≥ 1, ConvergenceError for a quadrature that misses its tolerance).
 * @example heteroMg1(parseModel({ lambda: 0.7, d: 1, selection: 'random', servers: { speeds: [1, 4], fractions: [0.8, 0.2], sampling: 'speed' } })).meanResponseTime // 0.625/(1 − 0.625·0.7) = 10/9
 */
export function heteroMg1(model: SupermarketModel): HeteroMg1Result {
  const servers = model.servers;
  if (servers === undefined) throw new InvalidModelError('heteroMg1 needs server classes (--speeds)');
  if (model.selection !== 'random') throw new InvalidModelError(`heteroMg1 is the mean field of random selection, not ${model.selection}`);
  const p = classSamplingProbabilities(servers);
  const mean = serviceDistribution(model.service).mean;
  let meanResponseTime = 0;
  let numericalError = 0;
  let converged = true;
  const classes = servers.speeds.map((speed, c): HeteroMg1Class => {
    const classModel = heteroMg1ClassModel(model, c);
    const r: Mg1Result = mg1(classModel);
    const t = r.meanResponseTime / speed;
    meanResponseTime += p[c] * t;
    numericalError += (p[c] * r.diagnostics.quadratureError) / speed;
    converged &&= r.diagnostics.converged;
    const arrival = classModel.lambda * speed;
    return {
      speed,
      fraction: servers.fractions[c],
      busyFraction: classModel.lambda * mean,
      meanQueueLength: arrival * t,
      meanResponseTime: t,
      jobShare: p[c],
    };
  });
  return { meanResponseTime, meanQueueLength: model.lambda * meanResponseTime, classes, numericalError, converged };
}
