/**
 * `supermarket conjecture analysis/<file>.json`: evaluates a claim over a parameter grid (mean field where a solver
 * exists, simulation with CIs otherwise), with a holds / fails / undecided verdict per grid point, and writes its
 * report. Simulations run on the worker pool; every finished simulation and mean-field solve is stored at once under
 * <out>/cells/, so an interrupted run resumes.
 */
import path from 'node:path';
import { Command } from 'commander';
import { stringify } from 'csv-stringify/sync';
import {
  conjectureResultsJson,
  conjectureRows,
  intervalWarningLines,
  openEndLines,
  quantityJson,
  evaluateConjecture,
  parseConjecture,
  type SimulationRequest,
  type SimulationSummary,
} from '../../claims/index.ts';
import { solveMeanField, type MeanFieldSolution, type SolveOptions } from '../../meanfield/solve.ts';
import { CellStore, settingsHash } from '../../runs/cellStore.ts';
import { loadJsonFile } from '../../io/index.ts';
import type { SupermarketModel } from '../../model/index.ts';
import { conjectureFigures, conjectureMarkdown, resumedNote, writeReportFolder } from '../../report/index.ts';
import type { SimulationResult } from '../../sim/index.ts';
import { action, withInterruptMessage } from '../errors.ts';
import { runSimulations } from '../pool.ts';
import { addScaleOptions, addStoreOptions, printShardSummary, startShard, type ShardSummary } from '../sharding.ts';
import { shardDir, type ShardSpec } from '../../runs/shard.ts';
import { lockFolder } from '../../runs/lock.ts';
import { createProgress } from '../progress.ts';
import { examples, outOption, parseInFile, parsePositiveInteger, parseReplications, reportFolder, startOption } from '../options.ts';
import type { StartChoice } from '../../meanfield/warmup.ts';

/** Thrown by the simulate hook once a shard's simulations are stored: the shard writes no report. */
class ShardDone {
  constructor(readonly summary: ShardSummary) {}
}
import { commandLine, startRun } from '../versions.ts';
import { printJson } from '../output.ts';

interface Opts {
  out?: string;
  threads?: number;
  shard?: ShardSpec;
  fresh?: boolean;
  json?: boolean;
  progress: boolean;
  n?: number;
  jobs?: number;
  replications?: number;
  start: StartChoice;
}

/**
 * Reads and validates a conjecture file (one line naming the file and the JSON path on error); `overrides` replace
 * the evaluation budget of the file; `startDefault` is the start where the file names none (the CLI's --start default),
 * an `overrides.start` replaces the file's.
 */
export function loadConjecture(
  file: string,
  overrides: { n?: number; jobs?: number; replications?: number; start?: StartChoice } = {},
  startDefault?: StartChoice,
) {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return loadJsonFile(file, 'conjecture', (json, label) => {
    if (json && typeof json === 'object' && (Object.keys(given).length > 0 || startDefault !== undefined)) {
      const j = json as { evaluation?: Record<string, unknown> };
      const own = j.evaluation ?? {};
      j.evaluation = { ...(startDefault !== undefined && own.start === undefined ? { start: startDefault } : {}), ...own, ...given };
    }
    return parseConjecture(json, label);
  });
}

function summarise(r: SimulationResult): SimulationSummary {
  return {
    meanResponseTime: r.meanResponseTime,
    meanSlowdown: r.meanSlowdown,
    responseTimePercentiles: r.responseTimePercentiles,
    events: r.events,
    wallSeconds: r.wallSeconds,
    // why a percentile interval is open at an end: the report and the text say it, as simulate and replay do
    ...(r.notes && r.notes.length > 0 ? { notes: r.notes } : {}),
  };
}

export function conjectureCommand(): Command {
  const cmd = new Command('conjecture')
    .description(
      'Evaluates the claim of a conjecture file (a mathjs expression over T, S, P50, P95, P99 (selection, discipline):\n' +
        'mean response time, mean slowdown, response-time percentiles) at every grid point (λ × d × service × prediction).\n' +
        'Each quantity comes from the mean-field solver where one exists (exact, approximation or estimate) and from finite-n\n' +
        'simulation with 95% CIs otherwise; the report names the source of each. A comparison holds if it is true for\n' +
        'every value in the interval enclosures of its sides, fails if false for all, and is undecided otherwise.\n' +
        'Writes <out>/report.md, index.html, figures/ (verdict map, both sides vs λ: PNG, SVG, vega-lite, CSV, JSON),\n' +
        'results.json, metadata.json; finished simulations and solves are kept in <out>/cells/ (rerun to resume).',
    )
    .argument('<file>', 'conjecture file (JSON), e.g. analysis/h3-jsq-beats-lpw.json', parseInFile)
    .addOption(outOption('reports/conjecture-<name>'))
    .option('--n <n>', 'override evaluation.n (servers of the simulations)', parsePositiveInteger)
    .option('--jobs <k>', 'override evaluation.jobs (measured jobs per replication)', parsePositiveInteger)
    .option('--replications <r>', 'override evaluation.replications', parseReplications)
    // given: overrides evaluation.start; else the file's, or this default where the file names none
    .addOption(startOption('every replication of a simulation'));
  return addStoreOptions(addScaleOptions(cmd))
    .addHelpText(
      'after',
      examples(
        ['supermarket conjecture analysis/h1-known-sizes.json', 'supermarket conjecture analysis/q4-heavy-traffic-ratio.json --json'],
        'Claim syntax: comparisons (<, <=, >, >=, chained), and/or/not, + - * / ^, log, log2, log10, sqrt, exp, abs, min, max;\n' +
          'symbols lambda, d, n, pi, e. See analysis/README.md.',
      ),
    )
    .action(
      action(async (file: string, o: Opts, self: Command) => {
        const runMeta = startRun();
        const cliStart = self.getOptionValueSource('start') === 'cli';
        const conjecture = loadConjecture(
          file,
          { n: o.n, jobs: o.jobs, replications: o.replications, ...(cliStart ? { start: o.start } : {}) },
          o.start,
        );
        const out = reportFolder(o.out, path.join('reports', `conjecture-${conjecture.spec.name}`));
        // one run per folder (runs/lock.ts; released when the action ends): a shard locks its own folder, as shards of one run write side by side
        lockFolder(o.shard ? shardDir(path.resolve(out), o.shard) : out, commandLine(process.argv.slice(2)));
        const cells = path.join(out, 'cells');
        const solveStore = new CellStore<MeanFieldSolution>(cells, { fresh: o.fresh });
        const runStore = new CellStore<SimulationSummary>(cells, { fresh: o.fresh });
        const simStore = runStore;
        const solveProgress = createProgress(`conjecture ${conjecture.spec.name}: mean field`, o.progress);
        const solve = (model: SupermarketModel, options: SolveOptions): MeanFieldSolution => {
          const settings = { model, options };
          const key = `mf-${settingsHash(settings)}`;
          const cached = solveStore.get(key, settings);
          if (cached) return cached;
          const s = solveMeanField(model, options);
          if (s.kind === 'estimate') solveStore.put(key, settings, s); // only estimates (cavity solves) are slow enough to keep
          return s;
        };
        // What a Ctrl-C keeps, said by the phase it comes in (one handler around the whole evaluation and report): the
        // slow mean-field solves (cavity estimates), then the simulations, then a report not finished. It said nothing
        // in the mean-field phase and the report's, and exited 130 only once every solve was done.
        let phase: 'mean field' | 'simulations' | 'report' = 'mean field';
        let simulations: { saved: () => number; of: number; dir: string } | undefined;
        let stopProgress = () => solveProgress.stop();
        const index = path.join(out, 'index.html');
        const kept = (): string => {
          const n = solveStore.saved;
          const solves = `${n} slow mean-field solve${n === 1 ? ' is' : 's are'} saved in ${cells}`;
          if (phase === 'mean field')
            return n === 0
              ? 'in the mean-field solves, before any was stored (only the slow ones are): rerun the command to start again'
              : `in the mean-field solves: ${solves}; rerun the same command to resume`;
          const what = simulations
            ? `${simulations.saved()} of ${simulations.of} simulations (and the slow mean-field solves) are saved in ${simulations.dir}`
            : n === 0
              ? 'nothing was stored (no mean-field solve was slow enough to keep)'
              : solves;
          if (phase === 'simulations') return `${what}; rerun the same command to resume`;
          return `${what}, but the report was not finished (${index} missing or incomplete): rerun the same command to write it`;
        };
        const simulate = async (all: readonly SimulationRequest[]): Promise<SimulationSummary[]> => {
          let requests = all;
          solveProgress.stop();
          phase = 'simulations';
          const found = new Map<string, SimulationSummary>();
          const keyOf = (r: SimulationRequest) => `sim-${r.key}`;
          const shard = o.shard
            ? startShard(
                o.shard,
                self,
                out,
                requests.map((r) => ({ key: keyOf(r), cost: r.cost, settings: { model: r.model, options: r.options } })),
              )
            : undefined;
          const simStore = shard ? new CellStore<SimulationSummary>(shard.cellsDir, { fresh: o.fresh }) : runStore;
          if (shard) requests = requests.filter((r) => shard.mine.has(keyOf(r)));
          for (const r of requests) {
            const v = simStore.get(keyOf(r), { model: r.model, options: r.options });
            if (v) found.set(r.key, v);
          }
          const resumed = simStore.resumed;
          const todo = requests.filter((r) => !found.has(r.key));
          if (resumed > 0 && o.progress) process.stderr.write(`${resumed} of ${requests.length} simulations resumed from ${cells}\n`);
          const total = todo.reduce((s, r) => s + r.cost, 0);
          const progress = createProgress(`conjecture ${conjecture.spec.name}: simulations`, o.progress);
          const byKey = new Map(todo.map((r) => [r.key, r]));
          // simulations run in worker threads, so this thread stays free to answer Ctrl-C with what was kept
          simulations = { saved: () => simStore.saved, of: requests.length, dir: shard ? shard.cellsDir : cells };
          stopProgress = () => progress.stop();
          await runSimulations(
            todo,
            (key, result) => {
              const r = byKey.get(key)!;
              const summary = summarise(result);
              simStore.put(keyOf(r), { model: r.model, options: r.options }, summary, { request: r });
              found.set(key, summary);
            },
            o.threads,
            (poolDone) => progress.update(poolDone, total, `${found.size}/${requests.length} simulations`),
          );
          progress.stop();
          phase = 'report';
          if (shard) {
            shard.finish();
            throw new ShardDone(shard.summary(simStore.written, resumed));
          }
          return requests.map((r) => found.get(r.key)!);
        };
        // the evaluation and the report: one Ctrl-C handler for every phase (`kept`)
        const evaluateAndReport = async (): Promise<void> => {
          let result;
          try {
            result = await evaluateConjecture(conjecture, {
              solve,
              simulate,
              onSolve: (done, total, label) => solveProgress.update(done, total, label),
            });
          } catch (e) {
            if (!(e instanceof ShardDone)) throw e;
            solveProgress.stop();
            printShardSummary(e.summary, o.json);
            return;
          }
          solveProgress.stop();
          phase = 'report';
          if (o.shard) {
            // no simulation in this grid: nothing to shard; shard 1 says so, every shard exits cleanly
            const message = `shard ${o.shard.index}/${o.shard.count}: this conjecture needs no simulation (mean field only); run it without --shard`;
            if (o.json) printJson({ shard: o.shard, cells: 0, message });
            else process.stdout.write(`${message}\n`);
            return;
          }
          const figures = conjectureFigures(result);
          const rows = conjectureRows(result);
          const meta = { ...runMeta(), resumedSimulations: simStore.resumed, resumedSolves: solveStore.resumed };
          // which code made the numbers, as `run` records it: this process's (stored cells of other code are refused on
          // reading, or with --allow-mixed-code named in mixedCode)
          const code = { code: meta.code, ...(meta.mixedCode ? { mixedCode: meta.mixedCode } : {}) };
          const md = conjectureMarkdown(result, figures, meta);
          const written = await writeReportFolder(out, {
            figures,
            results: { ...(conjectureResultsJson(result) as object), ...code },
            metadata: meta,
            markdown: md,
            title: `supermarket-lab conjecture: ${result.name}`,
            extraFiles: { 'points.csv': stringify(rows, { header: true, columns: [...new Set(rows.flatMap((r) => Object.keys(r)))] }) },
          });
          const s = result.summary;
          if (o.json) {
            printJson({
              out,
              files: written,
              name: result.name,
              claim: result.claim,
              ...code,
              summary: s,
              wallSeconds: meta.wallSeconds,
              simulations: result.simulations.map((r) => ({ key: r.key, seed: r.options.seed })),
              points: result.points.map((p) => ({
                ...p.point,
                verdict: p.verdict,
                ...(p.infinite ? { infinite: p.infinite } : {}),
                // what simulate warns of the intervals the verdict rests on (e.g. not a 95 % interval), as results.json says it
                ...(p.warnings ? { warnings: p.warnings } : {}),
                comparisons: p.comparisons,
                quantities: p.quantities.map((q) => {
                  const j = quantityJson(q, p);
                  // an infinite quantity: the ∞ object as its value and no interval (io/jsonText.ts, one form)
                  return {
                    key: j.key,
                    value: j.value,
                    ...('interval' in j ? { interval: j.interval } : {}),
                    source: j.source,
                    method: j.method,
                    // why a percentile interval is open at an end, as results.json and the text say it
                    ...(j.openEnd === undefined ? {} : { openEnd: j.openEnd }),
                    ...(j.openEndWhy === undefined ? {} : { openEndWhy: j.openEndWhy }),
                    ...(j.warnings === undefined ? {} : { warnings: j.warnings }),
                  };
                }),
              })),
            });
            return;
          }
          process.stdout.write(
            `${result.name}: ${result.claim}\n  holds ${s.holds}, fails ${s.fails}, undecided ${s.undecided}${s.undefined ? `, undefined (infinite) ${s.undefined}` : ''} of ${s.total} grid points ` +
              `(${result.simulations.length} simulations${resumedNote(meta)}) in ${meta.wallSeconds.toFixed(1)} s\n  report: ${path.join(out, 'index.html')}\n` +
              openEndLines(result)
                .map((l) => `  note: ${l}\n`)
                .join('') +
              intervalWarningLines(result)
                .map((l) => `  warning: ${l}\n`)
                .join(''),
          );
        };
        await withInterruptMessage(kept, evaluateAndReport, () => stopProgress());
      }),
    );
}
