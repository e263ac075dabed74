/** `supermarket exact`: the exact stationary solution of the n-server chain (small n), with its truncation bound. */
import { Command } from 'commander';
import { solveExact } from '../../meanfield/exact/index.ts';
import { addModelOptions, examples, modelAction, parsePositive, parsePositiveInteger } from '../options.ts';
import { jsonOption, printJson } from '../output.ts';
import { createProgress } from '../progress.ts';

interface Opts {
  lambda: number;
  d: number;
  n: number;
  selection: string;
  discipline: string;
  sampling: string;
  service: string;
  prediction: string;
  truncationBound: number;
  maxStates: number;
  json?: boolean;
  progress: boolean;
}

/** Chains from this many states on show progress (below, a solve takes seconds at most). */
const PROGRESS_STATES = 1e6;

export function exactCommand(): Command {
  const cmd = new Command('exact')
    .description(
      'Solves the n-server continuous-time Markov chain on sorted occupancy vectors (servers are exchangeable),\n' +
        'truncated at a level cap K raised until the estimated E[T] truncation error is below --truncation-bound;\n' +
        'stationary law by SOR with aggregation over total jobs, stopped on the residual ‖πQ‖₁. States: C(n + K, n).',
    )
    .requiredOption('--n <n>', 'number of servers, integer ≥ 1', parsePositiveInteger)
    .option('--truncation-bound <ε>', 'bound on the E[T] truncation error (model time units)', parsePositive, 1e-6)
    .option('--max-states <S>', 'refuse larger state spaces', parsePositiveInteger, 2e7)
    .addOption(jsonOption())
    .option('--no-progress', 'no progress output on stderr (shown from 1e6 states on)')
    .addHelpText(
      'after',
      examples([
        'supermarket exact --n 3 --d 2 --lambda 0.9',
        'supermarket exact --n 2 --d 2 --lambda 0.5 --sampling without-replacement --json',
      ]),
    );
  addModelOptions(cmd);
  cmd.action(
    modelAction((model, o: Opts) => {
      // a chain of a million states or more takes tens of seconds to minutes (n = 8 at λ = 0.9: 1.8e7 states, ~7 min):
      // progress with ETA on stderr, labelled with the level cap and the state count (known before each solve)
      const progress = createProgress('exact', o.progress && !o.json);
      let r: ReturnType<typeof solveExact>;
      try {
        r = solveExact(model, {
          n: o.n,
          truncationBound: o.truncationBound,
          maxStates: o.maxStates,
          onProgress: ({ K, states, fraction }) => {
            if (states >= PROGRESS_STATES) progress.update(fraction, 1, `level cap K = ${K}, ${states.toExponential(2)} states`);
          },
        });
      } finally {
        progress.stop();
      }
      if (o.json) {
        printJson(r);
        return;
      }
      const t = r.truncation;
      const lines = [
        `exact, n = ${r.n}, ${model.selection === 'jsq' ? `JSQ(${model.d}), ${model.sampling}` : 'random'}${model.discipline === 'fifo' ? '' : ` + ${model.discipline.toUpperCase()} (FIFO's occupancy chain: the same queue lengths with exponential sizes; E[Q], E[T] by Little)`}, λ = ${model.lambda}`,
        `  E[T] = ${r.meanResponseTime.toFixed(6)}  (truncation error ≤ ${t.errorEstimate.toExponential(1)}, bound ${t.bound})`,
        `  E[Q] = ${r.meanQueueLength.toFixed(6)} jobs per server`,
        `  s_i: ${r.tail
          .slice(0, 8)
          .map((x) => x.toPrecision(6))
          .join(', ')}${r.tail.length > 8 ? ', …' : ''}`,
        `  states ${r.states}, K = ${t.K}, P(some server at K) = ${t.boundaryMass.toExponential(2)}, residual ${r.diagnostics.residual.toExponential(1)}, ` +
          `${r.diagnostics.iterations} sweeps, ${r.diagnostics.seconds.toFixed(2)} s`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    }),
  );
  return cmd;
}
