/**
 * `supermarket run experiments/<file>.json`: runs an experiment grid on all cores, storing each finished cell at
 * once (atomically) under <out>/cells/, so an interrupted run resumes where it stopped; then writes the report.
 */
import { estimandFiniteness } from '../../model/index.ts';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { parseConjecture, type Conjecture } from '../../claims/index.ts';
import { InvalidModelError } from '../../errors.ts';
import {
  STUDY_CLAIM_FILES,
  TraceCellRunner,
  expandGrid,
  judgeExperimentClaims,
  parseExperiment,
  type ExperimentCell,
  type ExperimentSpec,
} from '../../experiments/index.ts';
import type { CellOutcome } from '../../experiments/index.ts';
import { CellStore } from '../../runs/cellStore.ts';
import { simulationTask, storedSimulation, taskCost } from '../../runs/task.ts';
import { loadJsonFile } from '../../io/index.ts';
import { joinWarnings, previousReport, withIntervalWarnings, writeExperimentReport } from '../../report/index.ts';
import { heavyTailBudgetWarnings, type SimulationResult } from '../../sim/index.ts';
import { action, withInterruptMessage } from '../errors.ts';
import { runSimulations } from '../pool.ts';
import { addScaleOptions, addStoreOptions, printShardSummary, startShard } from '../sharding.ts';
import { assignShards, shardDir, type ShardSpec } from '../../runs/shard.ts';
import { createProgress } from '../progress.ts';
import { examples, outOption, parseInFile, refuseIdleOptions, reportFolder, startOption } from '../options.ts';
import { cappedWarmupWarning, type StartChoice } from '../../meanfield/warmup.ts';
import { commandLine, startRun } from '../versions.ts';
import { printJson } from '../output.ts';
import { lockFolder } from '../../runs/lock.ts';
import { formatCount } from '../../stats/index.ts';

/** The report's part of a run's progress bar (its figures and claims; seconds where the cells take minutes to hours). */
export const REPORT_SHARE = 0.01;

interface Opts {
  out?: string;
  start: StartChoice;
  jobs?: number;
  threads?: number;
  shard?: ShardSpec;
  fresh?: boolean;
  dryRun?: boolean;
  json?: boolean;
  latex?: boolean;
  progress: boolean;
}

/** Reads and validates an experiment file (one line naming the file and the JSON path on error). */
export function loadExperiment(file: string) {
  return loadJsonFile(file, 'experiment', parseExperiment);
}

/** The analysis/ folder of the package (claim files of the study). */
const ANALYSIS_DIR = fileURLToPath(new URL('../../../analysis/', import.meta.url));

/** The claim files an experiment is judged by: its own `claims` (relative to the file), else the study's H1–H3. */
export function loadExperimentClaims(file: string, spec: ExperimentSpec): Conjecture[] {
  const files = spec.claims
    ? spec.claims.map((c) => path.resolve(path.dirname(path.resolve(file)), c))
    : STUDY_CLAIM_FILES.map((c) => path.join(ANALYSIS_DIR, c));
  return files.map((f) => loadJsonFile(f, 'claim', parseConjecture));
}

/**
 * What a stored cell depends on: the whole cell (model, budget, seed, warm-up) but its key and what is said of it
 * (`uncappedWarmupTime`: the rule's warm-up beside the capped `warmupTime` the cell ran with; `relaxationTime`: τ, read
 * by the heavy-tail budget's warning).
 */
function cellSettings(cell: ExperimentCell): Omit<ExperimentCell, 'key' | 'uncappedWarmupTime' | 'relaxationTime'> {
  const { key: _key, uncappedWarmupTime: _said, relaxationTime: _tau, ...rest } = cell;
  return rest;
}

/**
 * What a cell's run warns of beside its intervals' own warnings (`estimandFiniteness`), for every estimate of the cell
 * (E[T] and E[T/S] alike): a warm-up the file's maxWarmup cut below the one rule's (`cappedWarmupWarning`), and a budget
 * below the heavy-tail rule of theory.md §8 (`heavyTailBudgetWarnings`, as simulate warns of it). Trace replays: none
 * (their sizes are the trace's, replayed once).
 */
function runWarnings(cell: ExperimentCell): string[] {
  if (cell.trace) return [];
  const capped =
    cell.uncappedWarmupTime === undefined
      ? undefined
      : cappedWarmupWarning({ time: cell.warmupTime, uncappedTime: cell.uncappedWarmupTime }, 'maxWarmup');
  const budget = heavyTailBudgetWarnings(cell.model.service, {
    jobs: cell.jobs,
    unit: 'replication',
    systemRate: cell.model.lambda * cell.n,
    relaxationTime: cell.relaxationTime,
  });
  return [...(capped === undefined ? [] : [capped]), ...budget];
}

function summarise(result: SimulationResult): CellOutcome['result'] {
  const r = result as SimulationResult & Partial<Pick<CellOutcome['result'], 'meanSlowdown' | 'responseTimePercentiles'>>;
  return {
    ...storedSimulation(r),
    ...(r.meanSlowdown ? { meanSlowdown: r.meanSlowdown } : {}),
    ...(r.responseTimePercentiles ? { responseTimePercentiles: r.responseTimePercentiles } : {}),
    ...(r.classes ? { classes: r.classes } : {}),
    ...(r.workRate ? { workRate: r.workRate } : {}),
  };
}

/**
 * `run --dry-run`: the cells the same command would compute (the grid, or with --shard i/N the cells `assignShards`
 * gives shard i — the same assignment a real shard run uses), with their estimated cost in events and whether a
 * stored result would be reused. Prints one line per cell, or with --json one object; writes nothing.
 */
function printPlan(name: string, grid: ExperimentCell[], cost: (c: ExperimentCell) => number, out: string, o: Opts): void {
  const assignment = o.shard
    ? assignShards(
        grid.map((c) => ({ key: c.key, cost: cost(c) })),
        o.shard.count,
      )
    : undefined;
  const cells = assignment ? grid.filter((c) => assignment.get(c.key) === o.shard!.index) : grid;
  const store = new CellStore<CellOutcome>(o.shard ? path.join(shardDir(path.resolve(out), o.shard), 'cells') : path.join(out, 'cells'), {
    fresh: o.fresh,
  });
  const rows = cells.map((c) => ({ key: c.key, cost: cost(c), stored: store.get(c.key, cellSettings(c)) !== undefined }));
  const plan = { experiment: name, shard: o.shard ?? null, gridCells: grid.length, cells: rows };
  if (o.json) return printJson(plan);
  const where = o.shard ? `shard ${o.shard.index}/${o.shard.count}: ${cells.length} of ${grid.length} cells` : `${grid.length} cells`;
  process.stdout.write(`run ${name} --dry-run, ${where} (nothing run or written)\n`);
  for (const r of rows) process.stdout.write(`  ${r.key}  ~${formatCount(r.cost)} events${r.stored ? '  (stored)' : ''}\n`);
}

export function runCommand(): Command {
  const cmd = new Command('run')
    .description(
      'Runs every cell of an experiment file with replications and Student-t 95% CIs, using one worker thread\n' +
        'per core. Each finished cell is stored at once in <out>/cells/; rerunning the same command resumes.\n' +
        'The report (<out>/index.html, report.md, figures with CSV/JSON) tabulates E[T] and slowdown per policy.',
    )
    .argument('<file>', 'experiment file (JSON), e.g. experiments/paper-synthetic.json', parseInFile)
    .addOption(outOption('reports/<experiment name>'))
    .addOption(startOption('every replication of a simulated cell'))
    .option('--latex', 'also write the paper export: figures/<name>.pdf (vector), tables.tex (booktabs: the cells) and report.tex')
    .option(
      '--dry-run',
      "list the cells this command would compute (with --shard i/N only shard i's; stored cells marked) and stop: nothing is run or written",
    );
  return addStoreOptions(addScaleOptions(cmd))
    .addHelpText(
      'after',
      examples([
        'supermarket run experiments/paper-synthetic.json',
        'supermarket run experiments/smoke.json --out reports/smoke --threads 1',
        'supermarket run experiments/paper-synthetic.json --shard 2/8   # one of 8 parts; then: supermarket merge reports/paper-synthetic',
        'supermarket run experiments/paper-synthetic.json --shard 2/8 --dry-run   # which cells shard 2 computes',
        'supermarket slurm experiments/paper-synthetic.json --array 8   # the same as a Slurm job array',
      ]),
    )
    .action(
      action(async (file: string, o: Opts, self: Command) => {
        const runMeta = startRun();
        const since = Date.now();
        const spec = loadExperiment(file);
        const claims = loadExperimentClaims(file, spec);
        let cells: ExperimentCell[];
        try {
          cells = expandGrid(spec, { start: o.start });
        } catch (error) {
          if (error instanceof InvalidModelError) throw new InvalidModelError(`${file}: ${error.message}`);
          throw error;
        }
        const out = reportFolder(o.out, path.join('reports', spec.name));
        const cost = (c: ExperimentCell) => (c.trace ? 1 : taskCost(c.lambda, c));
        // a dry run lists the cells and computes nothing: the options of a computing run have no effect there
        refuseIdleOptions(
          self,
          ['--threads', '--latex'].map((flag) => [flag, !o.dryRun, 'a run that computes', 'a dry run computes nothing; drop it'] as const),
        );
        if (o.dryRun) return printPlan(spec.name, cells, cost, out, o);
        // one run per folder (runs/lock.ts; released when the action ends): a shard locks its own folder, as shards of one run write side by side
        lockFolder(o.shard ? shardDir(path.resolve(out), o.shard) : out, commandLine(process.argv.slice(2)));
        const shard = o.shard
          ? startShard(
              o.shard,
              self,
              out,
              cells.map((c) => ({ key: c.key, cost: cost(c), settings: cellSettings(c) })),
            )
          : undefined;
        if (shard) cells = cells.filter((c) => shard.mine.has(c.key));
        const dir = shard ? shard.cellsDir : path.join(out, 'cells');
        const store = new CellStore<CellOutcome>(dir, { fresh: o.fresh });
        const outcomes = new Map<string, CellOutcome>();
        for (const cell of cells) {
          const stored = store.get(cell.key, cellSettings(cell));
          if (stored) outcomes.set(cell.key, stored);
        }
        const resumed = store.resumed;
        const todo = cells.filter((c) => !outcomes.has(c.key) && !c.trace);
        const traceTodo = cells.filter((c) => !outcomes.has(c.key) && c.trace);
        // one bar for the whole run, its clock from the command's start: the simulations (events), then the trace replays
        // (their events, estimated from the traces), then the report, counted as REPORT_SHARE of the whole so that 100 %
        // (and "done in", the whole run's time) comes when the report is written, not when the last cell is
        const traces = new TraceCellRunner(path.dirname(path.resolve(file)));
        const traceCost = new Map(traceTodo.map((c) => [c.key, traces.replayEvents(c)]));
        const work = todo.reduce((s, c) => s + cost(c), 0) + [...traceCost.values()].reduce((s, x) => s + x, 0);
        const total = work > 0 ? work / (1 - REPORT_SHARE) : 1; // all stored: the report is the whole run
        let done = 0;
        const progress = createProgress(`run ${spec.name}`, o.progress, { since });
        if (resumed > 0 && o.progress) process.stderr.write(`${resumed} of ${cells.length} cells resumed from ${dir}\n`);
        const index = path.join(out, 'index.html');
        // an earlier run stopped (Ctrl-C, a crash) while writing its report: say that this run writes it. Told from the disk:
        // a whole run's report leaves metadata.json before index.html (writeReportFolder writes index.html last), while a
        // shard run or a merge's copied cells leave cells but no metadata.json here (a shard writes no report by design)
        if (!shard && resumed > 0 && previousReport(out) !== null && !existsSync(index))
          process.stderr.write(
            `note: an earlier run stopped before writing its report (no ${index}); this run writes it, with the ${resumed} stored cells\n`,
          );
        const byKey = new Map(cells.map((c) => [c.key, c]));
        // simulations run in worker threads, so this thread stays free to answer Ctrl-C with what was kept
        const kept = () =>
          store.saved === 0
            ? 'no cell had finished, nothing was stored'
            : `${store.saved} of ${cells.length} cells are saved in ${dir}; rerun the same command to resume`;
        await withInterruptMessage(
          kept,
          () =>
            runSimulations(
              // seed cellSeed(spec.seed, key), as the cell records it (experiments/grid.ts)
              todo.map((c) =>
                simulationTask(spec.seed, c.key, c.model, {
                  n: c.n,
                  jobs: c.jobs,
                  replications: c.replications,
                  warmupTime: c.warmupTime,
                  ...(c.startTail === undefined ? {} : { start: { name: c.start, from: [...c.startTail] } }),
                }),
              ),
              (key, result) => {
                const cell = byKey.get(key)!;
                const { model: _m, ...cellData } = cell;
                const outcome: CellOutcome = { cell: cellData, result: summarise(result) };
                store.put(cell.key, cellSettings(cell), outcome);
                outcomes.set(key, outcome);
                done += cost(cell);
              },
              o.threads,
              (poolDone) => progress.update(poolDone, total, `${outcomes.size}/${cells.length} cells`),
            ),
          () => progress.stop(),
        );
        // from here to the report's last file a Ctrl-C keeps the cells but leaves the report unwritten or half-written (the
        // figures render while index.html is written): the message says so and that a rerun writes it from the stored cells
        const unfinished = () =>
          `${store.saved} of ${cells.length} cells are saved in ${dir}, but ${shard ? "the shard's summary was not written" : `the report was not finished (${index} missing or incomplete)`}: ` +
          `rerun the same command to write it from the stored cells${store.saved < cells.length ? ' (and compute the rest)' : ''}`;
        const finish = async (): Promise<void> => {
          // trace replays: one run each, in this thread (the trace and its learned predictions are loaded once)
          const skipped: { key: string; reason: string }[] = [];
          for (const cell of traceTodo) {
            progress.update(done, total, `${cell.service} ${cell.policy} λ = ${cell.lambda}`);
            const r = traces.run(cell);
            done += traceCost.get(cell.key)!;
            if ('skipReason' in r) {
              skipped.push({ key: cell.key, reason: r.skipReason });
              continue;
            }
            store.put(cell.key, cellSettings(cell), r);
            outcomes.set(cell.key, r);
          }
          const predictorQuality = [...new Map(cells.filter((c) => c.trace).map((c) => [c.service, c])).values()].map((c) =>
            traces.quality(c),
          );
          if (shard) {
            progress.update(total, total, `${outcomes.size}/${cells.length} cells`);
            progress.stop();
            shard.finish();
            if (skipped.length)
              process.stderr.write(`${skipped.length} trace cells skipped: ${skipped.map((x) => `${x.key} (${x.reason})`).join('; ')}\n`);
            printShardSummary(shard.summary(store.written, resumed), o.json);
            return;
          }
          const ordered = cells.filter((c) => outcomes.has(c.key)).map((c) => outcomes.get(c.key)!);
          const meta = {
            ...runMeta(),
            resumedCells: resumed,
            skippedCells: skipped,
            ...(predictorQuality.length ? { predictorQuality } : {}),
          };
          progress.update(done, total, 'writing the report');
          // what each cell's run warns of (`runWarnings`), for its findings and beside its entries
          const runWarned = new Map(cells.map((c) => [c.key, runWarnings(c)] as const));
          const findings = judgeExperimentClaims(claims, ordered, new Map(cells.map((c) => [c.key, c.model])), runWarned);
          // each cell's finiteness once (model/moments.ts), read three ways: a cell whose E[T] may be infinite with no
          // settling rule ("not settled" in its tables); what simulate warns of its E[T] interval (e.g. Var[T] = ∞: not a
          // 95 % interval) and of its E[T/S] interval (Var[T/S] = ∞), marked beside the entries, in results.json per
          // cell and in --json, as simulate says it
          // beside them what the cell's run warns of (`runWarnings`: a capped warm-up, the heavy-tail budget), on both measures
          const finiteness = cells.map((c) => [c.key, estimandFiniteness(c.model), runWarned.get(c.key)!] as const);
          const byCell = <T>(pick: (f: (typeof finiteness)[number][1], run: readonly string[]) => T | undefined) =>
            new Map(
              finiteness.flatMap(([key, f, run]) => {
                const v = pick(f, run);
                return v === undefined ? [] : [[key, v] as const];
              }),
            );
          const nonEmpty = (w: readonly string[]) => (w.length === 0 ? undefined : w);
          const unsettled = byCell((f) => f.meanResponseTimeUnsettled);
          const warnings = byCell((f, run) => nonEmpty([...f.warnings, ...run]));
          const slowdownWarnings = byCell((f, run) => nonEmpty([...f.slowdownWarnings, ...run]));
          const files = await writeExperimentReport(
            out,
            spec,
            ordered,
            meta,
            findings,
            { latex: o.latex === true },
            unsettled,
            warnings,
            slowdownWarnings,
          );
          progress.update(total, total, `${ordered.length}/${cells.length} cells, report written`);
          progress.stop();
          if (o.json) {
            // a mean not settled is in the one form already (sim/simulate.ts `unsettledEstimate`, io/jsonText.ts)
            // and a cell's interval warnings in its `warnings`, as results.json has them (withIntervalWarnings)
            const cellsJson = withIntervalWarnings(ordered, joinWarnings(warnings, slowdownWarnings)).map((x) => ({
              ...x.cell,
              ...x.result,
            }));
            printJson({ out, files, findings, cells: cellsJson, wallSeconds: meta.wallSeconds });
            return;
          }
          // a cap the file set that cut the rule's warm-up is said here too, not in the report alone
          const capped = cells.filter((c) => c.uncappedWarmupTime !== undefined).length;
          process.stdout.write(
            `Report written to ${path.join(out, 'index.html')}: ${cells.length} cells (${resumed} resumed) in ${meta.wallSeconds.toFixed(1)} s\n` +
              (capped === 0
                ? ''
                : `  warning: maxWarmup = ${spec.maxWarmup} cut the warm-up of ${capped} of ${cells.length} cells below the one warm-up rule's: their estimates may carry start bias (marked in the report)\n`),
          );
        };
        try {
          await withInterruptMessage(unfinished, finish, () => progress.stop());
        } finally {
          progress.stop();
        }
      }),
    );
}
