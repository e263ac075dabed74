/**
 * Where each arriving job comes from: its true size S and prediction Y (theory.md §1: Y drawn once per job at
 * arrival; the server drains S, only the dispatcher and the scheduler see Y) and the time of the next arrival
 * (Poisson at rate λn, a renewal law or a two-state MMPP of mean rate λn (model/arrivals.ts), or the next time of a
 * replayed trace). Chosen once per run by small integer codes, so the
 * engines' call `draw` is monomorphic; the exponential case is inline.
 *
 * Random draws per arrival, in this order, whatever the discipline: the size (if sampled), the prediction (if
 * sampled), the next inter-arrival time (an MMPP draws one exponential and one uniform per competing event: arrival
 * or phase switch; its first phase is one uniform at the first arrival). So two runs that differ only in the discipline consume the same stream
 * at every arrival (common random numbers; theory.md §8).
 */
import type { PredictionModel } from '../model/prediction/index.ts';
import type { ServiceDistribution } from '../model/service/index.ts';
import {
  ARR_MMPP,
  ARR_POISSON,
  ARR_RENEWAL,
  PRED_EXACT,
  PRED_INDEXED,
  PRED_MODEL,
  SIZE_DIST,
  SIZE_EXP,
  SIZE_INDEXED,
  type RunConfig,
} from './core.ts';
import type { Rng } from '../stats/rng.ts';
import { batchSampler } from '../model/batchLaw.ts';

export class JobSource {
  /** Size and prediction of the job drawn last. */
  size = 0;
  pred = 0;
  private readonly sizeKind: number;
  private readonly predKind: number;
  private readonly serviceMean: number;
  private readonly service: ServiceDistribution;
  private readonly prediction: PredictionModel;
  private readonly indexed: Float64Array;
  private readonly arrivals: Float64Array;
  private readonly sizes: Float64Array;
  private readonly predictions: Float64Array;
  private readonly arrivalKind: number;
  private readonly invRate: number;
  private readonly arrivalLaw: ServiceDistribution | undefined;
  private readonly mmppRates: Float64Array;
  private readonly mmppSwitching: Float64Array;
  private readonly mmppFirstPhase: number;
  /** The MMPP's current phase (0 or 1). */
  private phase = 0;
  /** Jobs per epoch K and jobs of the current batch still to come. */
  private readonly batchSize: number;
  private batchLeft = 0;
  /** A batch size law's sampler (model/batchLaw.ts), or null for a fixed K. */
  private readonly batchSizes: ((rng: Rng) => number) | null;
  /** Whether the arrival scheduled last is the first job of its batch (sim/batch.ts reads it with a size law). */
  batchStart = true;

  constructor(config: RunConfig) {
    this.sizeKind = config.sizeKind;
    this.predKind = config.predKind;
    this.serviceMean = config.serviceMean;
    this.service = config.service;
    this.prediction = config.prediction;
    this.indexed = config.indexedSizes ?? new Float64Array(0);
    const trace = config.trace;
    this.arrivalKind = config.arrivalKind;
    this.batchSize = config.batchSize;
    this.batchSizes = config.batchLaw === undefined ? null : batchSampler(config.batchLaw);
    this.arrivalLaw = config.arrivalLaw;
    this.mmppRates = config.mmppRates ?? new Float64Array(2);
    this.mmppSwitching = config.mmppSwitching ?? new Float64Array(2);
    this.mmppFirstPhase = config.mmppFirstPhase ?? 1;
    this.arrivals = trace?.arrivals ?? new Float64Array(0);
    this.sizes = trace?.sizes ?? new Float64Array(0);
    this.predictions = trace?.predictions ?? new Float64Array(0);
    this.invRate = config.batchSize / (config.lambda * config.n); // batch epochs at rate λn/K
  }

  /** Draws S and Y of the job with sequence number `seq` into `size`, `pred`. */
  draw(seq: number, rng: Rng): void {
    let s: number;
    let y: number;
    switch (this.sizeKind) {
      case SIZE_EXP:
        s = rng.nextExp() * this.serviceMean;
        break;
      case SIZE_DIST:
        s = this.service.sample(rng);
        break;
      case SIZE_INDEXED: {
        const i = Math.floor(rng.nextDouble() * this.indexed.length);
        this.size = this.indexed[i];
        this.pred = this.prediction.sampleAt!(i);
        return;
      }
      default:
        s = this.sizes[seq];
    }
    switch (this.predKind) {
      case PRED_EXACT:
        y = s;
        break;
      case PRED_MODEL:
        y = this.prediction.sample(s, rng);
        break;
      case PRED_INDEXED:
        y = s;
        break;
      default:
        y = this.predictions[seq];
    }
    this.size = s;
    this.pred = y;
  }

  /**
   * Time of arrival number seq + 1 given arrival `seq` at time t: t + Exp(λn), t + a renewal gap, the MMPP's next
   * arrival, or the trace's next time (+∞ at its end).
   */
  nextArrival(seq: number, t: number, rng: Rng): number {
    // a batch's later jobs arrive with its first (the epochs come at rate λn/K: arrivalCode)
    if (this.batchLeft > 0) {
      this.batchLeft--;
      this.batchStart = false;
      return t;
    }
    this.batchStart = true;
    if (this.batchSizes !== null) return this.nextBatch(t, rng);
    this.batchLeft = this.batchSize - 1;
    switch (this.arrivalKind) {
      case ARR_POISSON:
        return t + rng.nextExp() * this.invRate;
      case ARR_RENEWAL:
        return t + this.arrivalLaw!.sample(rng);
      case ARR_MMPP:
        return this.nextMmpp(t, rng);
      default: {
        const k = seq + 1;
        return k < this.arrivals.length ? this.arrivals[k] : Infinity;
      }
    }
  }

  /**
   * A batch size law's next epoch after t (every arrival process): the gap first, then the size X (one uniform), so
   * the batch's X − 1 later jobs arrive with it. Kept off the fixed-K path, whose stream is unchanged.
   */
  private nextBatch(t: number, rng: Rng): number {
    let next: number;
    switch (this.arrivalKind) {
      case ARR_POISSON:
        next = t + rng.nextExp() * this.invRate;
        break;
      case ARR_RENEWAL:
        next = t + this.arrivalLaw!.sample(rng);
        break;
      case ARR_MMPP:
        next = this.nextMmpp(t, rng);
        break;
      default:
        throw new Error('a batch size law with a replayed trace (refused by the options)');
    }
    this.batchLeft = this.batchSizes!(rng) - 1;
    return next;
  }

  /** The MMPP's next arrival after t: competing exponential clocks (arrival in the phase, switch out of it). */
  private nextMmpp(t: number, rng: Rng): number {
    const rates = this.mmppRates;
    const switching = this.mmppSwitching;
    for (;;) {
      const a = rates[this.phase];
      const total = a + switching[this.phase];
      t += rng.nextExp() / total;
      if (rng.nextDouble() * total < a) return t;
      this.phase ^= 1;
    }
  }

  /** Time of the first arrival after time t (sequence number 0); the MMPP's phase starts in its stationary law. */
  firstArrival(t: number, rng: Rng): number {
    this.batchStart = true;
    if (this.batchSizes !== null) {
      if (this.arrivalKind === ARR_MMPP) this.phase = rng.nextDouble() < this.mmppFirstPhase ? 0 : 1;
      return this.nextBatch(t, rng);
    }
    this.batchLeft = this.batchSize - 1;
    switch (this.arrivalKind) {
      case ARR_POISSON:
        return t + rng.nextExp() * this.invRate;
      case ARR_RENEWAL:
        return t + this.arrivalLaw!.sample(rng);
      case ARR_MMPP:
        this.phase = rng.nextDouble() < this.mmppFirstPhase ? 0 : 1;
        return this.nextMmpp(t, rng);
      default:
        return this.arrivals.length > 0 ? this.arrivals[0] : Infinity;
    }
  }
}
