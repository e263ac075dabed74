/**
 * The finite-system table of T. Hellemans' PhD thesis (Univ. Antwerp 2021, ch. 6, Table fin_acc): mean response time
 * of eight dispatcher-memory setups (1–4 LL(d), 5–8 SQ(d)) at n = 10 … 3000, beside the cavity (mean-field) value.
 * Each setup is a `compare` preset (`supermarket compare --preset thesis-memory:K`, K = 1 … 8): its model and n list as a
 * `ComparisonConfig` part, so the table is reproduced by `compare` itself (and by scripts/memory-table.ts through
 * `runComparison`). The thesis's values are kept here as published (its simulation: 40 runs of length 10⁶/n).
 */
import type { ComparisonConfig, ModelFields } from './types.ts';

/** One setup of the thesis's table. */
export interface ThesisMemorySetup {
  readonly selection: 'lwl' | 'jsq';
  readonly d: number;
  readonly lambda: number;
  readonly service: string;
  readonly memory: string;
  /** The thesis's mean response time at `THESIS_MEMORY_NS` (same order). */
  readonly finite: readonly number[];
  /** The thesis's cavity (n → ∞) value. */
  readonly cavity: number;
}

/** n of the thesis's table columns. */
export const THESIS_MEMORY_NS: readonly number[] = [10, 20, 50, 100, 200, 500, 1000, 3000];

const setup = (
  selection: 'lwl' | 'jsq',
  d: number,
  lambda: number,
  service: string,
  memory: string,
  values: number[],
): ThesisMemorySetup => ({ selection, d, lambda, service, memory, finite: values.slice(0, 8), cavity: values[8] });

/** Setups 1–8 of Table fin_acc: values at THESIS_MEMORY_NS, then the cavity value. */
export const THESIS_MEMORY_SETUPS: readonly ThesisMemorySetup[] = [
  setup('lwl', 4, 0.9, 'exp', 'ip', [1.8839, 1.5363, 1.3556, 1.3059, 1.2832, 1.2683, 1.2638, 1.2574, 1.2583]),
  setup('lwl', 3, 0.8, 'exp', 'cp', [1.4533, 1.3119, 1.2313, 1.2045, 1.1926, 1.1836, 1.181, 1.1794, 1.1787]),
  setup('lwl', 3, 0.8, 'hyperexp:2', 'bcp:5', [1.5906, 1.386, 1.2787, 1.2399, 1.2215, 1.211, 1.2097, 1.2068, 1.2058]),
  setup('lwl', 2, 0.85, 'hyperexp:3', 'ism:10', [1.9086, 1.3981, 1.1643, 1.1158, 1.0999, 1.0928, 1.0921, 1.0896, 1.0888]),
  setup('jsq', 4, 0.9, 'exp', 'ip', [2.3918, 2.0132, 1.82, 1.7733, 1.7407, 1.7252, 1.7178, 1.7146, 1.7138]),
  setup('jsq', 3, 0.8, 'exp', 'cp', [1.7583, 1.592, 1.4943, 1.4578, 1.4404, 1.4314, 1.4304, 1.4257, 1.4256]),
  setup('jsq', 3, 0.8, 'hyperexp:2', 'bcp:5', [2.0504, 1.804, 1.6643, 1.6161, 1.5901, 1.5753, 1.5736, 1.5667, 1.566]),
  setup('jsq', 2, 0.85, 'hyperexp:3', 'ism:10', [2.279, 1.5924, 1.295, 1.2352, 1.2186, 1.2097, 1.2096, 1.207, 1.2056]),
];

/** The names `compare --preset` takes: thesis-memory:1 … thesis-memory:8. */
export const THESIS_MEMORY_PRESETS: readonly string[] = THESIS_MEMORY_SETUPS.map((_, k) => `thesis-memory:${k + 1}`);

/**
 * The part of a `ComparisonConfig` a thesis setup fixes: λ, d, the thesis's n list (n ≥ d) and the model fields.
 * @param k setup number 1 … 8. @throws {RangeError} outside 1 … 8.
 */
export function thesisMemoryPreset(k: number): Pick<ComparisonConfig, 'lambdas' | 'ds' | 'ns'> & { readonly model: ModelFields } {
  const s = THESIS_MEMORY_SETUPS[k - 1];
  if (!Number.isInteger(k) || s === undefined)
    throw new RangeError(`thesis memory setup ${k}: expected 1 … ${THESIS_MEMORY_SETUPS.length}`);
  return {
    lambdas: [s.lambda],
    ds: [s.d],
    ns: THESIS_MEMORY_NS.filter((n) => n >= s.d),
    model: { selection: s.selection, discipline: 'fifo', service: s.service, prediction: 'exact', memory: s.memory },
  };
}
