/**
 * `compare` on the worker pool: every simulation of the sweep (cells and trajectories, from `planComparison`) runs
 * on `--threads` workers and is stored at once in the cell store; then `runComparison` assembles the report from the
 * stored values only, so the result is bit-identical whatever the thread count, the order of completion or the
 * number of shards (`--shard i/N` computes only its part and writes no report; `supermarket merge` joins them).
 */
import type { Command } from 'commander';
import {
  cellSimulation,
  planComparison,
  runComparison,
  type ComparisonConfig,
  type ComparisonResult,
  type ComparisonTask,
} from '../compare/index.ts';
import { CellStore } from '../experiments/cellStore.ts';
import type { ShardSpec } from '../experiments/shard.ts';
import type { SimulationResult, TrajectoryResult } from '../sim/index.ts';
import { runPool } from './pool.ts';
import { startShard } from './sharding.ts';

export interface ComparePoolOptions {
  /** The cell store of the whole run (`<out>/cells`) and the settings every cell is stored with. */
  readonly dir: string;
  readonly settings: unknown;
  readonly fresh: boolean;
  readonly threads?: number;
  readonly shard?: ShardSpec;
  /** The compare command (its options are what merge reruns) and its report folder. */
  readonly cmd: Command;
  readonly out: string;
  readonly onProgress?: (done: number, total: number, label: string) => void;
}

/** Settings a stored task is checked by: the sweep's; a trajectory adds its own options (times, n, seed, …). */
function taskSettings(task: ComparisonTask, settings: unknown): unknown {
  return task.kind === 'simulate' ? settings : { settings, trajectory: task.options };
}

/**
 * Runs the sweep's simulations on the pool and assembles the comparison; with a shard, only the shard's part
 * (then `{ shardSummary }`). @throws as `runComparison`; pool errors pass through.
 */
export async function runComparisonOnPool(
  config: ComparisonConfig,
  o: ComparePoolOptions,
): Promise<{ result: ComparisonResult; resumed: number } | { shardSummary: string }> {
  const plan = planComparison(config);
  const shard = o.shard
    ? startShard(
        o.shard,
        o.cmd,
        o.out,
        plan.tasks.map((t) => ({ key: t.key, cost: t.cost, settings: taskSettings(t, o.settings) })),
      )
    : undefined;
  const store = new CellStore<unknown>(shard ? shard.cellsDir : o.dir, { fresh: o.fresh });
  const mine = plan.tasks.filter((t) => !shard || shard.mine.has(t.key));
  const todo = mine.filter((t) => store.get(t.key, taskSettings(t, o.settings)) === undefined);
  const resumed = store.resumed;
  await runPool(
    todo,
    (key, result, task) => {
      const t = task as ComparisonTask;
      const value =
        t.kind === 'trajectory'
          ? { tail: (result as TrajectoryResult).tail, events: (result as TrajectoryResult).events }
          : {
              key,
              seed: t.options.seed,
              simulation: cellSimulation(result as SimulationResult, t.options.replications ?? config.replications),
            };
      store.put(key, taskSettings(t, o.settings), value);
    },
    { threads: o.threads, onProgress: o.onProgress },
  );
  if (shard) {
    shard.finish();
    return { shardSummary: shard.summary(store.written, resumed) };
  }
  // every value from the store (as a resumed run reads it), never from this run's memory
  const reader = new CellStore<never>(o.dir);
  const byKey = new Map(plan.tasks.map((t) => [t.key, t]));
  const read = (key: string) => {
    const t = byKey.get(key);
    return t ? reader.get(key, taskSettings(t, o.settings)) : undefined;
  };
  const result = runComparison(config, { plan, cache: { get: read, put: () => {} }, trajectories: { get: read } });
  return { result, resumed };
}
