/**
 * `supermarket replay TRACE`: replays an SWF or SWIM trace over n servers directly (no experiment file): the jobs'
 * submit times and sizes as given (`--no-rescale`, time in the trace's seconds) or rescaled to a target load as
 * experiments do (`traceWorkload`: sizes divided by their mean, clock scaled so that λ = ρ per server), dispatched
 * by the selection rule and served under the discipline (`simulateReplay`). Batch-means CIs; per-job CSV on request.
 */
import { Command, Option } from 'commander';
import { InvalidModelError } from '../../errors.ts';
import { parseModel, policyName, settingApplies, usesPrediction, type Discipline, type Selection } from '../../model/index.ts';
import { percentilesJson, simulateReplay } from '../../sim/index.ts';
import { DEFAULT_BATCHES, MIN_BATCH_JOBS, replayBatchCount } from '../../sim/replay.ts';
import { estimateIntervalText, formatCount, type BatchEstimate } from '../../stats/index.ts';
import { loadTrace, traceWorkload, type TraceJob } from '../../traces/index.ts';
import { action } from '../errors.ts';
import {
  examples,
  addModelOptions,
  parseBatches,
  parseInFile,
  checkTraceHasJobs,
  parseIntegerList,
  parseNonNegativeInteger,
  parsePositive,
  parsePositiveInteger,
  parseSeed,
  refuseIdleSettings,
} from '../options.ts';
import { addRecordOptions, perServerAbout, perServerRows, perServerTable, writePerJobCsv } from '../records.ts';
import { decimalText, jsonOption, printJson } from '../output.ts';

interface Opts {
  n: number;
  d?: number;
  selection: string;
  discipline: string;
  sampling: string;
  prediction: string;
  memory?: string;
  format?: 'swf' | 'swim';
  status?: number[];
  load: number;
  rescale: boolean;
  jobsFrom?: number;
  jobsTo?: number;
  warmupJobs: number;
  batches?: number;
  seed: number;
  perJob?: string;
  perServer?: boolean;
  json?: boolean;
}

/**
 * An estimate in replay's JSON, in the words of batch means: its units are `batches` (the estimate's `replications`
 * field, which replay's batch means are not); without an interval (too few jobs) the mean alone.
 */
function batchMeansJson(value: unknown, interval: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => batchMeansJson(v, interval));
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  if ('lag1' in o && 'mean' in o) {
    if (!interval) return { mean: o.mean };
    const { replications, ...rest } = o;
    return { ...rest, batches: replications };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, batchMeansJson(v, interval)]));
}

/** The jobs in submit order (stable), as the trace gives them: arrival = submit time (s), size = run time (s). */
function rawWorkload(jobs: readonly TraceJob[], user: boolean) {
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[a].submitTime - jobs[b].submitTime || a - b);
  const arrivals = Float64Array.from(order, (i) => jobs[i].submitTime);
  const sizes = Float64Array.from(order, (i) => jobs[i].size);
  if (!user) return { arrivals, sizes };
  const predictions = Float64Array.from(order, (i) => {
    const y = jobs[i].userEstimate;
    if (y === undefined) throw new InvalidModelError(`--prediction user: job ${i + 1} (line ${jobs[i].line}) has no user estimate`);
    return y;
  });
  return { arrivals, sizes, predictions };
}

export function replayCommand(): Command {
  const cmd = new Command('replay').description(
    'Replays the jobs of a trace (submit time, run time; SWF fields 2 and 4, the recorded wait of field 3 ' +
      'belongs to the original machine and is ignored) over n servers: each job samples d servers, joins one by the ' +
      'selection rule and is served under the discipline. By default time is rescaled as in experiment files: sizes ' +
      'divided by their mean (one time unit = one mean size) and the clock scaled so that the load per server is ' +
      "--load (λ = ρ); --no-rescale keeps the trace's seconds (the load is then the trace's own on n servers). " +
      'Equal times: departures before arrivals. Confidence intervals by batch means (theory.md §8): the measured jobs ' +
      `cut into batches of ≥ ${MIN_BATCH_JOBS} consecutive jobs (at most ${DEFAULT_BATCHES} batches unless --batches), ` +
      `a Student t interval over the batch means; with fewer than ${2 * MIN_BATCH_JOBS} measured jobs the means alone ` +
      '("too few jobs for an interval").',
  );
  cmd.argument('<trace>', 'SWF (.swf, .swf.gz) or SWIM (.tsv) file', parseInFile);
  cmd
    .requiredOption('--n <n>', 'number of servers', parsePositiveInteger)
    .option('--d <d>', 'servers sampled per job (default: 2, or 1 when n = 1)', parsePositiveInteger);
  addModelOptions(cmd, false, false)
    .option(
      '--prediction <model>',
      "size prediction for LPW and the predicted disciplines: user (the trace's own estimate, " +
        'SWF requested time) or a model drawn from the true size: exact | exp | uniform:ALPHA | lognormal:SIGMA[:median|mean]',
      'exact',
    )
    .addOption(new Option('--format <format>', 'trace format (default: from the file name)').choices(['swf', 'swim']))
    .option('--status <codes>', 'SWF: keep only jobs with these status codes, e.g. 1 (completed)', parseIntegerList)
    .option('--load <ρ>', 'target load per server after rescaling (λ = ρ)', parsePositive, 0.9)
    .option('--no-rescale', "replay in the trace's own seconds (no rescaling)")
    .option('--jobs-from <i>', 'first job replayed: position i (1-based) among the kept jobs in file order', parsePositiveInteger)
    .option('--jobs-to <j>', 'last job replayed (inclusive)', parsePositiveInteger)
    .option(
      '--warmup-jobs <k>',
      'leading replayed jobs left out of the estimates (they still load the servers)',
      parseNonNegativeInteger,
      0,
    )
    .option(
      '--batches <B>',
      `batches of the batch means, ≥ 2, each of ≥ ${MIN_BATCH_JOBS} measured jobs (default: as many as fit, at most ` +
        `${DEFAULT_BATCHES}; below ${2 * MIN_BATCH_JOBS} measured jobs the means alone: too few jobs for an interval)`,
      parseBatches,
    )
    .option('--seed <seed>', 'seed of the selection draws and sampled predictions', parseSeed, 1);
  addRecordOptions(cmd)
    .addOption(jsonOption())
    .addHelpText(
      'after',
      examples([
        'supermarket replay ../shared/data/KTH-SP2-1996-2.1-cln.swf.gz --status 1 --n 20 --d 2 --load 0.9',
        'supermarket replay jobs.swf --n 1 --no-rescale --per-job jobs.csv',
        'supermarket replay ../shared/data/FB-2010_samples_24_times_1hr_0.tsv --n 50 --discipline sprpt --prediction lognormal:1 --jobs-to 5000',
      ]),
    );
  cmd.action(
    action((file: string, o: Opts, cmd: Command) => {
      if (!o.rescale && cmd.getOptionValueSource('load') === 'cli')
        throw new InvalidModelError('--load rescales the trace; it cannot be combined with --no-rescale');
      const trace = loadTrace(file, { format: o.format, ...(o.status ? { status: o.status } : {}) });
      checkTraceHasJobs(file, trace, o.status);
      const all = trace.jobs as readonly TraceJob[];
      const from = o.jobsFrom ?? 1;
      const to = o.jobsTo ?? all.length;
      if (from > to) throw new InvalidModelError(`--jobs-from ${from} is after --jobs-to ${to}`);
      if (to > all.length)
        throw new InvalidModelError(
          `--jobs-to ${to}: the trace has ${all.length} jobs${o.status ? ` after the status filter ${o.status.join(',')}` : ''}`,
        );
      const jobs = all.slice(from - 1, to);
      if (jobs.length < 2) throw new InvalidModelError(`a replay needs at least 2 jobs, got ${jobs.length} (jobs ${from}..${to})`);

      const user = o.prediction === 'user';
      // a rule that samples no servers takes d = 1; a --d it cannot use is refused with the other idle settings
      const d =
        o.d ??
        (settingApplies('d', { selection: o.selection as Selection, discipline: o.discipline as Discipline, d: 2 }) ? Math.min(2, o.n) : 1);
      refuseIdleSettings(cmd, { selection: o.selection as Selection, discipline: o.discipline as Discipline, d });
      let workload: { arrivals: Float64Array; sizes: Float64Array; predictions?: Float64Array };
      let lambda: number;
      let service: { kind: 'exponential'; mean: number };
      let scale: Record<string, unknown>;
      let overload: number | null = null; // the offered load when ≥ 1 (run anyway, with a warning)
      if (o.rescale) {
        const w = traceWorkload(jobs, {
          targetLoad: o.load,
          servers: o.n,
          rescale: 'sizes',
          ...(user ? { predictions: 'user-estimate' as const } : {}),
        });
        workload = w;
        lambda = o.load;
        service = { kind: 'exponential', mean: 1 };
        scale = {
          rescaled: true,
          timeUnit: `mean size (${w.meta.meanSize.toPrecision(6)} ${trace.format === 'swf' ? 's' : 'bytes'})`,
          ...w.meta,
        };
      } else {
        if (trace.format === 'swim')
          throw new InvalidModelError(
            'SWIM sizes are byte counts, not seconds: --no-rescale would serve one byte per second; rescale with --load instead',
          );
        workload = rawWorkload(jobs, user);
        const span = workload.arrivals[workload.arrivals.length - 1] - workload.arrivals[0];
        if (!(span > 0)) throw new InvalidModelError('all replayed jobs have the same submit time; the replay needs a positive time span');
        const meanSize = workload.sizes.reduce((a, b) => a + b, 0) / workload.sizes.length;
        if (!(meanSize > 0)) throw new InvalidModelError('the replayed jobs have total size 0');
        lambda = (jobs.length - 1) / (span * o.n); // arrivals per server per second
        service = { kind: 'exponential', mean: meanSize };
        const originalLoad = lambda * meanSize;
        if (!(originalLoad < 1)) overload = originalLoad;
        scale = { rescaled: false, timeUnit: 's', meanSize, originalLoad };
      }
      // a finite trace has a well-defined answer at any load (its queues stay finite): run it, warn. The model's λ is not
      // used by the replay (arrivals come from the trace); it is parsed at a stable stand-in and set back after.
      if (o.rescale && o.load >= 1) overload = o.load;
      const parsed = parseModel({
        lambda: overload === null ? lambda : 0.5 / service.mean,
        d,
        selection: o.selection,
        discipline: o.discipline,
        sampling: o.sampling,
        memory: o.memory,
        service,
        prediction: user ? 'exact' : o.prediction,
      });
      const model = overload === null ? parsed : { ...parsed, lambda };
      const warnings: string[] =
        overload === null
          ? []
          : [
              `offered load ${overload.toPrecision(4)} ≥ 1 on n = ${o.n} servers: the queues grow over the trace, so these are the ` +
                `replayed window's numbers (they depend on its length), not a steady state`,
            ];
      const measured = jobs.length - o.warmupJobs;
      if (measured < 2)
        throw new InvalidModelError(
          `--warmup-jobs ${o.warmupJobs} leaves ${Math.max(0, measured)} of the ${jobs.length} jobs replayed to measure; at least 2 are needed`,
        );
      // replay's one rule for its batch means (sim/replay.ts replayBatchCount): batches of ≥ MIN_BATCH_JOBS jobs, or
      // none (too few jobs for an interval: the means alone, said in a note)
      const batchCount = replayBatchCount(measured, o.batches);
      const r = simulateReplay(model, workload, {
        n: o.n,
        seed: o.seed,
        warmupJobs: o.warmupJobs,
        batches: batchCount ?? 'none',
        record: Boolean(o.perJob || o.perServer),
      });
      // the batch means' independence check (theory.md §8: lag-1 autocorrelation of the batch means < 0.2), as simulate's
      // (NaN below MIN_LAG1_BATCHES batches or without an interval: no check, a note says so)
      const lag1 = r.meanResponseTime.lag1;
      if (r.batches !== null && lag1 > 0.2)
        warnings.push(
          `the batch means of E[T] have lag-1 autocorrelation ${lag1.toFixed(2)} > 0.2: batches of ~${Math.round(r.jobs / r.batches)} ` +
            'jobs may be too short to be independent, so the intervals may be too narrow; replay more jobs or give fewer --batches',
        );
      // the replay's clock: rescaled, one time unit is one mean size; else the trace's own seconds
      const unit = o.rescale ? 'time units = mean sizes' : 'seconds';
      if (o.perJob && r.records) writePerJobCsv(o.perJob, r.records.jobs, unit);
      // without an interval (too few jobs) the result has none, its batches null and the reason as its note (sim/replay.ts)
      const { records, noInterval: reason, ...result } = r;
      const noInterval = reason ?? null;
      const about = { trace: trace.source, format: trace.format, jobsFrom: from, jobsTo: to, skipped: trace.skipped.count, ...scale };
      if (o.json) {
        for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
        printJson({
          policy: policyName({ ...model, d }),
          ...(batchMeansJson(
            { ...result, responseTimePercentiles: percentilesJson(result.responseTimePercentiles) },
            noInterval === null,
          ) as object),
          warnings,
          replay: about,
          ...(o.perServer && records
            ? {
                perServer: { about: perServerAbout(records.servers.window, unit), timeUnit: unit, servers: perServerRows(records.servers) },
              }
            : {}),
          ...(o.perJob ? { perJob: { file: o.perJob, jobs: r.jobs, timeUnit: unit } } : {}),
        });
        return;
      }
      // "x [lo, hi]" by simulate's one rule (`estimateIntervalText`); without an interval the mean alone, 4 decimals
      const show = (e: Pick<BatchEstimate, 'mean' | 'ci95'> & { halfWidth?: number }) =>
        noInterval === null ? estimateIntervalText(e.mean, e.ci95, e.halfWidth, 4, 8) : decimalText(e.mean, 4);
      const lines = [
        `Replay: ${trace.source} (${trace.format.toUpperCase()}), jobs ${from}..${to} of ${all.length}${trace.skipped.count ? ` (${trace.skipped.count} records skipped)` : ''}; ` +
          `${policyName({ ...model, d })}, n = ${o.n}${usesPrediction(model.selection, model.discipline) ? `, prediction ${o.prediction}` : ''}, seed ${o.seed}`,
        o.rescale
          ? `  rescaled: sizes ÷ ${(scale.meanSize as number).toPrecision(6)} ${trace.format === 'swf' ? 's' : 'bytes'} (mean 1), 1 s of the trace clock = ${(1 / (o.load * o.n * (scale.meanInterArrival as number))).toPrecision(6)} time units, load ρ = ${o.load} (the trace's own on ${o.n} servers: ${(scale.originalLoad as number).toPrecision(4)})`
          : `  not rescaled: time in the trace's seconds; trace's offered load λE[S] ${(scale.originalLoad as number).toPrecision(4)} on ${o.n} servers (λ from the inter-arrival times)`,
        `  ${r.jobs} measured jobs after ${r.warmupJobs} warm-up jobs; ${r.batches !== null ? `batch means over ${r.batches} batches of ~${Math.round(r.jobs / r.batches)} jobs` : 'no batches (too few jobs for an interval)'}; window [${Number(r.window[0].toPrecision(6))}, ${Number(r.window[1].toPrecision(6))}] (${unit})`,
        noInterval === null ? `                          mean     95% CI (batch means)` : `                          mean (no interval)`,
        `  E[T] response time    ${show(r.meanResponseTime)}`,
        `  E[T/S] slowdown       ${show(r.meanSlowdown)}${r.zeroSizeJobs > 0 ? `   (${r.zeroSizeJobs} job${r.zeroSizeJobs === 1 ? '' : 's'} of size 0 left out: T/S undefined)` : ''}`,
        `  E[Q] per server       ${show(r.meanQueueLength)}   (time average over the window)`,
        // each with its interval, as simulate prints them (∞ at an end that is open: the note below says why)
        ...(['p50', 'p95', 'p99'] as const).map((k) => `  T ${k} (pooled)        ${show(r.responseTimePercentiles[k])}`),
        `  load arriving in the window Σ S / (n · window) ${r.windowLoad.toFixed(4)}; ${formatCount(r.events)} events in ${r.wallSeconds.toFixed(2)} s`,
        ...(o.perServer && records
          ? [`Per server: ${perServerAbout(records.servers.window, unit)}.`, perServerTable(records.servers)]
          : []),
        ...(o.perJob ? [`${r.jobs} measured jobs written to ${o.perJob} (times and sizes in ${unit})`] : []),
      ];
      for (const w of warnings) lines.push(`  warning: ${w}`);
      for (const w of result.notes) lines.push(`  note: ${w}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    }),
  );
  return cmd;
}
