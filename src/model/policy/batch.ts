/**
 * Batch dispatch (theory.md §15): with batch size K > 1 jobs arrive K at a time (Poisson batches at rate λn/K) and
 * the dispatcher samples d servers per batch. A row per way of placing the batch:
 * - `spread`: the K best of the d sampled servers get one job each (batch sampling; Ying, Srikant & Kang, INFOCOM
 *   2015): SQ(d,K) with `jsq` (fewest jobs), LL(d,K) with `lwl` (least work); needs d ≥ K;
 * - `whole`: the whole batch joins the one best of the d sampled servers (BSQ with `jsq`, BLL with `lwl`).
 */
import { InvalidModelError } from '../../errors.ts';
import { SELECTION_TABLE, unknownPolicy, type Selection } from './selection.ts';
import { formatBatch, type BatchSizeLaw } from '../batchLaw.ts';

/** One row: what the batch does, and whether the d sampled servers must be at least K. */
export interface BatchDispatchRow {
  readonly description: string;
  readonly needsDAtLeastK: boolean;
}

export const BATCH_DISPATCH_TABLE = {
  spread: { description: 'the K best of the d sampled servers get one job each (SQ(d,K), LL(d,K); d ≥ K)', needsDAtLeastK: true },
  whole: { description: 'the whole batch joins the best of the d sampled servers (BSQ)', needsDAtLeastK: false },
} as const satisfies Record<string, BatchDispatchRow>;

export type BatchDispatch = keyof typeof BATCH_DISPATCH_TABLE;
export const BATCH_DISPATCHES = Object.keys(BATCH_DISPATCH_TABLE) as [BatchDispatch, ...BatchDispatch[]];

/**
 * Refuses batch settings with no meaning (one line): a batch with a rule that does not compare d sampled servers by
 * queue length or work (random, lpw, jiq), `spread` with d < K, a dispatch rule set for K = 1 (no effect), a batch with
 * a dispatcher memory, a size law with `spread`.
 * @throws {InvalidModelError}
 */
export function checkBatch(
  selection: Selection,
  d: number,
  batch: number,
  dispatch: BatchDispatch,
  memory: string,
  law?: BatchSizeLaw,
): void {
  if (batch === 1 && law === undefined) {
    if (dispatch !== 'spread')
      throw new InvalidModelError(
        `batch dispatch ${dispatch} has no effect with batch size 1 (jobs arrive one at a time); set batch K ≥ 2`,
      );
    return;
  }
  const row = SELECTION_TABLE[selection];
  const size = law === undefined ? String(batch) : formatBatch(law);
  if (!(selection === 'jsq' || selection === 'lwl'))
    throw new InvalidModelError(
      `batch size ${size} works with selection jsq (SQ(d,K), BSQ) or lwl (LL(d,K)), got ${selection}${row.samplesD ? '' : ' (it samples no servers)'}`,
    );
  if (memory !== 'none') throw new InvalidModelError(`batch size ${size} with a dispatcher memory (${memory}) is not supported`);
  switch (dispatch) {
    case 'spread':
      if (law !== undefined)
        throw new InvalidModelError(
          `batch size law ${formatBatch(law)} needs batch dispatch whole: spread sends a batch to K distinct servers of the d sampled, so K must be fixed (theory.md §15)`,
        );
      if (BATCH_DISPATCH_TABLE[dispatch].needsDAtLeastK && d < batch)
        throw new InvalidModelError(
          `batch dispatch spread sends the K = ${batch} jobs to ${batch} distinct servers of the d = ${d} sampled: needs d ≥ K (or use batch dispatch whole)`,
        );
      return;
    case 'whole':
      return;
    default:
      return unknownPolicy(dispatch, 'batch dispatch');
  }
}

/**
 * The batch of a cell in words, as `policyName` writes it: '' for single jobs (K = 1), else `batch K (spread)` or
 * `batch K (whole)`, with a size law `batch geom:2.5 (whole)`.
 */
export function batchLabel(batch: number | string, dispatch: BatchDispatch, law?: BatchSizeLaw): string {
  if (law !== undefined) return `batch ${formatBatch(law)} (${dispatch})`;
  if (typeof batch === 'string') return `batch ${batch} (${dispatch})`; // a law's short form (grid coordinates)
  return batch === 1 ? '' : `batch ${batch} (${dispatch})`;
}
