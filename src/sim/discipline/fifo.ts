/**
 * FIFO in-queue discipline over a `JobStore`: jobs are served in arrival order, never preempted
 * (theory.md §1: smallest key first with key = arrival time). A discipline answers two questions for the
 * engine: where a new job is stored, and which stored job the server works on next. Size-based disciplines
 * (SJF, SRPT, …) will add a per-server index over the same slots and a preemption test at arrivals.
 */
import type { JobStore } from '../jobStore.ts';

/**
 * Appends a job to server j's queue, growing every ring if j's is full.
 * @param arrival arrival time (time units). @param size service requirement (time units), `pred` its prediction
 *   Y (default: exact) and `seq` its arrival sequence number; these three are ignored if the store keeps no sizes.
 * @returns the job's slot in `store.arrival` / `store.size`.
 */
export function fifoPush(store: JobStore, j: number, arrival: number, size: number, pred = size, seq = 0): number {
  const l = store.len[j];
  if (l === store.cap) store.grow();
  const slot = (j << store.shift) + ((store.head[j] + l) & store.mask);
  store.arrival[slot] = arrival;
  if (store.withSizes) {
    store.size[slot] = size;
    store.pred[slot] = pred;
    store.seq[slot] = seq;
  }
  store.len[j] = l + 1;
  return slot;
}

/**
 * Removes the job in service at server j (the oldest) and returns its arrival time. Requires len[j] ≥ 1.
 */
export function fifoPop(store: JobStore, j: number): number {
  const h = store.head[j];
  const a = store.arrival[(j << store.shift) + h];
  store.head[j] = (h + 1) & store.mask;
  store.len[j]--;
  return a;
}

/** Slot of the job server j serves next (its oldest). Requires len[j] ≥ 1. */
export function fifoNext(store: JobStore, j: number): number {
  return (j << store.shift) + store.head[j];
}
