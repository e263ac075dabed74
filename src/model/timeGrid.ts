/**
 * The observation times of a transient (ODE, PIDE or simulated trajectory): a non-empty, strictly increasing list of
 * finite times ≥ 0, in model time units. One check for every transient solver and the trajectory simulator.
 */
import { InvalidModelError } from '../errors.ts';

/**
 * @param times the caller's `times` option. @returns it, typed.
 * @throws {InvalidModelError} if it is not a non-empty array, a time is not a finite number ≥ 0, or the times do not increase.
 * @example checkTimeGrid([0, 0.5, 1]) // [0, 0.5, 1]
 */
export function checkTimeGrid(times: unknown): number[] {
  if (!Array.isArray(times) || times.length < 1) throw new InvalidModelError('times must be a non-empty array');
  times.forEach((t: unknown, j) => {
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0)
      throw new InvalidModelError(`times[${j}] must be a finite number ≥ 0, got ${String(t)}`);
    if (j > 0 && !(t > times[j - 1])) {
      throw new InvalidModelError(`times must be strictly increasing: times[${j}] = ${t} ≤ times[${j - 1}] = ${times[j - 1]}`);
    }
  });
  return times as number[];
}
