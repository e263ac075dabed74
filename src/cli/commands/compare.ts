/**
 * `supermarket compare`: n-sweep of the simulator against the mean field and the refined mean field, written as a
 * validation report. Finished cells are stored in <out>/cells/, so an interrupted run resumes where it stopped.
 * JSQ(d) FIFO exponential (the default) and server speeds where the per-class ODE answers are judged against the
 * refined mean field (theory.md §6, §13); every other model with a mean-field solver (`solveMeanField`) is judged
 * "Without V" (theory.md §8); both by `runComparison`, whose `judgedBy` the text, the JSON and the report all read.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { describeFitErrorOf } from '../../meanfield/phaseType/fitError.ts';
import {
  EXACT_DEFAULTS,
  fittedLimitInterval,
  groupNotes,
  unvaluedReference,
  UNVALUED,
  UNVALUED_STATUSES,
  THESIS_MEMORY_PRESETS,
  thesisMemoryPreset,
  type ComparisonConfig,
  type ModelFields,
} from '../../compare/index.ts';
import { isClassicModel } from '../../meanfield/capabilities.ts';
import type { StartChoice } from '../../meanfield/warmup.ts';
import {
  formatArrivals,
  infiniteMeanWords,
  parseModel,
  settingApplies,
  type BatchDispatch,
  type Discipline,
  type Redundancy,
  type ReplicaLaw,
  type Sampling,
  type Selection,
  type SupermarketModel,
} from '../../model/index.ts';
import { shardDir, type ShardSpec } from '../../runs/shard.ts';
import { lockFolder } from '../../runs/lock.ts';
import { plusMinus } from '../../stats/index.ts';
import { figuresOnPool, runComparisonOnPool } from '../comparePool.ts';
import { withPool } from '../pool.ts';
import { addScaleOptions, addStoreOptions, printShardSummary } from '../sharding.ts';
// the report's own modules, not its index: that loads the experiment and claim reports too (their zod schemas, built
// as they load), which compare never writes, before its first task
import { disagreementLine, referenceJson, exactPointJson, cellsAgreeText, writeComparisonReport } from '../../report/comparisonReport.ts';
import { NOT_RESOLVED, previousReport, settingsFolderName, statusText, resumedText, countedText } from '../../report/page.ts';
import { fixedPointFloorAtD1, FIXED_POINT_FLOOR_AT_D1 } from '../../report/warmupWords.ts';
import { action } from '../errors.ts';
import { createProgress } from '../progress.ts';
import {
  addModelOptions,
  examples,
  parseIntegerList,
  parseJobs,
  parseMaxLevel,
  parseSeed,
  parseNumberList,
  samplingInput,
  startOption,
  outOption,
  parsePositive,
  parseReplications,
  reportFolder,
  refuseIdleOptions,
  refuseIdleSettings,
  serversFromFlags,
  warmupToleranceHelp,
} from '../options.ts';
import { commandLine, startRun } from '../versions.ts';
import { timeline } from '../timeline.ts';
import { printJson } from '../output.ts';

/** The default preset run by `npm start`: sized to finish within about 5 minutes on 2 cores. */
export const DEFAULT_PRESET = {
  lambdas: [0.7, 0.9, 0.95],
  ds: [2, 3],
  ns: [10, 20, 50, 100, 200, 500, 1000, 10000],
  jobs: 500_000,
  replications: 10,
  trajectoryNs: [100, 1000, 10000],
  /** Exact points (and small-budget simulated cells) at these n where the chain fits the state budget. */
  exactNs: [2, 3, 4, 5],
  out: 'reports/default',
};

interface Opts {
  preset?: string;
  latex?: boolean;
  lambda: number[];
  d: number[];
  n: number[];
  sampling: Sampling;
  jobs: number;
  replications: number;
  seed: number;
  selection: string;
  discipline: string;
  service: string;
  prediction: string;
  memory?: string;
  speeds?: string;
  fractions?: string;
  serverSampling?: string;
  arrivals?: string;
  batch?: string;
  batchDispatch?: string;
  redundancy?: string;
  replicas?: string;
  warmupTolerance: number;
  start: StartChoice;
  maxLevel: number;
  out?: string;
  trajectory: boolean;
  trajectoryN: number[];
  tEnd: number;
  dt: number;
  trajectoryReplications: number;
  threads?: number;
  shard?: ShardSpec;
  exactN?: number[];
  exactBound: number;
  exactMaxStates: number;
  exactJobs: number;
  fresh?: boolean;
  json?: boolean;
  progress: boolean;
  resolve?: number;
  maxJobs?: number;
  minHorizon?: number;
}

/**
 * The settings a cell's result depends on (besides its own d, λ, n), so stale cells are not reused. The model fields
 * enter only when given (the general path).
 */
/** For renewal arrivals: the summary line says the limit is Poisson's and c₁ is fitted, not known (theory.md §14). */
function arrivalsWithoutV(result: { readonly models: readonly { readonly model: SupermarketModel }[] }): string {
  const a = result.models[0]?.model.arrivals;
  return a === undefined || a.kind === 'exponential'
    ? ''
    : `; arrivals ${formatArrivals(a)}: limit against the Poisson one, the 1/n coefficient fitted, not predicted`;
}

function cellSettings(c: ComparisonConfig, model?: ModelFields) {
  return {
    sampling: c.sampling,
    jobs: c.jobs,
    replications: c.replications,
    seed: c.seed,
    warmupTolerance: c.warmupTolerance,
    warmupSafetyFactor: c.warmupSafetyFactor,
    // the empty start leaves the hash as it was; 'auto' and 'fixed-point' enter it, so a cell started otherwise is recomputed
    ...(c.start === undefined || c.start === 'empty' ? {} : { start: c.start }),
    maxLevel: c.maxLevel,
    ...(model ? { model } : {}),
    ...(c.resolve ? { resolve: c.resolve } : {}),
    ...(c.horizon ? { horizon: c.horizon } : {}),
  };
}

/**
 * n values of the transient comparison: --trajectory-n when given; otherwise the default preset's when --n is the
 * default too, else up to three of the requested n (smallest, middle, largest), so a quick sweep stays quick.
 */
function trajectoryNs(o: Opts): number[] {
  const p = DEFAULT_PRESET;
  const givenN = o.n.join(',') !== p.ns.join(',');
  if (o.trajectoryN.join(',') !== p.trajectoryNs.join(',') || !givenN) return o.trajectoryN;
  const sorted = [...o.n].sort((a, b) => a - b);
  return [...new Set([sorted[0], sorted[Math.floor((sorted.length - 1) / 2)], sorted[sorted.length - 1]])];
}

/** Options that do not change the results (where they go, whether stored cells are reused, how progress shows). */
const NOT_SETTINGS = new Set(['out', 'fresh', 'json', 'progress']);

/**
 * Where a run writes without --out: the default preset (no option given) keeps reports/default; other settings get
 * reports/compare-<model>-d<d>-l<λ>-<hash of every setting>, so runs of different settings never share a folder.
 */
function outDirFor(o: Opts, cmd: Command): string {
  const keys = cmd.options.map((x) => x.attributeName()).filter((k) => !NOT_SETTINGS.has(k));
  if (keys.every((k) => (cmd.getOptionValueSource(k) ?? 'default') === 'default')) return DEFAULT_PRESET.out;
  const label = [
    'compare',
    o.selection,
    o.discipline,
    o.service,
    ...(o.prediction === 'exact' ? [] : [o.prediction]),
    ...(o.memory === undefined || o.memory === 'none' ? [] : [`memory-${o.memory.replace(':', '')}`]),
    ...(o.arrivals === undefined || o.arrivals === 'exp' ? [] : [`arrivals-${o.arrivals.replace(/[:,]/g, '_')}`]),
    `d${o.d.join('_')}`,
    `l${o.lambda.join('_')}`,
  ].join('-');
  return path.join('reports', settingsFolderName(label, Object.fromEntries(keys.map((k) => [k, cmd.getOptionValue(k)]))));
}

/** The options a `--preset` sets (the model and its grid); --n may narrow its n list, the budget options stay free. */
const PRESET_OPTIONS = ['lambda', 'd', 'selection', 'discipline', 'service', 'prediction', 'memory'] as const;

/**
 * Applies `--preset thesis-memory:K` (compare/memoryTable.ts: setup K of Hellemans' Table fin_acc) to the options:
 * λ, d, the model fields and, unless --n is given, the thesis's n list.
 * @throws {InvalidArgumentError} when an option the preset sets was given too (one line, never a silent override), or
 *   when --n names an n outside the thesis's columns (the preset narrows, it does not extend).
 */
function applyPreset(o: Opts, cmd: Command): void {
  if (o.preset === undefined) return;
  const given = PRESET_OPTIONS.filter((k) => cmd.getOptionValueSource(k) === 'cli');
  if (given.length > 0)
    throw new InvalidArgumentError(
      `--preset ${o.preset} sets ${given.map((k) => `--${k}`).join(', ')}; drop ${given.length > 1 ? 'them' : 'it'} or the preset`,
    );
  const preset = thesisMemoryPreset(THESIS_MEMORY_PRESETS.indexOf(o.preset) + 1);
  o.lambda = [...preset.lambdas];
  o.d = [...preset.ds];
  if (cmd.getOptionValueSource('n') !== 'cli') o.n = [...preset.ns];
  else {
    // the preset is a row of the thesis's table: --n picks among its columns, an n outside them has no thesis value
    const outside = o.n.filter((n) => !preset.ns.includes(n));
    if (outside.length > 0)
      throw new InvalidArgumentError(
        `--n ${outside.join(',')}: --preset ${o.preset} covers the thesis's n = ${preset.ns.join(', ')} only; pick among them, or drop --preset and give the model options`,
      );
  }
  o.selection = preset.model.selection as string;
  o.discipline = preset.model.discipline as string;
  o.service = preset.model.service as string;
  o.prediction = preset.model.prediction as string;
  o.memory = preset.model.memory as string;
}

/** "none" or a comma-separated list of n ≥ 1 for --exact-n. */
function parseExactNs(value: string): number[] {
  if (value.trim() === 'none') return [];
  const ns = parseIntegerList(value);
  if (ns.some((n) => n < 1)) throw new InvalidArgumentError(`expected n ≥ 1, got ${JSON.stringify(value)}`);
  return ns;
}

/**
 * n of the exact points: --exact-n when given, else the preset's 2..5 when --n is the default, else the --n values
 * among 2..5: a sweep cell there (the refined expansion's range ends above it) is judged against the exact chain
 * where it exists, not left "refined-out-of-range" beside no reference.
 */
export function exactNs(o: { readonly exactN?: number[]; readonly n: number[] }): number[] {
  if (o.exactN) return o.exactN;
  if (o.n.join(',') === DEFAULT_PRESET.ns.join(',')) return DEFAULT_PRESET.exactNs;
  return o.n.filter((n) => DEFAULT_PRESET.exactNs.includes(n));
}

/** The code identity of a run's results (`code`, and `mixedCode` with --allow-mixed-code), as every command's results carry it. */
function codeFields(meta: { code: string; mixedCode?: string[] }): { code: string; mixedCode?: string[] } {
  return { code: meta.code, ...(meta.mixedCode ? { mixedCode: meta.mixedCode } : {}) };
}

export function compareCommand(): Command {
  const p = DEFAULT_PRESET;
  const cmd = new Command('compare')
    .description(
      'For every (d, λ) and every n, simulates the system (replications × jobs after a mean-field warm-up) and\n' +
        'compares E[T] with the n → ∞ limit. JSQ(d) FIFO exponential (the default): against the mean field and the refined\n' +
        'mean field π + V/n, tail fractions, slope of log|error| against log n (expect about −1), a verdict per n; server\n' +
        'speeds (--speeds) where the per-class ODE answers: against its refined term (theory.md §13).\n' +
        'Any other model (--selection, --discipline, --service, --prediction): against the solver that solveMeanField picks\n' +
        '(closed form, FPE, phase-type ODE, M/G/1, or a cavity estimate with its CI), judged without a refined term:\n' +
        'fit x̂_n = a + c₁/n (+ c₂/n²), check a against the limit, report c₁; LWL(d) adds the workload ccdf and the PIDE\n' +
        'transient. LPW(d) is set beside the LPW cavity estimate (theory.md §5, an ansatz). Writes <out>/index.html, report.md, figures\n' +
        '(PNG, SVG, vega-lite spec, CSV, JSON), results.json, metadata.json.\n' +
        'Finished cells are kept in <out>/cells/: rerun the same command to resume an interrupted sweep.',
    )
    .option('--lambda <list>', 'arrival rates per server, comma-separated', parseNumberList, p.lambdas)
    .option('--d <list>', 'choices d, comma-separated', parseNumberList, p.ds)
    .option('--n <list>', 'numbers of servers, comma-separated', parseIntegerList, p.ns)
    .addOption(
      new Option(
        '--preset <name>',
        "a setup of Hellemans' thesis table (ch. 6, Table fin_acc: dispatcher memory, n = 10 … 3000): sets λ, d, the model " +
          'and the n list (--n may narrow it); compare/memoryTable.ts holds the thesis values',
      ).choices(THESIS_MEMORY_PRESETS),
    );
  addModelOptions(cmd, false)
    .option('--jobs <count>', 'measured arrivals per replication (the same budget for every n)', parseJobs, p.jobs)
    .option('--replications <r>', 'independent replications per cell (≥ 2)', parseReplications, p.replications)
    .option(
      '--resolve <fraction>',
      'size each cell so its CI half-width ≤ fraction × the 1/n term ΣV/(λn) it tests (refined models), ' +
        'up to --max-jobs per replication, else "not resolvable within budget"',
      parsePositive,
    )
    .option(
      '--min-horizon <k>',
      'raise jobs per replication so each cell measures ≥ k relaxation times τ (theory.md §8 asks 20), ' +
        'up to --max-jobs; without it short cells are flagged',
      parsePositive,
    )
    .option('--max-jobs <count>', 'job budget per replication for --resolve and --min-horizon (default 8 × --jobs)', parseJobs)
    .option('--seed <seed>', 'master seed; cell seeds derive from it', parseSeed, 1)
    .option('--warmup-tolerance <ε>', warmupToleranceHelp(), parsePositive, 1e-3)
    .addOption(startOption('every replication of the sweep and the exact points'))
    .option('--max-level <K>', 'record tail fractions s_0..s_K', parseMaxLevel, 30)
    .addOption(outOption(`${p.out} for the default preset, else reports/compare-<model>-d<d>-l<λ>-<hash of the settings>`))
    .option('--no-trajectory', 'skip the transient comparison from empty')
    .option(
      '--trajectory-n <list>',
      'n values for the transient comparison (default: 100,1000,10000 for the default --n, else up to three of --n)',
      parseIntegerList,
      p.trajectoryNs,
    )
    .option(
      '--t-end <t>',
      'transient horizon (time units); default: what its figure draws, 3τ or past the mean field settling (within 1.2 × the warm-up, at most 400)',
      parsePositive,
    )
    .option('--dt <dt>', 'transient output step; default t-end/100', parsePositive)
    .option('--trajectory-replications <r>', 'replications of each simulated trajectory', parseReplications, 5)
    .option('--latex', 'also write the paper export: figures/<name>.pdf (vector), tables.tex (booktabs: cells, fits) and report.tex')
    .option(
      '--exact-n <list>',
      'small n solved exactly (JSQ/random, FIFO, exponential) where the chain fits --exact-max-states; cells at those n are ' +
        'simulated (--exact-jobs) and judged against the exact value; "none" for none (default: 2,3,4,5 with the default --n, ' +
        'else the --n values among 2..5)',
      parseExactNs,
    )
    .option(
      '--exact-bound <ε>',
      'bound on the truncation error of the exact E[T] (time units), added to the CI in the verdict',
      parsePositive,
      EXACT_DEFAULTS.truncationBound,
    )
    .option(
      '--exact-max-states <count>',
      'skip an exact n whose truncated chain has more states (2e5: a few seconds)',
      parsePositive,
      EXACT_DEFAULTS.maxStates,
    )
    .option(
      '--exact-jobs <count>',
      'measured arrivals per replication of the small-n cells added for exact points',
      parseJobs,
      EXACT_DEFAULTS.jobs,
    );
  addStoreOptions(
    addScaleOptions(cmd),
    'ignore finished cells stored in <out>/cells/ and recompute everything',
    'print a JSON summary (per model and per cell) on stdout',
  )
    .addHelpText(
      'after',
      examples([
        'supermarket compare                       # the default validation report (npm start)',
        'supermarket compare --lambda 0.9 --d 2 --n 10,100,1000 --out reports/quick',
        'supermarket compare --lambda 0.99 --d 2 --jobs 2e6 --replications 10 --out reports/heavy',
        'supermarket compare --selection lwl --lambda 0.9 --d 2 --n 20,50,100,200,500,1000 --out reports/lwl',
        'supermarket compare --selection lwl --service weibull:0.5 --lambda 0.9 --d 2 --n 50,200,1000 --out reports/lwl-weibull',
        'supermarket compare --preset thesis-memory:5 --jobs 200000 --replications 5 --out reports/thesis-memory-5',
      ]),
    )
    .action(
      action(async (o: Opts, self: Command) => {
        timeline('phase', { name: 'action' });
        applyPreset(o, self);
        const policy = { selection: o.selection as Selection, discipline: o.discipline as Discipline, d: 2 };
        refuseIdleSettings(self, policy, o.d);
        // options that act only with another (no setting dropped silently)
        const exactGiven = exactNs(o).length > 0;
        refuseIdleOptions(self, [
          ['--max-jobs', o.resolve !== undefined || o.minHorizon !== undefined, '--resolve or --min-horizon'],
          ...(['--trajectory-n', '--t-end', '--dt', '--trajectory-replications'] as const).map(
            (flag) => [flag, o.trajectory, 'the transient comparison', 'drop it or drop --no-trajectory'] as const,
          ),
          ...(['--exact-bound', '--exact-max-states', '--exact-jobs'] as const).map(
            (flag) => [flag, exactGiven, 'exact points (--exact-n)', 'drop it or give --exact-n'] as const,
          ),
        ]);
        // a rule that samples no servers (random, jiq) runs at d = 1 whatever the preset's d list says
        if (!settingApplies('d', policy)) o.d = [1];
        const runMeta = startRun();
        const out = reportFolder(o.out, outDirFor(o, self));
        // one run per folder (runs/lock.ts; released when the action ends): a shard locks its own folder, as shards of one run write side by side
        lockFolder(o.shard ? shardDir(path.resolve(out), o.shard) : out, commandLine(process.argv.slice(2)));
        const tEnd = o.tEnd ?? 0; // resolved below when 0
        // the flags' names are checked by commander's choices and again by parseModel
        const fields: ModelFields = {
          selection: o.selection as Selection,
          discipline: o.discipline as Discipline,
          service: o.service,
          prediction: o.prediction,
          ...(o.memory !== undefined && o.memory !== 'none' ? { memory: o.memory } : {}),
          ...(serversFromFlags(o) as Pick<ModelFields, 'servers'>),
          ...(o.arrivals !== undefined && o.arrivals !== 'exp' ? { arrivals: o.arrivals } : {}),
          ...(o.batch !== undefined && o.batch !== '1' ? { batch: o.batch } : {}),
          ...(o.batchDispatch !== undefined && o.batchDispatch !== 'spread' ? { batchDispatch: o.batchDispatch as BatchDispatch } : {}),
          ...(o.redundancy !== undefined && o.redundancy !== 'none' ? { redundancy: o.redundancy as Redundancy } : {}),
          ...(o.replicas !== undefined ? { replicas: o.replicas as ReplicaLaw } : {}),
        };
        // every (d, λ) of a sweep shares the fields, so the first decides whether it is the classic model (keys and settings
        // by (d, λ, n) alone); parseModel checks them all later. Whether cells are judged with a refined term is the
        // result's `judgedBy` (server speeds have one too), never this.
        const classic = isClassicModel(parseModel({ ...fields, lambda: o.lambda[0], d: o.d[0], ...samplingInput(o) }));
        const config: ComparisonConfig = {
          lambdas: o.lambda,
          ds: o.d,
          ns: o.n,
          // a batch draws d distinct servers (theory.md §15; the model says so too): the config records what ran
          sampling: o.batch !== undefined && o.batch !== '1' ? 'without-replacement' : o.sampling,
          jobs: o.jobs,
          replications: o.replications,
          seed: o.seed,
          warmupTolerance: o.warmupTolerance,
          warmupSafetyFactor: 2,
          start: o.start,
          maxLevel: o.maxLevel,
          trajectory: o.trajectory ? { ns: trajectoryNs(o), tEnd, dt: o.dt ?? 0, replications: o.trajectoryReplications } : null,
          ...(classic ? {} : { model: fields }),
          exact: {
            ns: exactNs(o),
            truncationBound: o.exactBound,
            maxStates: o.exactMaxStates,
            jobs: o.exactJobs,
            replications: o.replications,
            // the preset's 2..5 serve every d: n < d is no point to skip, it was never asked for
            ...(o.exactN ? {} : { quietBelowD: true }),
          },
          ...(o.resolve ? { resolve: { fraction: o.resolve, maxJobs: o.maxJobs ?? 8 * o.jobs } } : {}),
          ...(o.minHorizon ? { horizon: { relaxations: o.minHorizon, maxJobs: o.maxJobs ?? 8 * o.jobs } } : {}),
        };
        const progress = createProgress('compare', o.progress);
        const onProgress = (done: number, total: number, label: string) => progress.update(done, total, label);
        // the model fields enter the settings hash only off the classic model, so its stored cells stay valid
        const settings = cellSettings(config, classic ? undefined : fields);
        // one pool for the whole command: the solves, the simulations, the reruns and the report's figures
        // a Ctrl-C while the report is written: the cells are kept, the report is left without its index.html (incomplete)
        let writing = false;
        const kept = () =>
          keptText(path.join(out, 'cells')) +
          (writing && !existsSync(path.join(out, 'index.html'))
            ? `; the report in ${out} was being written and is incomplete (no index.html): rerun to write it`
            : '');
        const ran = await withPool(
          o.threads,
          async (pool, signal) => {
            pool.warm(); // the workers start while this thread plans
            let ran;
            try {
              ran = await runComparisonOnPool(config, {
                dir: path.join(out, 'cells'),
                settings,
                fresh: Boolean(o.fresh),
                shard: o.shard,
                cmd: self,
                out,
                onProgress,
                pool,
              });
            } finally {
              progress.stop();
            }
            if ('shardSummary' in ran) return ran;
            // the store holds the cells and the figure's transients from empty (keys "trajectory-…", compare/plan.ts):
            // counted apart (a resumed 2-cell grid said "4 cells resumed")
            const trajectories = ran.resumedKeys.filter((k) => k.startsWith('trajectory-')).length;
            const meta = { ...runMeta(), resumedCells: ran.resumed - trajectories, resumedTrajectories: trajectories };
            const previous = previousReport(out);
            timeline('phase', { name: 'report' });
            writing = true;
            // results.json names the code that computed it, as table's, run's and conjecture's do (comparisonResultsJson
            // spreads the result, so the fields ride on it)
            const coded = { ...codeFields(meta), ...ran.result };
            const files = await writeComparisonReport(out, coded, meta, {
              writeFigures: figuresOnPool(pool),
              latex: o.latex === true,
              signal,
            });
            writing = false;
            timeline('phase', { name: 'end' });
            return { ...ran, meta, previous, files };
          },
          kept,
        );
        if ('shardSummary' in ran) {
          printShardSummary(ran.shardSummary, o.json);
          return;
        }
        const { result, meta, previous, files } = ran;
        const resumed = resumedText([
          [meta.resumedCells, 'cell', 'cells'],
          [meta.resumedTrajectories, 'trajectory (transient from empty)', 'trajectories (transients from empty)'],
        ]);
        const replaced = previous ? `replaced the report of \`${previous.command}\` (${previous.startedAt}) in ${out}` : null;
        // an SD of t needs two t statistics (judged cells whose busy fraction has a standard error); fewer: say so, not NaN
        const busyCells = result.busyCheck.tStatistics.length;
        const busyTooFew = busyCells < 2 ? `needs ≥ 2 judged cells, got ${busyCells}` : undefined;
        // Student t with ν = R − 1 ≤ 2 has no finite SD (ν = 2: infinite; ν = 1: undefined), so nothing to compare with
        const busyExpected = Number.isFinite(result.busyCheck.expectedSd)
          ? undefined
          : `no expected value: t with ν = R − 1 ≤ 2 has no finite SD; needs ≥ 4 replications`;
        if (o.json) {
          printJson({
            out,
            ...codeFields(meta),
            replaced: previous,
            files,
            // what judges the cells: the refined mean field (a 1/n term V), or the limit alone ("Without V", theory.md §8)
            judgedBy: result.judgedBy,
            // the references in results.json's form (`referenceJson`): ∞ only where proven, never a bare null
            // and exact points' ∞ as the ∞ object (`exactPointJson`), as there
            models: result.models.map((m) => ({
              ...m,
              reference: referenceJson(m),
              ...(m.exact ? { exact: { ...m.exact, points: m.exact.points.map(exactPointJson) } } : {}),
            })),
            cells: result.cells.map((c) => ({
              key: c.key,
              d: c.d,
              lambda: c.lambda,
              n: c.n,
              seed: c.seed,
              start: c.simulation.start ?? 'empty',
              warmupTime: c.simulation.warmupTime,
              meanResponseTime: c.simulation.meanResponseTime,
              ...(c.refined ? { refinedMeanResponseTime: c.refined.meanResponseTime } : {}),
              ...(c.secondOrder ? { secondOrderMeanResponseTime: c.secondOrder.meanResponseTime } : {}),
              ...(c.exact ? { exactMeanResponseTime: exactPointJson(c.exact).meanResponseTime } : {}),
              difference: c.verdict.difference,
              verdict: c.verdict.status,
              tStatistic: c.verdict.tStatistic,
              degreesOfFreedom: c.verdict.degreesOfFreedom,
              pValue: c.verdict.pValue,
              adjustedPValue: c.verdict.adjustedPValue,
              horizon: c.horizon,
              resolution: c.resolution,
              confirmation: c.confirmation
                ? {
                    seed: c.confirmation.seed,
                    meanResponseTime: c.confirmation.simulation.meanResponseTime,
                    tStatistic: c.confirmation.verdict.tStatistic,
                    degreesOfFreedom: c.confirmation.verdict.degreesOfFreedom,
                    pValue: c.confirmation.verdict.pValue,
                    adjustedPValue: c.confirmation.verdict.adjustedPValue,
                    verdict: c.confirmation.verdict.status,
                  }
                : null,
            })),
            family: result.family,
            busyCheck: {
              ...(busyTooFew
                ? { sd: null, expectedSd: null, cells: busyCells, reason: busyTooFew }
                : busyExpected
                  ? { sd: result.busyCheck.sd, expectedSd: null, cells: busyCells, reason: busyExpected }
                  : { sd: result.busyCheck.sd, expectedSd: result.busyCheck.expectedSd, cells: busyCells }),
              // the verdict (Holm over the cells, a rejected cell confirmed by its rerun: compare/summary.ts)
              status: result.busyCheck.status,
              firstRunRejections: result.busyCheck.firstRunRejections ?? 0,
              confirmed: result.busyCheck.confirmed ?? 0,
            },
            notes: result.notes,
            wallSeconds: meta.wallSeconds,
          });
          return;
        }
        const count = (s: string) => result.cells.filter((c) => c.verdict.status === s).length;
        const lines = [
          `Report written to ${path.join(out, 'index.html')} (${files.length} files, ${meta.wallSeconds.toFixed(1)} s${resumed === '' ? '' : `, ${resumed}`})`,
          // judged by the refined term: the classic model, PS/LAS through FIFO, server speeds (not only cells keyed as classic)
          result.judgedBy === 'refined-mean-field'
            ? `  ${cellsAgreeText(count('agrees'))}, ${count('disagrees')} disagree (confirmed by a rerun), ${count('agrees-not-confirmed')} rejected by the first run only, ` +
              `${count('refined-out-of-range')} outside the refined range${count('not-resolvable') ? `, ${count('not-resolvable')} not resolvable within budget` : ''}`
            : `  no refined term for this model (theory.md §8${arrivalsWithoutV(result)}): a cell is judged only against an exact finite-n value; ` +
              `${cellsAgreeText(count('agrees'))}, ${count('disagrees')} disagree (confirmed), ${count('agrees-not-confirmed')} rejected by the first run only, ` +
              `${count('not-judged')} shown, not judged (their allowance is fitted from the same cells; the limit check judges)` +
              `${count('undefined') ? `, ${count('undefined')} undefined (infinite: E[T] = ∞ in theory)` : ''}` +
              UNVALUED_STATUSES.map((s) =>
                count(s) ? `, ${count(s)} ${statusText(s)} (${UNVALUED[s].meaning}: shown, not judged)` : '',
              ).join(''),
          `  ${disagreementLine(result)}`,
          `  start (--start ${o.start}): ${startLine(result.cells, result.models)}`,
          `  multiplicity: Holm over ${result.family.judged} judged cells (α = ${result.family.alpha}); busy-fraction check: ${busyTooFew ?? `SD of t = ${result.busyCheck.sd.toFixed(2)} (${busyExpected ?? `expected ${result.busyCheck.expectedSd.toFixed(2)}`})`}`,
        ];
        // each coefficient says what it is: ĉ (hat) fitted to the cells, c = ΣV/λ or ΣA/λ the refined mean field's theory
        for (const m of result.models) {
          const f = m.fit;
          const ref = m.reference;
          const through = m.fitThroughReference;
          lines.push(
            m.refined
              ? `  d = ${m.d}, λ = ${m.lambda}: E[T]∞ = ${ref.meanResponseTime.toFixed(4)}, ΣV = ${m.refined.sumV.toFixed(3)}, ` +
                  `slope ${m.slope ? m.slope.slope.toFixed(2) : NOT_RESOLVED}${through ? `, fitted ĉ₁ = ${plusMinus(through.c1, through.c1HalfWidth)} (through E[T]∞, 95 %) vs theory c₁ = ΣV/λ = ${(m.refined.sumV / m.lambda).toFixed(2)}` : ''}` +
                  `${m.c1Check && m.c1Check.status !== 'not-judged' ? `; trusted-n fitted ĉ₁ = ${plusMinus(m.c1Check.c1, m.c1Check.halfWidth)} vs theory ΣV/λ → ${statusText(m.c1Check.status)}` : ''}` +
                  `${m.secondOrder ? `; theory c₂ = ΣA/λ = ${m.secondOrder.c2.toFixed(2)} → ${statusText(m.secondOrder.status)}` : ''}`
              : ref.infinite !== undefined
                ? `  d = ${m.d}, λ = ${m.lambda}: ${infiniteMeanWords(m.model)} (${ref.infinite}) → ${statusText(m.limit.status)}`
                : unvaluedReference(ref)
                  ? ref.infiniteAtEveryN !== undefined
                    ? // E[T]_n = ∞ beside a limit that is not ∞: both said, the limit's status as the reference carries it
                      // (its reason once, in the note)
                      `  d = ${m.d}, λ = ${m.lambda}: E[T]_n = ∞ at every n in theory (${ref.infiniteAtEveryN}); ` +
                      `E[T]∞ ${statusText(unvaluedReference(ref)!.status)} (note below) → ${statusText(m.limit.status)}`
                    : `  d = ${m.d}, λ = ${m.lambda}: ${unvaluedReference(ref)!.reason}; cells shown, no limit check → ${statusText(m.limit.status)}`
                  : `  d = ${m.d}, λ = ${m.lambda}: E[T]∞ = ${ref.meanResponseTime.toFixed(4)} (${ref.solver}, ${ref.kind}` +
                    `${ref.halfWidth > 0 ? ` ± ${ref.halfWidth.toFixed(4)}` : ''}` +
                    `${ref.measuredError ? `; ${describeFitErrorOf(ref.meanResponseTime, ref.measuredError)}` : ''}` +
                    `${ref.convergence ? `; ${ref.convergence.converged ? 'converged' : 'NOT converged'}${ref.convergence.iterations !== undefined ? ` in ${ref.convergence.iterations} iterations` : ''}` : ''}), ` +
                    `fitted limit ${f && fittedLimitInterval(m) ? limitText(fittedLimitInterval(m)!) : 'n/a'} → ${statusText(m.limit.status)}, ` +
                    // the report's tables give ĉ₁ ± s.e.; this line the 95 % half-width: said so
                    `fitted ĉ₁ = ${f ? `${plusMinus(f.c1, f.c1HalfWidth)} (95 %)` : 'n/a'} (no theory c₁ here), slope ${m.slope ? m.slope.slope.toFixed(2) : NOT_RESOLVED}`,
          );
        }
        // one line per kind of note, naming the option that changes it (results.json keeps every note)
        for (const n of groupNotes(result.notes)) lines.push(`  note: ${n}`);
        if (replaced) lines.push(`  ${replaced}`);
        process.stdout.write(`${lines.join('\n')}\n`);
      }),
    );
  return cmd;
}

/** Where the cells started and their warm-ups, e.g. "fixed point in 61 of 61 cells, warm-ups 82.0–342.1 time units". */
function startLine(
  cells: readonly {
    readonly d: number;
    readonly lambda: number;
    readonly simulation: { readonly start?: string; readonly warmupTime: number };
  }[],
  models: readonly { readonly d: number; readonly lambda: number; readonly relaxationTime: number | null }[],
): string {
  // a warm-up that is the rule's floor says so (at d = 1 the refined term V(t) is 0: `fixedPointFloorAtD1`)
  const tau = (c: (typeof cells)[number]) => models.find((m) => m.d === c.d && m.lambda === c.lambda)?.relaxationTime;
  const part = (name: string, label: string) => {
    const mine = cells.filter((c) => (c.simulation.start ?? 'empty') === name);
    if (mine.length === 0) return [];
    const times = mine.map((c) => c.simulation.warmupTime);
    const lo = Math.min(...times);
    const hi = Math.max(...times);
    const floor =
      name === 'fixed-point' && mine.some((c) => fixedPointFloorAtD1(c.d, c.simulation.warmupTime, tau(c)) !== undefined)
        ? `; d = 1: ${FIXED_POINT_FLOOR_AT_D1}`
        : '';
    return [
      `${label} in ${mine.length} of ${cells.length} cells (warm-up ${lo === hi ? lo.toFixed(1) : `${lo.toFixed(1)}–${hi.toFixed(1)}`}${floor})`,
    ];
  };
  return [...part('fixed-point', 'fixed point'), ...part('empty', 'empty')].join(', ');
}

/** A fitted limit as the console prints it: â [lo, hi] (95 %), the interval within E[T] ≥ E[S]/μ_max (`fittedLimitInterval`). */
function limitText(l: { value: number; ci95: [number, number] }): string {
  return `${l.value.toFixed(4)} [${l.ci95[0].toFixed(4)}, ${l.ci95[1].toFixed(4)}] (95 %)`;
}

/**
 * What an interrupted compare says it kept in its cell store `dir`, each kind counted and named as a resumed run names
 * them (`resumedText`): "8 finished cells and 6 trajectories (transients from empty) are kept in <dir>; rerun …". The
 * transients of the figure are stored beside the cells (files "trajectory-…"), and were once counted as cells.
 */
export function keptText(dir: string): string {
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  const trajectories = files.filter((f) => f.startsWith('trajectory-')).length;
  const cells = files.length - trajectories;
  if (files.length === 0) return 'no cell had finished, nothing was stored';
  const counted = countedText([
    [cells, 'finished cell', 'finished cells'],
    [trajectories, 'trajectory (transient from empty)', 'trajectories (transients from empty)'],
  ]);
  return `${counted} ${files.length === 1 ? 'is' : 'are'} kept in ${dir}; rerun the same command to resume`;
}
