/**
 * `supermarket table`: the finite-n table of exponential JSQ(d) — E[Q] and E[T] with 95% CIs from many independent
 * small-n chains (src/sim/occupancyChain.ts), beside the mean field, the refined mean field of first and second order,
 * the exact chain where n is small, and the 1/n and 1/n² fits per (d, λ) (src/compare/finiteNTable.ts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { stringify } from 'csv-stringify/sync';
import {
  EXACT_MAX_WORK,
  tableCell,
  tableCellKey,
  tableFit,
  tableModel,
  tableTheory,
  type ExactValue,
  type TableCell,
  type TableTheory,
} from '../../compare/finiteNTable.ts';
import { SupermarketError } from '../../errors.ts';
import { CellStore } from '../../runs/cellStore.ts';
import type { ShardSpec } from '../../runs/shard.ts';
import { writeFileAtomic, writeJsonAtomic } from '../../io/index.ts';
import { simulationWarmup, type SimulationStart, type StartChoice } from '../../meanfield/warmup.ts';
import { initialCounts } from '../../sim/initialState.ts';
import { SECOND_ORDER_RANGE } from '../../meanfield/refinedSecondOrder.ts';
import { FIRST_ORDER_RANGE } from '../../meanfield/refined.ts';
import { SAMPLINGS, selectionFamilyName, type Sampling } from '../../model/index.ts';
import { TABLE_T_HELP, finiteNTableCsvRows, finiteNTableMarkdown } from '../../report/finiteNTable.ts';
import { occupancyChainSpec, type OccupancyChainSpec } from '../../sim/occupancyChain.ts';
import { tInterval } from '../../stats/tInterval.ts';
import { VERSION } from '../../version.ts';
import { action, withInterruptMessage } from '../errors.ts';
import {
  examples,
  parseIntegerList,
  parseNumberList,
  parseOutDir,
  parseOutFile,
  parsePositiveInteger,
  parseRelativePrecision,
  parseSeed,
  startOption,
} from '../options.ts';
import { printJson } from '../output.ts';
import { addMixedCodeOption, addScaleOptions, printShardSummary, startShard } from '../sharding.ts';
import { defaultThreads } from '../pool.ts';
import { createProgress } from '../progress.ts';
import { startRun } from '../versions.ts';
import { timeline } from '../timeline.ts';
import { chainTaskEvents, runChainTasks, type ChainTask, type ExactTask } from '../tableRunner.ts';
import { formatCount } from '../../stats/index.ts';

interface Opts {
  d: number[];
  lambda: number[];
  n: number[];
  sampling: Sampling;
  runs: number;
  eventsPerRun: number;
  precision?: number;
  maxRuns: number;
  seed: number;
  exactMaxN: number;
  exactMaxStates: number;
  exactMaxWork: number;
  json?: boolean;
  csv?: string;
  out?: string;
  threads?: number;
  shard?: ShardSpec;
  fresh?: boolean;
  progress: boolean;
  start: StartChoice;
}

/** Precision mode: at most this many stages of added runs per cell after the first. */
const MAX_STAGES = 4;

function parseEvents(value: string): number {
  const x = parsePositiveInteger(value);
  if (x < 1000) throw new InvalidArgumentError(`expected at least 1000 events per run, got ${JSON.stringify(value)}`);
  return x;
}

function parseRuns(value: string): number {
  const x = parsePositiveInteger(value);
  if (x < 2) throw new InvalidArgumentError(`expected at least 2 runs (a t interval needs two), got ${JSON.stringify(value)}`);
  return x;
}

interface CellPlan {
  readonly model: ReturnType<typeof tableModel>;
  readonly n: number;
  readonly key: string;
  readonly spec: OccupancyChainSpec;
  readonly warmupEvents: number;
  /** The same warm-up in model time units (`simulationWarmup` at this n). */
  readonly warmupTime: number;
  /** Where every run starts ('auto' resolved by simulationWarmup at this n) and, at the fixed point, its counts. */
  readonly start: SimulationStart;
  readonly startCounts: readonly number[];
  /** Per-run values so far (grows by stages in precision mode), or read back from the cell store. */
  values: Float64Array;
  resumed: boolean;
}

/** What the cell store keeps of a table cell: its per-run E[Q] values (the CIs and fits are recomputed from them). */
interface StoredTableCell {
  readonly values: number[];
}

/** What the cell store keeps of a cell's exact chain (`exactCell`): its value or why it was skipped, under `exactKeyOf`. */
interface StoredExact {
  readonly exact: ExactValue;
}

/** The store key of a cell's exact value: beside the cell's runs, apart from them (it depends on no seed or run count). */
const exactKeyOf = (cellKey: string): string => `exact|${cellKey}`;

/** A stored exact value if it has the shape `exactCell` gives, else undefined (solve again). */
function storedExact(stored: StoredExact | undefined): ExactValue | undefined {
  const v = stored?.exact as Partial<Record<string, unknown>> | undefined;
  if (v === undefined || v === null || typeof v !== 'object') return undefined;
  if (typeof v.skipped === 'string') return v as ExactValue;
  return typeof v.meanQueueLength === 'number' && typeof v.states === 'number' && typeof v.errorBound === 'number'
    ? (v as ExactValue)
    : undefined;
}

/** Names the engine's event scheme in every stored cell's settings: a change of scheme must not reuse old cells. */
const ENGINE = 'occupancy-chain/1 (one draw: event and first server)';

/** The cells a note names, grouped by (d, λ) in their order: "d = 2, λ = 0.9, n = 3, 4; d = 3, λ = 0.9, n = 3". */
function cellsText(cells: readonly TableCell[]): string {
  const groups = new Map<string, number[]>();
  for (const c of cells) {
    const key = `d = ${c.d}, λ = ${c.lambda}`;
    groups.set(key, [...(groups.get(key) ?? []), c.n]);
  }
  return [...groups].map(([key, ns]) => `${key}, n = ${ns.join(', ')}`).join('; ');
}

export function tableCommand(): Command {
  const cmd = new Command('table')
    .description(
      'The finite-n table of the supermarket model with exponential sizes, JSQ(d) (RANDOM at d = 1: random routing), FIFO:\n' +
        'for every d, λ and n, E[Q] (jobs per server) and E[T] = E[Q]/λ (Little) with 95% t intervals over independent runs, beside the mean field, the\n' +
        'refined mean field of first (Σπ + ΣV/n) and second order (+ ΣA/n²), and the exact chain for small n; per (d, λ),\n' +
        'the fits E[Q_n] − Σπ = c₁/n and c₁/n + c₂/n² (read against ΣV and ΣA), each over the n in the trusted range\n' +
        `(|ΣV|/(nΣπ) ≤ ${FIRST_ORDER_RANGE * 100} %, and for c₁/n + c₂/n² also |ΣA|/(n|ΣV|) ≤ ${SECOND_ORDER_RANGE}), the n left out named;\n` +
        'with fewer than 3 n for c₁/n + c₂/n², c₁/n alone is fitted to E[Q_n] − Σπ − ΣA/n² (the computed second order subtracted first).\n\n' +
        'Each run is one n-server chain, uniformised at rate n(λ + 1): an event is an arrival (prob. λ/(λ+1)) joining the\n' +
        'shortest of d sampled servers, or a potential departure from a uniformly chosen server. Runs start as --start says\n' +
        '(auto: at the mean-field fixed point where the warm-up rule reads one from it at that n, else empty), discard the\n' +
        "project's warm-up for that start (from empty: 2 × the mean-field time to the fixed point, ≥ 3 relaxation times), then average the jobs\n" +
        'over --events-per-run events. Every run has its own random stream from (--seed, cell, run), so results do not\n' +
        'depend on --threads. Each row shows the warm-up discarded per run (time units, and events) and E[Q], E[T] with\n' +
        'their 95% intervals. Beside each theory its t, as the text under the table says:\n' +
        TABLE_T_HELP,
    )
    .option('--d <list>', 'choices d, comma-separated integers ≥ 1', parseIntegerList, [2, 3, 4])
    .option(
      '--lambda <list>',
      'arrival rates per server (= loads ρ; mean size 1), comma-separated, each in (0, 1)',
      parseNumberList,
      [0.7, 0.8, 0.9, 0.95],
    )
    .option('--n <list>', 'numbers of servers, comma-separated integers ≥ max(d)', parseIntegerList, [10, 20, 30, 50, 100])
    .addOption(new Option('--sampling <mode>', 'how the d servers are sampled').choices(SAMPLINGS).default('with-replacement'))
    .option('--runs <R>', 'independent runs per cell (with --precision: the first stage), ≥ 2', parseRuns, 20)
    .option('--events-per-run <E>', 'events averaged per run after the warm-up (≥ 1000)', parseEvents, 2_000_000)
    .option(
      '--precision <rel>',
      'add runs (same length) to each cell until the 95% half-width of E[Q] is ≤ rel × E[Q], e.g. 0.002 for ± 0.2 %',
      parseRelativePrecision,
    )
    .option('--max-runs <R>', 'with --precision: at most this many runs per cell', parsePositiveInteger, 5000)
    .option('--seed <seed>', 'master seed; each run stream derives from it, the cell and the run index', parseSeed, 1)
    .option('--exact-max-n <n>', 'solve the exact chain for n ≤ this (0: never)', (v) => (v === '0' ? 0 : parsePositiveInteger(v)), 5)
    .option('--exact-max-states <S>', 'skip exact chains larger than this', parsePositiveInteger, 3_000_000)
    .option(
      '--exact-max-work <W>',
      'give up an exact chain (shown "too large") after W state-sweeps (states × Gauss–Seidel sweeps; ≈ 1e7–1e8 a second)',
      parsePositiveInteger,
      EXACT_MAX_WORK,
    )
    .option('--json', 'print the table as JSON on stdout instead of text')
    .option('--csv <file>', "also write one CSV row per cell to <file>; '-': the CSV on stdout instead of the text table", (v: string) =>
      v === '-' ? v : parseOutFile(v),
    )
    .option(
      '--out <dir>',
      'also write results.json, metadata.json, table.md, table.csv and the cells (cells/, reused by a rerun) into <dir>',
      parseOutDir,
    )
    .option('--fresh', 'with --out: ignore cells stored there and recompute everything')
    .option('--no-progress', 'no progress output on stderr')
    .addOption(startOption('every run'))
    .addHelpText(
      'after',
      examples(
        [
          'supermarket table --d 2 --lambda 0.9 --n 10,20,50 --runs 10',
          'supermarket table --d 2,3,4 --lambda 0.7,0.8,0.9,0.95 --n 10,20,30,50,100 --runs 16 --precision 0.002 --out reports/table',
          'supermarket table --d 2 --lambda 0.9 --n 2,3,4,5 --runs 20 --events-per-run 1e6   # exact chains beside the simulation',
          'supermarket table --runs 16 --precision 0.002 --shard 1/2 --out reports/table   # and --shard 2/2, e.g. as Slurm array tasks',
          'supermarket merge reports/table',
        ],
        'Cost: about (runs × (events-per-run + warm-up)) events per cell, tens of millions of events per second per thread.\n' +
          'At a fixed number of events the CI of a cell shrinks little with n (the fluctuations of E[Q] shrink as 1/n, the\n' +
          'time an event covers too), and small n costs more (heavier queues, slower mixing); λ = 0.95 cells cost the most.\n' +
          'With --precision, a first stage of --runs runs per cell estimates the spread, then runs are added where needed.',
      ),
    );
  addScaleOptions(cmd);
  // stored cells of other code: refused unless --allow-mixed-code, set for this command as for run, compare, conjecture
  // (table read the flag some earlier command had left: one rule, sharding.ts addMixedCodeOption)
  addMixedCodeOption(cmd);
  cmd.action(
    action(async (o: Opts) => {
      for (const l of o.lambda)
        if (!(l > 0 && l < 1)) throw new SupermarketError(`--lambda ${l}: each load must lie in (0, 1) (mean size 1)`);
      for (const d of o.d) if (!Number.isInteger(d) || d < 1) throw new SupermarketError(`--d ${d}: each d must be an integer ≥ 1`);
      const maxD = Math.max(...o.d);
      for (const n of o.n) if (n < maxD) throw new SupermarketError(`--n ${n}: each n must be ≥ the largest d (${maxD})`);
      if (o.precision === undefined && cmd.getOptionValueSource('maxRuns') === 'cli')
        throw new SupermarketError('--max-runs acts only with --precision: drop it or add --precision <rel>');
      if (o.precision !== undefined && o.maxRuns < o.runs) throw new SupermarketError(`--max-runs ${o.maxRuns} is below --runs ${o.runs}`);
      if (o.fresh && o.out === undefined)
        throw new SupermarketError('--fresh acts only with --out <dir> (it ignores the cells stored there): drop it or add --out <dir>');
      if (o.csv === '-' && o.json) throw new SupermarketError('--csv - and --json both write stdout: choose one (or give --csv a file)');
      if (o.shard !== undefined && o.out === undefined)
        throw new SupermarketError('--shard needs --out <dir>: the shard stores its cells there for `supermarket merge <dir>`');
      const threads = o.threads ?? defaultThreads();
      const started = performance.now();
      const runMeta = startRun();

      const theories = new Map<string, TableTheory>();
      const plans: CellPlan[] = [];
      for (const d of o.d)
        for (const lambda of o.lambda) {
          const model = tableModel(d, lambda, o.sampling);
          theories.set(`${d}|${lambda}`, tableTheory(model));
          for (const n of [...o.n].sort((a, b) => a - b)) {
            const spec = occupancyChainSpec(model, n);
            // the one warm-up rule, read from the start asked for at this n (auto: the fixed point where it applies), with
            // no cap, as every command reads it: the old default cap (5000) bit silently at d = 1 near λ = 1
            // (τ = 1/(1 − √λ)²: λ = 0.999 asked 6.1e7 time units), where runs from a 5000 warm-up read E[Q] 77 for 999
            const warmup = simulationWarmup(model, { start: o.start, n });
            plans.push({
              model,
              n,
              key: tableCellKey(d, lambda, n, o.sampling),
              spec,
              warmupEvents: Math.ceil(warmup.time * spec.eventRate),
              warmupTime: warmup.time,
              start: warmup.start ?? 'empty',
              startCounts: warmup.from === undefined ? [] : initialCounts(warmup.from, n),
              values: new Float64Array(0),
              resumed: false,
            });
          }
        }

      // every setting a cell's runs depend on; a stored cell is reused only for the same ones (and version)
      const settingsOf = (plan: CellPlan) => ({
        key: plan.key,
        seed: o.seed,
        runs: o.runs,
        eventsPerRun: o.eventsPerRun,
        precision: o.precision ?? null,
        maxRuns: o.precision === undefined ? null : o.maxRuns,
        warmupEvents: plan.warmupEvents,
        start: plan.start,
        engine: ENGINE,
      });
      const session =
        o.shard === undefined
          ? undefined
          : startShard(
              o.shard,
              cmd,
              o.out!,
              plans.map((p) => ({
                key: p.key,
                // heuristic cost: events asked × (1 − ρ)^−1.5 (the runs a precision needs grow about so with the load)
                cost: (o.runs * (o.eventsPerRun + p.warmupEvents)) / (1 - p.spec.rho) ** 1.5,
                settings: settingsOf(p),
              })),
            );
      const store =
        o.out === undefined
          ? undefined
          : new CellStore<StoredTableCell>(session?.cellsDir ?? path.join(o.out, 'cells'), { fresh: o.fresh });
      const active = session === undefined ? plans : plans.filter((p) => session.mine.has(p.key));
      for (const plan of active) {
        const stored = store?.get(plan.key, settingsOf(plan));
        if (stored !== undefined && Array.isArray(stored.values) && stored.values.length >= 2) {
          plan.values = Float64Array.from(stored.values);
          plan.resumed = true;
        }
      }
      const todo = active.filter((p) => !p.resumed);

      const showProgress = o.progress && !(o.json && !process.stderr.isTTY);
      let eventsDone = 0;
      let stages = 0;
      // one bar per stage: a precision stage's size is known only when the one before has ended
      // a cell's exact value is stored beside its runs (its own key, `exactKeyOf`) as its chain ends, so a resumed
      // table reads it back instead of solving the chain again; a shard solves none (it writes no table)
      const exactStore = store === undefined ? undefined : new CellStore<StoredExact>(store.dir, { fresh: o.fresh });
      const exactSettingsOf = (plan: CellPlan) => ({
        key: exactKeyOf(plan.key),
        exactMaxStates: o.exactMaxStates,
        exactMaxWork: o.exactMaxWork,
      });
      // a value stored by a run with a larger --exact-max-n is not read where n > --exact-max-n now: the chain runs
      // (`exactCell`: nothing, or d = 1's closed form), so a resumed table shows what a fresh one with these options does
      const exact: (ExactValue | null | undefined)[] = plans.map((p) =>
        session !== undefined ? null : p.n > o.exactMaxN ? undefined : storedExact(exactStore?.get(exactKeyOf(p.key), exactSettingsOf(p))),
      );
      const resumedExact = exact.filter((v) => v !== undefined && v !== null).length;
      // the exact chains of the table's cells not read back run with the first stage, on the same threads, so they
      // overlap the simulation instead of following it on this thread
      const exactOf = plans.flatMap((_, i) => (exact[i] === undefined ? [i] : []));
      const exactTasks: ExactTask[] = exactOf.map((i) => {
        const p = plans[i];
        return { model: p.model, n: p.n, maxN: o.exactMaxN, maxStates: o.exactMaxStates, maxWork: o.exactMaxWork };
      });
      // the simulation's own wall and CPU: the exact chains beside it are not the chains' speed
      let chainSeconds = 0;
      let exactCpuSeconds = 0;
      // a cell is stored the moment it is final (its last stage's runs are in), so Ctrl-C or a crash keeps it and a
      // rerun with the same --out resumes from it; never before: a cell cut short would pass for finished
      const stored = new Set<CellPlan>();
      const isFinal = (plan: CellPlan, precisionStage: number): boolean => {
        if (o.precision === undefined || precisionStage >= MAX_STAGES || plan.values.length >= o.maxRuns) return true;
        const e = tInterval(plan.values);
        return e.halfWidth <= o.precision * Math.abs(e.mean);
      };
      const storeIfFinal = (plan: CellPlan, precisionStage: number) => {
        if (store === undefined || stored.has(plan) || !isFinal(plan, precisionStage)) return;
        store.put(plan.key, settingsOf(plan), { values: Array.from(plan.values) });
        stored.add(plan);
      };
      let progress: ReturnType<typeof createProgress> | undefined;
      const stage = async (added: readonly { plan: CellPlan; count: number }[], withExact = false) => {
        if (added.length === 0 && !(withExact && exactTasks.length > 0)) return;
        stages++;
        const precisionStage = stages - 1;
        timeline('phase', { name: stages === 1 ? 'table' : `table, precision stage ${precisionStage}` });
        progress = createProgress(stages === 1 ? 'table' : `table, precision stage ${stages - 1}`, showProgress);
        const tasks: ChainTask[] = [];
        const owners: { plan: CellPlan; first: number }[] = [];
        for (const { plan, count } of added) {
          // chunks of runs: enough tasks to keep every thread busy; the split never changes a value
          const chunk = Math.max(1, Math.ceil(count / Math.max(2, 2 * threads)));
          for (let first = plan.values.length; first < plan.values.length + count; first += chunk) {
            const c = Math.min(chunk, plan.values.length + count - first);
            tasks.push({
              spec: plan.spec,
              options: {
                warmupEvents: plan.warmupEvents,
                startCounts: plan.startCounts,
                events: o.eventsPerRun,
                seed: o.seed,
                key: plan.key,
                first,
                count: c,
              },
            });
            owners.push({ plan, first });
          }
        }
        const planned = tasks.reduce((s, t) => s + chainTaskEvents(t), 0);
        // the exact chains beside the first stage are named in the line, so a bar at 100 % waiting for them says so
        const exactAsked = withExact ? exactTasks.filter((t) => t.n <= t.maxN).length : 0;
        let exactDone = 0;
        let eventsNow = 0;
        const label = () =>
          (added.length > 0 ? `${added.length} cells, ${formatCount(planned)} events` : '') +
          (exactAsked > 0 ? `${added.length > 0 ? '; ' : ''}exact chains ${Math.min(exactDone, exactAsked)}/${exactAsked}` : '');
        // each cell's runs of this stage: grown in place as its tasks end, final when none is left
        const grown = new Map(added.map(({ plan, count }) => [plan, new Float64Array(plan.values.length + count)]));
        for (const [plan, values] of grown) values.set(plan.values);
        const pending = new Map<CellPlan, number>();
        for (const { plan } of owners) pending.set(plan, (pending.get(plan) ?? 0) + 1);
        const onChainDone = (i: number, values: Float64Array) => {
          const { plan, first } = owners[i];
          grown.get(plan)!.set(values, first);
          const left = pending.get(plan)! - 1;
          pending.set(plan, left);
          if (left > 0) return;
          plan.values = grown.get(plan)!;
          storeIfFinal(plan, precisionStage);
        };
        const bar = progress;
        try {
          const ran = await runChainTasks(
            tasks,
            threads,
            (done) => bar.update((eventsNow = done), planned, label()),
            withExact ? exactTasks : [],
            {
              onChainDone,
              onExactDone: (i, value) => {
                const t = exactTasks[i];
                const plan = plans[exactOf[i]];
                exact[exactOf[i]] = value;
                if (value !== null) exactStore?.put(exactKeyOf(plan.key), exactSettingsOf(plan), { exact: value });
                if (t.n > t.maxN) return; // nothing solved (n > --exact-max-n)
                exactDone++;
                bar.update(eventsNow, planned, label());
                // without a terminal the bar prints deciles of the events only: one line per exact chain instead
                if (showProgress && !process.stderr.isTTY)
                  process.stderr.write(
                    `table: exact chain ${exactDone}/${exactAsked} done (d = ${t.model.d}, λ = ${t.model.lambda}, n = ${t.n})\n`,
                  );
              },
            },
          );
          chainSeconds += ran.chainSeconds;
          exactCpuSeconds += ran.exactCpuSeconds;
        } finally {
          bar.stop();
        }
        eventsDone += planned;
      };
      let unmet: CellPlan[] = [];
      const simStarted = performance.now();
      const cpuStart = process.cpuUsage(); // the whole process, worker threads included
      // Ctrl-C: the cells stored so far are kept (the workers leave this thread free to hear it); say where
      const cellsDir = session?.cellsDir ?? (o.out === undefined ? undefined : path.join(o.out, 'cells'));
      const kept = () =>
        store === undefined
          ? 'nothing was stored (without --out the table keeps its cells in memory); rerun with --out <dir> to keep finished cells'
          : `${active.length - todo.length + stored.size} of ${active.length} cells are kept in ${cellsDir}; rerun the same command to resume`;
      await withInterruptMessage(
        kept,
        () => simulateAll(),
        () => progress?.stop(),
      );
      async function simulateAll(): Promise<void> {
        await stage(
          todo.map((plan) => ({ plan, count: o.runs })),
          true,
        );
        if (o.precision === undefined) return;
        const target = o.precision;
        for (let s = 0; s < MAX_STAGES; s++) {
          const more: { plan: CellPlan; count: number }[] = [];
          for (const plan of todo) {
            const e = tInterval(plan.values);
            const ratio = e.halfWidth / (target * Math.abs(e.mean));
            if (ratio <= 1 || plan.values.length >= o.maxRuns) continue;
            const want = Math.min(o.maxRuns, Math.max(plan.values.length + 2, Math.ceil(plan.values.length * ratio * ratio * 1.15)));
            more.push({ plan, count: want - plan.values.length });
          }
          if (more.length === 0) break;
          await stage(more);
        }
        unmet = active.filter((p) => {
          const e = tInterval(p.values);
          return e.halfWidth > target * Math.abs(e.mean);
        });
      }
      // every cell is final now; one not stored yet (none, by the rule above) is stored here
      for (const plan of todo) storeIfFinal(plan, MAX_STAGES);
      const simSeconds = eventsDone > 0 ? chainSeconds : (performance.now() - simStarted) / 1000;
      const cpu = process.cpuUsage(cpuStart);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6 - exactCpuSeconds;

      if (session !== undefined) {
        session.finish();
        printShardSummary(session.summary(todo.length, active.length - todo.length), o.json);
        return;
      }
      const cells: TableCell[] = [];
      for (const [i, plan] of plans.entries()) {
        const theory = theories.get(`${plan.model.d}|${plan.model.lambda}`)!;
        cells.push(
          tableCell(plan.model, plan.n, plan.values, theory, exact[i] ?? null, {
            eventsPerRun: o.eventsPerRun,
            warmupEvents: plan.warmupEvents,
            warmupTime: plan.warmupTime,
            start: plan.start,
          }),
        );
      }
      const fits = [...theories.values()].map((t) =>
        tableFit(
          t,
          cells.filter((c) => c.d === t.d && c.lambda === t.lambda),
        ),
      );
      const wallSeconds = (performance.now() - started) / 1000;
      // cells read back from a store (a resumed run, or `merge` of shards) were simulated earlier: their events are
      // counted apart, so a merge does not print "0 events" under a table that rests on millions
      const resumed = active.filter((p) => p.resumed);
      const storedEvents = resumed.reduce((sum, p) => sum + p.values.length * (p.warmupEvents + o.eventsPerRun), 0);
      const notes = [...new Set([...theories.values()].flatMap((t) => t.notes))];
      const untrustedFirst = cells.filter((c) => !c.refinedFirstTrusted);
      if (untrustedFirst.length > 0)
        notes.push(
          `refined 1st "outside range" at ${cellsText(untrustedFirst)}: ` +
            `there |ΣV|/(nΣπ) > ${FIRST_ORDER_RANGE * 100} % (the 1/n term is not small against the limit, so the O(1/n²) ` +
            'remainder is not small either; compare does not judge such cells, and the fits leave these n out) ' +
            '(theory.md §6 "Limits"); CSV column refined_first_trusted',
        );
      const untrusted = cells.filter((c) => c.refinedSecondTrusted === false);
      if (untrusted.length > 0)
        notes.push(
          `refined 2nd "outside range" at ${cellsText(untrusted)}: ` +
            `there |ΣA|/(n|ΣV|) > ${SECOND_ORDER_RANGE} (the 1/n² term is not small against the 1/n term) and order 2 can be ` +
            'worse than order 1 (theory.md §6 "Limits"); CSV column refined_second_trusted',
        );
      // order 2's range says it beats order 1 there, not that its O(1/n³) remainder is small: where order 1 is itself
      // out of range, a large |t| beside order 2 is the expansion's error (exact chain: 4.273 vs 4.156 at d = 2, λ = 0.9,
      // n = 3), not the simulation's
      const secondBeyondFirst = cells.filter((c) => c.refinedSecondTrusted === true && !c.refinedFirstTrusted);
      if (secondBeyondFirst.length > 0)
        notes.push(
          `refined 2nd at ${cellsText(secondBeyondFirst)}: inside its own range (|ΣA|/(n|ΣV|) ≤ ${SECOND_ORDER_RANGE}: ` +
            'against the exact chain it beats order 1 there), but order 1 is outside its range, so the O(1/n³) remainder ' +
            'need not be small: its t measures the expansion’s error, not the simulation’s; the c₁/n + c₂/n² fit leaves ' +
            'these n out (theory.md §6 "Limits")',
        );
      if (unmet.length > 0)
        notes.push(
          `precision ${o.precision} not reached (--max-runs ${o.maxRuns} or ${MAX_STAGES} stages) at: ${unmet.map((p) => p.key).join(', ')}`,
        );
      // the code identity is this process's, and that of every cell: stored cells of other code are refused on
      // reading (cellStore `get`), so a table rebuilt from stored cells names the code that computed them
      const meta = { ...runMeta(), resumedCells: active.length - todo.length };
      const result = {
        tool: 'supermarket-lab',
        command: 'supermarket table',
        version: VERSION,
        code: meta.code,
        ...(meta.mixedCode ? { mixedCode: meta.mixedCode } : {}),
        settings: {
          d: o.d,
          lambda: o.lambda,
          n: o.n,
          sampling: o.sampling,
          start: o.start,
          runs: o.runs,
          eventsPerRun: o.eventsPerRun,
          precision: o.precision ?? null,
          maxRuns: o.precision === undefined ? null : o.maxRuns,
          seed: o.seed,
          exactMaxN: o.exactMaxN,
        },
        cells,
        fits,
        theory: [...theories.values()].map(({ d, lambda, meanField, sumV, sumA }) => ({ d, lambda, meanField, sumV, sumA })),
        notes,
        run: {
          threads,
          events: eventsDone,
          resumedCells: active.length - todo.length,
          // exact values read back from the store (not solved again in this run)
          resumedExact,
          storedEvents,
          simulationSeconds: simSeconds,
          cpuSeconds,
          exactCpuSeconds,
          wallSeconds,
          eventsPerSecond: eventsDone / simSeconds,
          eventsPerCpuSecond: eventsDone / cpuSeconds,
        },
      };
      // where the exact chains' CPU went (not counted in the simulation's CPU s above it)
      const exactNote =
        (exactCpuSeconds > 0 ? `; exact chains ${exactCpuSeconds.toFixed(1)} CPU s` : '') +
        (resumedExact > 0 ? `; ${resumedExact} exact values read from stored cells` : '');
      const markdown =
        `# Finite-n table: ${selectionFamilyName({ selection: 'jsq', d: o.d[0] }, o.d)}, exponential sizes, FIFO, sampling ${o.sampling}, --start ${o.start}\n\n` +
        finiteNTableMarkdown({ cells, fits }) +
        (notes.length > 0 ? `\nNotes:\n${notes.map((n) => `- ${n}`).join('\n')}\n` : '') +
        '\n' +
        (todo.length === 0
          ? `no events simulated in this run: all ${resumed.length} cells read from stored runs (${formatCount(storedEvents)} events ` +
            `behind them)${exactNote}; wall ${wallSeconds.toFixed(1)} s; seed ${o.seed}\n`
          : `${formatCount(eventsDone)} events in ${simSeconds.toFixed(1)} s on ${threads} thread(s) ` +
            `(${(eventsDone / simSeconds / 1e6).toFixed(1)} M events/s; ${cpuSeconds.toFixed(1)} CPU s, ` +
            `${(eventsDone / cpuSeconds / 1e6).toFixed(1)} M events per CPU s)` +
            (resumed.length > 0 ? `; ${resumed.length} more cells read from stored runs (${formatCount(storedEvents)} events)` : '') +
            `${exactNote}; wall ${wallSeconds.toFixed(1)} s; seed ${o.seed}\n`);
      const csv = stringify(finiteNTableCsvRows({ cells, fits }));
      if (o.csv !== undefined && o.csv !== '-') writeFileAtomic(o.csv, csv);
      if (o.out !== undefined) {
        mkdirSync(o.out, { recursive: true });
        writeJsonAtomic(path.join(o.out, 'results.json'), result);
        writeJsonAtomic(path.join(o.out, 'metadata.json'), meta);
        writeFileAtomic(path.join(o.out, 'table.md'), markdown);
        writeFileAtomic(path.join(o.out, 'table.csv'), csv);
      }
      if (o.json) printJson(result);
      else if (o.csv === '-') process.stdout.write(csv);
      else process.stdout.write(markdown);
    }),
  );
  return cmd;
}
