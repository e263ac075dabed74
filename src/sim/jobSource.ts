/**
 * Where each arriving job comes from: its true size S and prediction Y (theory.md §1: Y drawn once per job at
 * arrival; the server drains S, only the dispatcher and the scheduler see Y) and the time of the next arrival
 * (Poisson at rate λn, or the next time of a replayed trace). Chosen once per run by small integer codes, so the
 * engines' call `draw` is monomorphic; the exponential case is inline.
 *
 * Random draws per arrival, in this order, whatever the discipline: the size (if sampled), the prediction (if
 * sampled), the next inter-arrival time. So two runs that differ only in the discipline consume the same stream
 * at every arrival (common random numbers; theory.md §8).
 */
import type { PredictionModel } from '../model/prediction/index.ts';
import type { ServiceDistribution } from '../model/service/index.ts';
import { PRED_EXACT, PRED_INDEXED, PRED_MODEL, SIZE_DIST, SIZE_EXP, SIZE_INDEXED, type RunConfig } from './core.ts';
import type { Rng } from '../stats/rng.ts';

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
  private readonly poisson: boolean;
  private readonly invRate: number;

  constructor(config: RunConfig) {
    this.sizeKind = config.sizeKind;
    this.predKind = config.predKind;
    this.serviceMean = config.serviceMean;
    this.service = config.service;
    this.prediction = config.prediction;
    this.indexed = config.indexedSizes ?? new Float64Array(0);
    const trace = config.trace;
    this.poisson = trace === undefined;
    this.arrivals = trace?.arrivals ?? new Float64Array(0);
    this.sizes = trace?.sizes ?? new Float64Array(0);
    this.predictions = trace?.predictions ?? new Float64Array(0);
    this.invRate = 1 / (config.lambda * config.n);
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

  /** Time of arrival number seq + 1 given arrival `seq` at time t: t + Exp(λn), or the trace's next time (+∞ at its end). */
  nextArrival(seq: number, t: number, rng: Rng): number {
    if (this.poisson) return t + rng.nextExp() * this.invRate;
    const k = seq + 1;
    return k < this.arrivals.length ? this.arrivals[k] : Infinity;
  }

  /** Time of the first arrival after time t (sequence number 0). */
  firstArrival(t: number, rng: Rng): number {
    if (this.poisson) return t + rng.nextExp() * this.invRate;
    return this.arrivals.length > 0 ? this.arrivals[0] : Infinity;
  }
}
