/**
 * `supermarket trace <file>`: reads an SWF or SWIM trace, prints its statistics (data/README.md definitions) and,
 * with --learn, the quality of learned size predictions (random forest and linear) beside the user estimate.
 */
import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { PathError } from '../../errors.ts';
import { learnPredictions, type LearnResult, type PredictionQuality } from '../../learn/index.ts';
import { loadTrace, pairStatistics, SWIM_GAP_TOLERANCE, traceStatistics, type PairStatistics, type SwimJob } from '../../traces/index.ts';
import { action } from '../errors.ts';
import { examples, parseInFile, parseIntegerList, parsePositiveInteger, parseSeed32, checkTraceHasJobs } from '../options.ts';
import { jsonOption, printJson } from '../output.ts';

interface Opts {
  format?: 'swf' | 'swim';
  status?: number[];
  size?: 'B' | 'D';
  skipMalformed?: boolean;
  learn?: boolean;
  trainFraction: number;
  seed: number;
  trees: number;
  maxTrainSamples: number;
  json?: boolean;
}

function parseFraction(value: string): number {
  const x = Number(value);
  if (!(x > 0 && x < 1)) throw new InvalidArgumentError(`expected a number in (0, 1), got ${JSON.stringify(value)}`);
  return x;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const num = (x: number) => (Math.abs(x) >= 1e6 ? x.toExponential(3) : x.toFixed(1));

function qualityRow(name: string, q: PairStatistics | PredictionQuality | undefined): string {
  if (!q) return `  ${name.padEnd(22)} (none in this trace)`;
  return `  ${name.padEnd(22)} ${String(q.count).padStart(7)}  ${f3(q.logCorrelation).padStart(7)}  ${f3(q.spearman).padStart(8)}  ${pct(q.over).padStart(6)}  ${pct(q.under).padStart(6)}  ${f3(q.medianAbsLogError).padStart(11)}  ${f3(q.medianRatio).padStart(6)}`;
}
const qualityHeader = `  ${'predictor'.padEnd(22)} ${'jobs'.padStart(7)}  ${'r(ln)'.padStart(7)}  ${'Spearman'.padStart(8)}  ${'over'.padStart(6)}  ${'under'.padStart(6)}  ${'MedAbsLnErr'.padStart(11)}  ${'P/S'.padStart(6)}`;
/** The legend printed under the quality table: every column in words. */
const qualityLegend =
  '  r(ln) = correlation of ln P and ln S; Spearman = rank correlation; over/under = shares of jobs with P > S and P < S;\n' +
  '  MedAbsLnErr = median absolute log error, median |ln P − ln S| (0.69 = off by a factor 2); P/S = median ratio (jobs with S, P > 0)';

export function traceCommand(): Command {
  return new Command('trace')
    .description(
      'Reads a Standard Workload Format log (.swf, .swf.gz) or a SWIM Hadoop TSV (.tsv) and prints: job count,\n' +
        "skipped records, mean/SCV/median of the size S, inter-arrival mean and SCV, and corr(ln S, ln P) for the trace's\n" +
        'own estimate P (SWF requested time) or, for SWIM, the map-input-bytes feature. Definitions: ../shared/data/README.md.\n' +
        'With --learn: trains on the first part of the trace (chronological) and reports the quality of the predicted sizes\n' +
        'of the rest (random forest and linear regression on ln size) beside the user estimate on the same jobs.\n' +
        'MedAbsLnErr = median absolute log error, median |ln P − ln S|; P/S = median ratio; over/under = shares of P > S and\n' +
        'P < S (jobs with S, P > 0). SWIM: jobs whose gap column disagrees with the submit-time difference are counted as warnings.',
    )
    .argument('<file>', 'trace file (.swf, .swf.gz or .tsv)', parseInFile)
    .addOption(new Option('--format <format>', 'reader (default: from the file name)').choices(['swf', 'swim']))
    .option('--status <codes>', 'SWF: keep only jobs with these status codes, e.g. 1 (completed)', parseIntegerList)
    .addOption(new Option('--size <def>', 'SWIM size: B = m + s + r, D = m + 5·s + r (schedsim)').choices(['B', 'D']))
    .option('--skip-malformed', 'skip and count malformed records instead of stopping at the first one')
    .option('--learn', 'train size predictors and print their quality')
    .option('--train-fraction <f>', 'share of leading jobs used for training', parseFraction, 0.5)
    .option('--seed <s>', 'seed of the training subsample and the forest (integer < 2^31)', parseSeed32, 1)
    .option('--trees <k>', 'random forest: number of trees', parsePositiveInteger, 16)
    .option('--max-train-samples <k>', 'random forest: training subsample size', parsePositiveInteger, 800)
    .addOption(jsonOption())
    .addHelpText(
      'after',
      examples([
        'supermarket trace ../shared/data/KTH-SP2-1996-2.1-cln.swf.gz --status 1',
        'supermarket trace ../shared/data/FB-2010_samples_24_times_1hr_0.tsv --size D --learn',
      ]),
    )
    .action(
      action((file: string, o: Opts) => {
        if (!existsSync(file)) throw new PathError(`trace file not found: ${file}`);
        const trace = loadTrace(file, {
          format: o.format,
          status: o.status,
          size: o.size,
          onMalformed: o.skipMalformed ? 'skip' : 'error',
        });
        checkTraceHasJobs(file, trace, o.status);
        const stats = traceStatistics(trace.jobs);
        const feature =
          trace.format === 'swim'
            ? pairStatistics(
                trace.jobs.map((j) => j.size),
                (trace.jobs as SwimJob[]).map((j) => j.mapInputBytes),
              )
            : undefined;
        let learned: LearnResult[] | undefined;
        if (o.learn) {
          const common = { trainFraction: o.trainFraction, seed: o.seed, trees: o.trees, maxTrainSamples: o.maxTrainSamples };
          const clock = trace.format === 'swf' ? trace.clock : undefined; // hour of day / day of week in local time where the header says
          learned = [
            learnPredictions(trace.jobs, { ...common, clock, model: 'random-forest' }),
            learnPredictions(trace.jobs, { ...common, clock, model: 'linear' }),
          ];
        }
        const filter = trace.format === 'swf' ? (trace.filter.status ? `status in [${trace.filter.status.join(', ')}]` : 'none') : 'none';
        if (o.json) {
          const sizeDef = trace.format === 'swim' ? trace.size : { kind: 'run time', formula: 'SWF field 4 (s)' };
          printJson({
            source: trace.source,
            format: trace.format,
            records: trace.records,
            skipped: trace.skipped,
            ...(trace.format === 'swim' ? { warnings: trace.warnings } : {}),
            filter,
            size: sizeDef,
            statistics: stats,
            ...(feature ? { mapInputFeature: feature } : {}),
            ...(learned ? { learn: learned.map(({ predictions, ...rest }) => rest) } : {}),
          });
          return;
        }
        const unit = trace.format === 'swf' ? 's' : 'B';
        const reasons = Object.entries(trace.skipped.reasons)
          .map(([r, c]) => `${c} ${r}`)
          .join(', ');
        const lines = [
          `${trace.source} (${trace.format.toUpperCase()}${trace.format === 'swim' ? `, size ${trace.size.formula}` : ', size = run time'})`,
          `  jobs ${stats.count} of ${trace.records} records; skipped ${trace.skipped.count}${reasons ? ` (${reasons})` : ''}; filter: ${filter}` +
            (trace.format === 'swim' && trace.warnings.count > 0
              ? `; warnings: ${Object.entries(trace.warnings.reasons)
                  .map(([r, c]) => `${c} ${r} (tolerance ${SWIM_GAP_TOLERANCE} s; submit times used)`)
                  .join(', ')}`
              : ''),
          `  size S: mean ${num(stats.meanSize)} ${unit}, SCV ${stats.scvSize.toFixed(2)}, median ${num(stats.medianSize)} ${unit}; ` +
            `${stats.zeroSizeJobs} jobs of size 0 (in these statistics; left out of predictor agreement and of mean slowdown T/S in replays)`,
          `  inter-arrival: mean ${stats.meanInterArrival.toFixed(3)} s, SCV ${stats.scvInterArrival.toFixed(1)}; span ${(stats.span / 86400).toFixed(1)} days`,
          '',
          qualityHeader,
          qualityRow(
            trace.format === 'swf' ? 'user estimate (all)' : 'map input bytes (all)',
            trace.format === 'swf' ? stats.userEstimate : feature,
          ),
        ];
        if (learned) {
          const [rf, lin] = learned;
          lines.push(
            `  -- test part: jobs ${rf.trainCount + 1}..${rf.trainCount + rf.testCount} (trained on the first ${rf.trainCount}; forest fit on ${rf.fitCount}, ${o.trees} trees, seed ${rf.seed})`,
            qualityRow('random forest', rf.quality.learned),
            qualityRow('linear (OLS)', lin.quality.learned),
          );
          if (rf.quality.userEstimate) lines.push(qualityRow('user estimate', rf.quality.userEstimate));
          lines.push(`  features: ${rf.features.join(', ')}`);
          if (rf.timeOfDay) lines.push(`  hour of day, day of week (0 = Monday): ${rf.timeOfDay}`);
        }
        lines.push(qualityLegend);
        process.stdout.write(`${lines.join('\n')}\n`);
      }),
    );
}
