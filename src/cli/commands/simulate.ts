/**
 * `supermarket simulate`: finite-n discrete-event simulation with replications (or one long run with batch means)
 * and Student-t 95% CIs, optionally run to a precision target; means infinite in theory print ∞ with the reason.
 */
import { ReasonNotes } from '../../report/reasons.ts';
import { formatMemory } from '../../model/memory.ts';
import { formatArrivals } from '../../model/arrivals.ts';
import { timeUnit } from '../../model/service/index.ts';
import { Command, InvalidArgumentError, Option } from 'commander';
import { SELECTION_TABLE, checkServers, policyName, slowdownFinite, usesPrediction, type Finiteness } from '../../model/index.ts';
import { simulationWarmup, type StartChoice } from '../../meanfield/warmup.ts';
import { fixedPointFloorAtD1 } from '../../report/warmupWords.ts';
import {
  ENGINE_CHOICES,
  MSER_MARGIN,
  checkEventBudget,
  meansOutsideInterval,
  simulate,
  simulationJson,
  type EngineChoice,
  type MserCheck,
  type SimulateOptions,
  type SimulationResult,
} from '../../sim/index.ts';
import { estimateIntervalText, formatCount, isUnsettled, MIN_LAG1_BATCHES, type Estimate } from '../../stats/index.ts';
import { createProgress } from '../progress.ts';
import { defaultThreads, simulateOnPool } from '../pool.ts';
import { MAX_RECORDED_JOBS, recordReplication } from '../../sim/jobRecord.ts';
import type { SupermarketModel } from '../../model/index.ts';
import { InvalidModelError } from '../../errors.ts';
import { withInterruptMessage } from '../errors.ts';
import { addRecordOptions, perServerAbout, perServerRows, perServerTable, writePerJobCsv } from '../records.ts';
import {
  addModelOptions,
  examples,
  modelAction,
  parseBatches,
  parseJobs,
  parseMaxLevel,
  parseNonNegative,
  parseSeed,
  parsePositiveInteger,
  parsePositive,
  parseRelativePrecision,
  parseThreads,
  parseReplications,
  startOption,
  refuseIdleOptions,
  type ModelFlags,
  warmupToleranceHelp,
} from '../options.ts';
import { decimalText, jsonOption, printJson } from '../output.ts';

interface Opts extends ModelFlags {
  n: number;
  jobs: number;
  replications: number;
  seed: number;
  warmup?: number;
  warmupTolerance: number;
  start: StartChoice;
  maxLevel: number;
  engine: EngineChoice;
  json?: boolean;
  progress: boolean;
  method: 'replications' | 'batch-means';
  batches: number;
  precision?: number;
  halfWidth?: number;
  maxReplications: number;
  perServer?: boolean;
  perJob?: string;
  threads?: number;
}

/**
 * An estimate in the text table, "x [lo, hi]" under the "95% CI" column, by the one rule (`estimateIntervalText`); a
 * fraction whose event no unit observed (`unobserved`) says so after x: `word` ("not reached" for a tail level).
 */
const show = (e: Estimate, word = 'not resolved') =>
  estimateIntervalText(e.mean, e.ci95, e.halfWidth, 4, 8, e.unobserved ? word : undefined);
/** Rows of cells as text lines: each column padded to its widest cell, two spaces apart, indented by two. */
const columns = (rows: readonly (readonly string[])[]): string[] => {
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => r[j].length)));
  return rows.map((r) => `  ${r.map((cell, j) => (j === r.length - 1 ? cell : cell.padEnd(widths[j]))).join('  ')}`);
};

/**
 * A note for estimates whose mean lies outside their printed interval (`meansOutsideInterval`): the interval is the t
 * interval intersected with the parameter space, and the sample mean, an unbiased estimate, can fall beyond that bound
 * by chance. Names only the bounds of those estimates. Without the note a reader takes it for a bug.
 */
function outsideNote(result: SimulationResult): string[] {
  const out = meansOutsideInterval(result);
  if (out.length === 0) return [];
  return [
    `  note: ${out.map((x) => x.name).join(', ')}: the mean fell outside the possible values (${out.map((x) => x.bound).join(', ')}) by ` +
      `chance; ${out.length > 1 ? 'each interval is' : 'the interval is'} the t interval cut to the possible values, which hold the true value` +
      (out.some((x) => x.onePoint) ? '; a one-point interval means the whole t interval lay outside them: run more jobs' : ''),
  ];
}

/**
 * A mean in text: its estimate, ∞ with the mark of its reason (said once below the table, `reasons`), or, where the
 * result holds no estimate (E[T] not settled: stats/tInterval.ts `unsettledEstimate`), the run's average as an
 * observation in the estimate's column marked "not settled", with no interval (the result has none), as run's tables
 * and compare leave it unjudged.
 */
const showOr = (e: Estimate, f: Finiteness, reasons: ReasonNotes) =>
  !f.finite
    ? `∞  (the run's average ${(e.sampleMean ?? e.mean).toPrecision(4)} estimates nothing; why: ${reasons.mark(f.reason)})`
    : isUnsettled(e)
      ? `not settled  (the run's average ${decimalText(e.sampleMean, 4)} is an observation, not an estimate: no interval; E[T] may be ∞, see the warning)`
      : show(e);

/**
 * The warm-up line: MSER-5's truncation (over the first half of the series, stats/mser.ts) as a share of the measured
 * jobs; when its minimum sits on the half, the run is too short to confirm the warm-up and the line says so, with the
 * replications' own truncations. When MSER warns (cut beyond `MSER_MARGIN` of the jobs, or too short), the same line
 * gives the head–tail (Geweke-type) test the warning needs beside it (`warmupCheck.initialBias`, theory.md §8): the
 * difference of the head and tail means of E[T] in the model's time unit, t with its degrees of freedom, p.
 * @param unit the model's time unit (`timeUnit`). @param batch one long run of batch means (the test's windows differ).
 */
function mserText(check: SimulationResult['warmupCheck'], where: string, jobs: number, unit: string, batch: boolean): string {
  const e = check.ensemble;
  if (e === null) return '  warm-up check: too few jobs for MSER-5';
  const share = (k: number) => `${k} jobs (${((100 * k) / jobs).toFixed(1)} %)`;
  const line = `  warm-up check: MSER-5 on ${where} truncates ${share(e.truncatedJobs)} after the warm-up`;
  if (!e.tooShort && !(e.truncatedJobs > MSER_MARGIN * jobs)) return line;
  const b = check.initialBias;
  const headTail =
    b === null
      ? '; head–tail test: too few units or jobs'
      : `; head–tail test: E[T] of ${batch ? "the first batch's first 10 % of jobs − the later half of the batches" : "each replication's first 10 % of jobs − its last 50 %"} = ${b.difference.toPrecision(3)} ${unit}, ` +
        `t = ${b.t.toFixed(2)} (${b.degreesOfFreedom} df), p = ${b.p.toPrecision(2)}` +
        (b.significant ? ` < ${b.level}` : ` ≥ ${b.level}: no initial bias shown`);
  if (!e.tooShort) return `${line}${headTail}`;
  const own = check.perUnit.filter((u): u is MserCheck => u !== null).map((u) => u.truncatedJobs);
  const range = own.length > 1 ? `; per replication ${Math.min(...own)}–${Math.max(...own)} jobs` : '';
  return `${line}${range}; still falling at the half: too short to confirm${headTail}`;
}

export function simulateCommand(): Command {
  const cmd = new Command('simulate').description(
    'Event-driven simulation of the supermarket model: Poisson arrivals at rate λn, d servers sampled per job,\n' +
      'ties among the sampled minimisers broken uniformly at random. Each replication has its own warm-up and an\n' +
      'independent random stream derived from --seed; the same seed gives the same numbers.',
  );
  addModelOptions(cmd)
    .requiredOption('--n <n>', 'number of servers (integer ≥ d)', parsePositiveInteger)
    .option('--jobs <count>', 'measured arrivals per replication, after the warm-up (e.g. 1e6)', parseJobs, 1_000_000)
    .option('--replications <r>', 'independent replications (≥ 2, for the Student-t CI)', parseReplications, 5)
    .option('--seed <seed>', 'master seed (integer ≥ 0)', parseSeed, 1)
    .option(
      '--warmup <time>',
      'warm-up in time units (0: none, measure from the start); default: the one warm-up rule read from the start at this n (see --warmup-tolerance)',
      parseNonNegative,
    )
    .option('--warmup-tolerance <ε>', warmupToleranceHelp(', × max(1, (1+SCV)/2) for variable sizes'), parsePositive, 1e-3)
    // the one default start of every command that simulates (compare, run, table, conjecture): auto. It was empty here,
    // 150.3 time units of warm-up where compare took 18.5 at n = 1000; only the records start from empty (`recordsStart`)
    .addOption(
      startOption(
        'every replication',
        ' With --per-job or --per-server and no --start: empty (replication 1 is rerun with records, from empty only).',
      ),
    )
    .option(
      '--max-level <K>',
      'record tail fractions s_0..s_K (--json gives them all; the text s_1..s_6, or s_1..s_K when given)',
      parseMaxLevel,
      30,
    )
    .addOption(
      new Option(
        '--method <method>',
        'replications: independent runs; batch-means: one long run cut into --batches batches of --jobs jobs (lag-1 autocorrelation checked)',
      )
        .choices(['replications', 'batch-means'])
        .default('replications'),
    )
    .option('--batches <b>', 'batches of a batch-means run (≥ 2)', parseBatches, 30)
    .option(
      '--precision <rel>',
      'run until the 95% CI of E[T] has relative half-width ≤ rel, in (0, 1) (e.g. 0.01), adding replications (or batches) one at a time; ' +
        'with --half-width, until both hold',
      parseRelativePrecision,
    )
    .option(
      '--half-width <h>',
      'run until the 95% CI of E[T] has half-width ≤ h (time units); with --precision, until both hold',
      parsePositive,
    )
    .option('--max-replications <r>', 'budget of a precision-driven run: most replications (or batches)', parseReplications, 200)
    .addOption(
      new Option(
        '--engine <engine>',
        Object.entries(ENGINE_CHOICES)
          .map(([name, what]) => `${name}: ${what}`)
          .join('; '),
      )
        .choices(Object.keys(ENGINE_CHOICES))
        .default('auto'),
    )
    .option(
      '--threads <k>',
      "worker threads for the replications (default: the machine's cores); the pool is used only with --method replications and " +
        'k > 1 (every run has ≥ 2 replications), one task per replication; the numbers are the same for every k',
      parseThreads,
    )
    .addOption(jsonOption())
    .option('--no-progress', 'no progress output on stderr');
  addRecordOptions(cmd, 'the first replication') // see exportRecords below
    .addHelpText(
      'after',
      examples([
        'supermarket simulate --lambda 0.9 --d 2 --n 1000',
        'supermarket simulate --lambda 0.9 --d 2 --n 100 --jobs 1e6 --replications 10 --seed 7 --json',
      ]),
    )
    .action(
      modelAction(async (model, o: Opts, cmd) => {
        refuseIdleOptions(cmd, [
          ['--batches', o.method === 'batch-means', '--method batch-means'],
          ['--max-replications', o.precision !== undefined || o.halfWidth !== undefined, '--precision or --half-width'],
          // batch means are one long run: no replications to count or to spread over threads
          [
            '--replications',
            o.method === 'replications',
            '--method replications',
            'a batch-means run is one long run cut into --batches; drop it or set --batches',
          ],
          ['--threads', o.method === 'replications', '--method replications', 'a batch-means run is one long run on one thread; drop it'],
          // the tolerance sizes the default warm-up only
          ['--warmup-tolerance', o.warmup === undefined, 'the default warm-up (no --warmup)', 'drop it or drop --warmup'],
        ]);
        const n = checkServers(model, o.n);
        o.start = recordsStart(o, cmd.getOptionValueSource('start') === 'cli');
        // the fixed-point start needs the rule's start tail even with --warmup given; the rule is uncapped (as in every
        // command): a capped warm-up at λ 0.9999, d = 1 would be ~1e-5 of M/M/1's relaxation time, so such a run is
        // refused as too long instead of run biased
        const proposal =
          o.warmup === undefined || o.start !== 'empty'
            ? simulationWarmup(model, { tolerance: o.warmupTolerance, start: o.start, n })
            : undefined;
        const warm = o.warmup ?? proposal!.time;
        const start = proposal?.from === undefined ? undefined : { name: proposal.start ?? 'fixed-point', from: proposal.from };
        const batchMode = o.method === 'batch-means';
        const precision =
          o.precision === undefined && o.halfWidth === undefined
            ? undefined
            : {
                ...(o.precision === undefined ? {} : { relative: o.precision }),
                ...(o.halfWidth === undefined ? {} : { halfWidth: o.halfWidth }),
              };
        const units = batchMode ? o.batches : o.replications;
        if (precision && o.maxReplications < units)
          throw new InvalidArgumentError(
            `--max-replications (${o.maxReplications}) must be ≥ the first ${units} ${batchMode ? 'batches' : 'replications'}`,
          );
        if (o.perJob || o.perServer) {
          if (start !== undefined)
            throw new InvalidModelError('--per-job and --per-server record a replication from empty: drop --start or them');
          if (o.jobs > MAX_RECORDED_JOBS)
            throw new InvalidModelError(`--per-job and --per-server keep at most ${MAX_RECORDED_JOBS} jobs, got --jobs ${o.jobs}`);
          if (o.engine === 'race')
            throw new InvalidModelError(
              '--per-job and --per-server need an event engine (the race engine keeps no per-job state); use --engine auto or event',
            );
          if (batchMode) throw new InvalidModelError('--per-job and --per-server record replication 1: use --method replications');
          o.engine = o.engine === 'auto' ? 'event' : o.engine; // so replication 1 and its records are the same run
        }
        // before the progress bar; RANDOM samples one server whatever d says (resolveRunConfig)
        const d = SELECTION_TABLE[model.selection].samplesD ? model.d : 1;
        checkEventBudget(
          batchMode
            ? { lambda: model.lambda, n, jobs: o.jobs * units, replications: 1, warmupTime: warm, d }
            : { lambda: model.lambda, n, jobs: o.jobs, replications: units, warmupTime: warm, d },
        );
        const progress = createProgress('simulate', o.progress && !o.json);
        const options: SimulateOptions = {
          n,
          jobs: o.jobs,
          ...(batchMode ? { batches: o.batches } : { replications: o.replications }),
          seed: o.seed,
          warmupTime: warm,
          ...(start ? { start } : {}),
          maxLevel: o.maxLevel,
          engine: o.engine,
          method: o.method,
          ...(precision ? { precision, maxReplications: o.maxReplications } : {}),
          ...(proposal?.relaxationTime === undefined ? {} : { relaxationTime: proposal.relaxationTime }),
        };
        const onProgress = (done: number, total: number) => progress.update(done, total, `n = ${n}`);
        // the pool only when it can help: replications (batch means are one run) and more than one thread
        const threads = o.threads ?? defaultThreads();
        let result: SimulationResult;
        try {
          // on the pool this thread stays free to answer Ctrl-C with a message; a run in this thread sets no handler, since it
          // would hold the signal until the run ends: Ctrl-C then ends the process at once
          result =
            threads > 1 && !batchMode
              ? await withInterruptMessage(
                  () =>
                    'nothing was stored (simulate keeps its replications in memory until the run ends); rerun the command to start again',
                  () => simulateOnPool(model, options, { threads, onProgress }),
                  () => progress.stop(),
                )
              : simulate(model, { ...options, onProgress });
        } finally {
          progress.stop();
        }
        const records = exportRecords(model, n, warm, o);
        const infinite = !slowdownFinite(model);
        if (o.json) {
          // the policy by the one name function, as exact and fixed-point --json give it (`policyName`: RANDOM (d = 1) at d = 1)
          printJson({ policy: policyName(model), ...simulationJson(result), slowdownInfiniteInTheory: infinite, ...records.json });
          return;
        }
        const f = result.finiteness;
        const pct = result.responseTimePercentiles;
        const mserLine = mserText(
          result.warmupCheck,
          batchMode ? 'the first batch' : `the average of the ${result.replications} replications`,
          o.jobs,
          timeUnit(model.service),
          batchMode,
        );
        // each reason of an ∞ once, below the table, the means citing it by its mark
        const reasons = new ReasonNotes();
        // a warm-up that is the rule's floor says so (at d = 1 the refined term V(t) is 0)
        const floor = start ? fixedPointFloorAtD1(model.d, warm, proposal?.relaxationTime, true) : undefined;
        const startWords = `${start ? ' from the fixed point' : ' from empty'}${floor === undefined ? '' : ` (${floor})`}`;
        const lines = [
          `Simulation: ${policyName(model)}, service ${o.service}${usesPrediction(model.selection, model.discipline) ? `, prediction ${o.prediction}` : ''}${model.arrivals.kind === 'exponential' ? '' : `, arrivals ${formatArrivals(model.arrivals)}`}, λ = ${model.lambda}, n = ${n}, ${model.batch === 1 ? model.sampling : 'without-replacement (a batch samples d distinct servers)'}`,
          batchMode
            ? `  one long run: ${result.replications} batches × ${o.jobs} jobs after a warm-up of ${warm.toFixed(1)} time units${startWords}; seed ${o.seed}; engine ${result.engine}; ` +
              (Number.isNaN(result.batchMeans!.lag1.meanResponseTime) && result.replications < MIN_LAG1_BATCHES
                ? 'too few batches to check independence (see the note)'
                : `lag-1 autocorrelation of batch means ${result.batchMeans!.lag1.meanResponseTime.toFixed(2)} (E[T]), ${result.batchMeans!.lag1.meanQueueLength.toFixed(2)} (E[Q])`)
            : `  ${result.replications} replications × ${o.jobs} jobs after a warm-up of ${warm.toFixed(1)} time units${startWords}; seed ${o.seed}; engine ${result.engine}`,
          ...(result.precision
            ? [
                `  precision: stopped by ${result.precision.stoppedBy} after ${result.precision.units} ${batchMode ? 'batches' : 'replications'}; ` +
                  `target ${[
                    result.precision.target.relative === undefined ? '' : `± ${(100 * result.precision.target.relative).toPrecision(3)} %`,
                    result.precision.target.halfWidth === undefined ? '' : `± ${result.precision.target.halfWidth}`,
                  ]
                    .filter(Boolean)
                    .join(' and ')}, ` +
                  `achieved ± ${result.precision.achieved.halfWidth.toPrecision(3)} (${(100 * result.precision.achieved.relative).toPrecision(3)} %)`,
              ]
            : []),
          mserLine,
          `                          mean     95% CI`,
          `  E[T] response time    ${showOr(result.meanResponseTime, f.meanResponseTime, reasons)}`,
          `  E[Q] per server       ${showOr(result.meanQueueLength, f.meanQueueLength, reasons)}`,
          model.redundancy === undefined
            ? `  E[Q]/λ (Little)       ${showOr(result.littleResponseTime, f.meanQueueLength, reasons)}`
            : `  E[Q]/(λd) (Little)    ${showOr(result.littleResponseTime, f.meanQueueLength, reasons)}   (E[Q]: replicas per server; each of a job's d leaves at its T)`,
          `  E[T/S] slowdown       ${showOr(result.meanSlowdown, f.meanSlowdown, reasons)}` +
            (result.zeroSizeJobs > 0
              ? `   (${result.zeroSizeJobs} measured job${result.zeroSizeJobs === 1 ? '' : 's'} of size 0 left out: T/S undefined)`
              : ''),
          `  T p50 (pooled)        ${show(pct.p50)}`,
          `  T p95 (pooled)        ${show(pct.p95)}`,
          `  T p99 (pooled)        ${show(pct.p99)}`,
          ...(result.meanWorkload ? [`  E[U] workload         ${showOr(result.meanWorkload, f.meanWorkload, reasons)}`] : []),
          // s_1..s_6, or every level a --max-level given asks for (it acted in --json only: --max-level 12 printed six)
          ...result.tail
            .slice(1, (cmd.getOptionValueSource('maxLevel') === 'cli' ? o.maxLevel : 6) + 1)
            .map((e, k) => `  ${`s_${k + 1}`.padEnd(22)}${show(e, 'not reached')}`),
          ...(result.memory
            ? [
                `  π₀ memory empty       ${show(result.memory.emptyFraction)}   (fraction of arrivals finding no remembered idle server; memory ${model.memory.kind === 'none' ? 'ism:unbounded' : formatMemory(model.memory)})`,
                `  probes per arrival    ${show(result.memory.probesPerArrival)}   (probes only; fixed-point's count adds the ISM messages)`,
              ]
            : []),
          ...(result.classes
            ? [
                // each column as wide as its widest cell and two spaces apart (a wide interval ran into the next column)
                ...columns([
                  ['per class (speed, fraction)', 'busy fraction', 'E[T] of its jobs', 'jobs served'],
                  ...result.classes.map((c, k) => [
                    `class ${k + 1} (${c.speed}, ${c.fraction})`,
                    show(c.busyFraction),
                    show(c.meanResponseTime),
                    `${c.jobs}`,
                  ]),
                ]),
                `  Σ f·speed·busy        ${result.workRate ? show(result.workRate) : '–'}   (work served per server; λ·E[S] = ${(model.lambda * model.service.mean).toFixed(4)} in steady state)`,
              ]
            : []),
          ...(result.redundancy
            ? [
                `  work per job E[W]     ${show(result.redundancy.workPerJob)}   (service its replicas received; E[S] = ${model.service.mean})`,
                `  busy fraction s_1 = ${result.redundancy.busyFraction.mean.toFixed(4)}, λ·E[W] = ${(model.lambda * result.redundancy.workPerJob.mean).toFixed(4)} (λ·E[S] = ${(model.lambda * model.service.mean).toFixed(4)}: replicas change the work)`,
              ]
            : []),
          ...reasons.lines().map((r) => `  ∞ ${r}`),
          `  ${formatCount(result.events)} events in ${result.wallSeconds.toFixed(2)} s = ${(result.eventsPerSecond / 1e6).toFixed(2)}M events/s`,
          ...result.warnings.map((w) => `  warning: ${w}`),
          ...(result.notes ?? []).map((w) => `  note: ${w}`),
          ...outsideNote(result),
        ];
        process.stdout.write(`${[...lines, ...records.text].join('\n')}\n`);
      }),
    );
  return cmd;
}

/**
 * The start of a simulate run: the one default (auto, as compare, run and table) unless --per-job or --per-server asks
 * for records and --start was not given; then empty, since replication 1 is rerun with records from empty only
 * (`recordReplication`), and every replication starts as the recorded one. An explicit --start with records is refused
 * where the records are made.
 * @param given whether --start came from the command line.
 */
export function recordsStart(o: { start: StartChoice; perJob?: string; perServer?: boolean }, given: boolean): StartChoice {
  return !given && (o.perJob !== undefined || o.perServer) ? 'empty' : o.start;
}

/**
 * --per-server / --per-job: reruns the first replication (same stream, warm-up and window; an event engine, since the
 * race engine keeps no per-server workload) with records, writes the CSV, and returns what to add to the output.
 */
function exportRecords(model: SupermarketModel, n: number, warm: number, o: Opts): { json: Record<string, unknown>; text: string[] } {
  if (!o.perServer && !o.perJob) return { json: {}, text: [] };
  const rec = recordReplication(model, { n, jobs: o.jobs, seed: o.seed, warmupTime: warm, engine: o.engine });
  const unit = timeUnit(model.service);
  if (o.perJob) writePerJobCsv(o.perJob, rec.jobs, unit);
  const about = { replication: 1, engine: rec.engine, window: rec.servers.window, timeUnit: unit, meanResponseTime: rec.meanResponseTime };
  const servers = perServerAbout(rec.servers.window, unit, 'replication 1');
  const json = {
    ...(o.perServer ? { perServer: { ...about, about: servers, servers: perServerRows(rec.servers) } } : {}),
    ...(o.perJob ? { perJob: { ...about, file: o.perJob, jobs: rec.jobs.arrival.length } } : {}),
  };
  const text = [
    ...(o.perServer ? [`Per server (${rec.engine} engine): ${servers}.`, perServerTable(rec.servers)] : []),
    ...(o.perJob ? [`${rec.jobs.arrival.length} measured jobs of replication 1 written to ${o.perJob} (times and sizes in ${unit})`] : []),
  ];
  return { json, text };
}
