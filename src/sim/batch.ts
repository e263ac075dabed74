/**
 * Batch dispatch in the FIFO event engine (theory.md §15): the K jobs of a batch arrive at one time (JobSource gives
 * the batch's later jobs the same arrival time); at the batch's first job d distinct servers are sampled and ranked
 * by queue length (SQ(d,K), BSQ) or work left (LL(d,K)), ties in uniformly random order; job i of the batch goes to
 * the i-th best (`spread`) or every job to the best (`whole`). The ranking is taken once, before any job of the batch
 * joins. No allocation per event. With a batch size law (`whole` only) the job source says where a batch starts.
 */
import type { Rng } from '../stats/rng.ts';
import { InvalidModelError } from '../errors.ts';

export class BatchDispatcher {
  private readonly picks: Int32Array;
  private readonly keys: Float64Array;
  private pos = 0;

  constructor(
    private readonly size: number,
    private readonly d: number,
    private readonly whole: boolean,
    private readonly byWork: boolean,
    /** With a batch size law: the job source, whose `batchStart` marks a batch's first job (else every `size` jobs). */
    private readonly starts?: { readonly batchStart: boolean },
  ) {
    // a size law's `size` is its mean: without the source's marks the batches would never start anew
    if (starts === undefined && !Number.isInteger(size))
      throw new InvalidModelError(`a batch size law (mean ${size}) needs the job source's batch starts in this engine`);
    this.picks = new Int32Array(d);
    this.keys = new Float64Array(d);
  }

  /** The server of the next job of the current batch (a new batch samples and ranks d distinct servers). */
  select(rng: Rng, len: Int32Array, finish: Float64Array, t: number, n: number): number {
    const { picks, keys, d } = this;
    const starts = this.starts;
    if (starts === undefined ? this.pos === 0 : starts.batchStart) {
      for (let i = 0; i < d; i++) {
        let j: number;
        let dup: boolean;
        do {
          j = rng.below(n);
          dup = false;
          for (let k = 0; k < i; k++) if (picks[k] === j) dup = true;
        } while (dup);
        picks[i] = j; // uniformly random order: the insertion sort below is stable, so ties stay random
        const w = finish[j] - t;
        keys[i] = this.byWork ? (w > 0 ? w : 0) : len[j];
      }
      for (let i = 1; i < d; i++) {
        const pj = picks[i];
        const kj = keys[i];
        let k = i - 1;
        while (k >= 0 && keys[k] > kj) {
          picks[k + 1] = picks[k];
          keys[k + 1] = keys[k];
          k--;
        }
        picks[k + 1] = pj;
        keys[k + 1] = kj;
      }
    }
    const j = this.whole ? picks[0] : picks[this.pos];
    this.pos = this.pos + 1 === this.size ? 0 : this.pos + 1;
    return j;
  }
}
