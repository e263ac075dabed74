/** Validation of the cavity simulation options shared by lwlCavity and jsqCavity. */
import { InvalidModelError } from '../../errors.ts';

export interface CavityRun {
  horizon: number;
  warmup: number;
  batches: number;
  seed: number;
}

/**
 * @throws {InvalidModelError} if horizon is not finite > 0, warmup not finite ≥ 0, batches not an integer in
 *   [2, 1000], or seed not a safe integer.
 */
export function checkRunOptions(horizon: number, warmup: number, batches: number, seed: number): CavityRun {
  if (!(Number.isFinite(horizon) && horizon > 0)) throw new InvalidModelError(`cavity horizon must be a finite number > 0, got ${horizon}`);
  if (!(Number.isFinite(warmup) && warmup >= 0)) throw new InvalidModelError(`cavity warmup must be a finite number ≥ 0, got ${warmup}`);
  if (!Number.isInteger(batches) || batches < 2 || batches > 1000) {
    throw new InvalidModelError(`cavity batches must be an integer in [2, 1000] (20–30 recommended), got ${batches}`);
  }
  if (!Number.isSafeInteger(seed)) throw new InvalidModelError(`cavity seed must be a safe integer, got ${seed}`);
  return { horizon, warmup, batches, seed };
}
