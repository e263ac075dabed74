/** `supermarket simulate`: finite-n discrete-event simulation with replications and Student-t 95% CIs. */
import { Command, Option } from 'commander';
import { checkServers, slowdownFinite } from '../../model/index.ts';
import { simulationWarmup } from '../../meanfield/warmup.ts';
import { checkEventBudget, simulate } from '../../sim/index.ts';
import type { Estimate } from '../../stats/index.ts';
import { action } from '../errors.ts';
import { createProgress } from '../progress.ts';
import { addModelOptions, parseJobs, parseMaxLevel, parseNonNegative, parseNonNegativeInteger, parseNumber, parsePositive, parseReplications, modelFromFlags, type ModelFlags } from '../options.ts';

interface Opts extends ModelFlags {
  n: number; jobs: number; replications: number; seed: number; warmup?: number; warmupTolerance: number;
  maxLevel: number; engine: 'auto' | 'event' | 'priority' | 'race'; json?: boolean; progress: boolean;
}

const show = (e: Estimate, k = 4) => `${e.mean.toFixed(k)}  [${e.ci95[0].toFixed(k)}, ${e.ci95[1].toFixed(k)}]`;

export function simulateCommand(): Command {
  const cmd = new Command('simulate')
    .summary('simulate n servers: mean response time, queue length, tail fractions with 95% CIs')
    .description('Event-driven simulation of the supermarket model: Poisson arrivals at rate λn, d servers sampled per job,\n' +
      'ties among the sampled minimisers broken uniformly at random. Each replication has its own warm-up and an\n' +
      'independent random stream derived from --seed; the same seed gives the same numbers.');
  addModelOptions(cmd)
    .requiredOption('--n <n>', 'number of servers (integer ≥ d)', parseNumber)
    .option('--jobs <count>', 'measured arrivals per replication, after the warm-up (e.g. 1e6)', parseJobs, 1_000_000)
    .option('--replications <r>', 'independent replications (≥ 2, for the Student-t CI)', parseReplications, 5)
    .option('--seed <seed>', 'master seed (integer ≥ 0)', parseNonNegativeInteger, 1)
    .option('--warmup <time>', 'warm-up in time units (0: none, measure from the empty start); default: from the mean-field transient (see --warmup-tolerance)', parseNonNegative)
    .option('--warmup-tolerance <ε>', 'default warm-up = 2 × time for the SQ(d) ODE from empty to come within ε of its fixed point (≥ 3τ), × max(1, (1+SCV)/2) for variable sizes', parsePositive, 1e-3)
    .option('--max-level <K>', 'record tail fractions s_0..s_K', parseMaxLevel, 30)
    .addOption(new Option('--engine <engine>', 'event: event-driven FIFO engine; priority: engine for the other disciplines (and FIFO); race: exponential JSQ FIFO fast path; auto: race when exact, else event/priority').choices(['auto', 'event', 'priority', 'race']).default('auto'))
    .option('--json', 'print one JSON object on stdout')
    .option('--no-progress', 'no progress output on stderr')
    .addHelpText('after', '\nExamples:\n  supermarket simulate --lambda 0.9 --d 2 --n 1000\n  supermarket simulate --lambda 0.9 --d 2 --n 100 --jobs 1e6 --replications 10 --seed 7 --json')
    .action(action((o: Opts) => {
      const model = modelFromFlags(o);
      const n = checkServers(model, o.n);
      const warm = o.warmup ?? simulationWarmup(model, { tolerance: o.warmupTolerance, cap: Number.POSITIVE_INFINITY }).time;
      checkEventBudget({ lambda: model.lambda, n, jobs: o.jobs, replications: o.replications, warmupTime: warm }); // before the progress bar
      const progress = createProgress('simulate', o.progress && !o.json);
      const result = simulate(model, {
        n, jobs: o.jobs, replications: o.replications, seed: o.seed, warmupTime: warm, maxLevel: o.maxLevel, engine: o.engine,
        onProgress: (done, total) => progress.update(done, total, `n = ${n}`),
      });
      progress.stop();
      const infinite = !slowdownFinite(model);
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ ...result, slowdownInfiniteInTheory: infinite })}\n`);
        return;
      }
      const lines = [
        `Simulation: ${model.selection.toUpperCase()}(${model.d}) + ${model.discipline.toUpperCase()}, service ${o.service}, prediction ${o.prediction}, λ = ${model.lambda}, n = ${n}, ${model.sampling}`,
        `  ${o.replications} replications × ${o.jobs} jobs after a warm-up of ${warm.toFixed(1)} time units; seed ${o.seed}; engine ${result.engine}`,
        `                          mean     95% CI`,
        `  E[T] response time    ${show(result.meanResponseTime)}`,
        `  E[Q] per server       ${show(result.meanQueueLength)}`,
        `  E[Q]/λ (Little)       ${show(result.littleResponseTime)}`,
        `  E[T/S] slowdown       ${show(result.meanSlowdown)}${infinite ? '   (infinite in theory: E[1/S] = ∞ and small jobs wait)' : ''}` +
          (result.zeroSizeJobs > 0 ? `   (${result.zeroSizeJobs} measured jobs of size 0 left out: T/S undefined)` : ''),
        `  T p50 / p95 / p99     ${result.responseTimePercentiles.p50.mean.toFixed(3)} / ${result.responseTimePercentiles.p95.mean.toFixed(3)} / ${result.responseTimePercentiles.p99.mean.toFixed(3)}`,
        ...(result.meanWorkload ? [`  E[U] workload         ${show(result.meanWorkload)}`] : []),
        ...result.tail.slice(1, 7).map((e, k) => `  s_${k + 1}                   ${show(e)}`),
        `  ${result.events.toExponential(3)} events in ${result.wallSeconds.toFixed(2)} s = ${(result.eventsPerSecond / 1e6).toFixed(2)}M events/s`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    }));
  return cmd;
}
