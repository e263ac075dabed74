/** `supermarket exact`: the exact stationary solution of the n-server chain (small n), with its truncation bound. */
import { Command } from 'commander';
import { solveExact, type ExactProgress } from '../../meanfield/exact/index.ts';
import { policyName } from '../../model/index.ts';
import { addModelOptions, examples, modelAction, parsePositive, parsePositiveInteger } from '../options.ts';
import { jsonOption, printJson } from '../output.ts';
import { createStatusLine } from '../progress.ts';

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
        'stationary law by SOR with aggregation over total jobs, stopped on the residual ‖πQ‖₁. States: C(n + K, n).\n' +
        'Random routing (--selection random, or d = 1) is answered in closed form: each server is an M/M/1 queue with\n' +
        'arrival rate λ at every n (Kleinrock 1975 §3.2), E[T] = E[S]/(1 − ρ); method "closed form" in --json.',
    )
    .requiredOption('--n <n>', 'number of servers, integer ≥ 1', parsePositiveInteger)
    .option('--truncation-bound <ε>', 'bound on the E[T] truncation error (model time units)', parsePositive, 1e-6)
    .option('--max-states <S>', 'refuse larger state spaces', parsePositiveInteger, 2e7)
    .addOption(jsonOption())
    .option('--no-progress', 'no status line on stderr (shown from 1e6 states on: cap K, states, sweeps and their rate; no ETA)')
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
      // a status line on stderr with the level cap, its states, the sweeps and their rate, and no ETA: whether a
      // larger cap follows is known only after each solve (an ETA from one cap's residual said 32 s for a 386 s run)
      const status = createStatusLine('exact', o.progress && !o.json);
      const started = performance.now();
      let r: ReturnType<typeof solveExact>;
      try {
        r = solveExact(model, {
          n: o.n,
          truncationBound: o.truncationBound,
          maxStates: o.maxStates,
          onProgress: (p) => {
            if (p.states >= PROGRESS_STATES) status.update(...exactProgressText(p, (performance.now() - started) / 1000));
          },
        });
      } finally {
        status.stop();
      }
      if (o.json) {
        printJson({ policy: policyName(model), ...r });
        return;
      }
      const t = r.truncation;
      const sharing =
        model.discipline === 'fifo'
          ? ''
          : ` (FIFO's ${r.method === 'closed form' ? 'queue lengths' : 'occupancy chain'}: the same queue lengths with exponential sizes; ` +
            `E[Q], s_i and E[T] by Little exact; the law of T is ${model.discipline.toUpperCase()}'s own, not FIFO's, and not given here)`;
      const head = `exact, n = ${r.n}, ${policyName(model)}${sharing}${model.selection === 'jsq' && model.d > 1 ? `, ${model.sampling}` : ''}, λ = ${model.lambda}`;
      const tail = `  s_i: ${r.tail
        .slice(0, 8)
        .map((x) => x.toPrecision(6))
        .join(', ')}${r.tail.length > 8 ? ', …' : ''}`;
      const lines =
        r.method === 'closed form'
          ? [
              head,
              `  E[T] = ${r.meanResponseTime.toFixed(6)}  (closed form, exact: random routing makes each server an M/M/1 queue with arrival rate λ at every n)`,
              `  E[Q] = ${r.meanQueueLength.toFixed(6)} jobs per server`,
              tail,
              `  method: closed form, no chain built; source: ${r.provenance.source}`,
            ]
          : [
              head,
              `  E[T] = ${r.meanResponseTime.toFixed(6)}  (truncation error ≤ ${t.errorEstimate.toExponential(1)}, bound ${t.bound})`,
              `  E[Q] = ${r.meanQueueLength.toFixed(6)} jobs per server`,
              tail,
              `  states ${r.states}, K = ${t.K}, P(some server at K) = ${t.boundaryMass.toExponential(2)}, residual ${r.diagnostics.residual.toExponential(1)}, ` +
                `${r.diagnostics.iterations} sweeps, ${r.diagnostics.seconds.toFixed(2)} s`,
            ];
      process.stdout.write(`${lines.join('\n')}\n`);
    }),
  );
  return cmd;
}

/**
 * The status line of one progress call of the exact chain, as [stage, detail]: the level cap, its states and the phase
 * (a log that is not a terminal gets a line at each new stage), then
 * the sweeps, the residual against the tolerance and the rate in state·sweeps per second of this run so far; never
 * a percentage or an ETA (the caps still to come are unknown until each is solved).
 * @param p the solver's progress. @param seconds since the command started.
 * @example exactProgressText({ K: 20, states: 1771, phase: 'solve', sweeps: 40, residual: 1e-8, tolerance: 1e-12, fraction: 0.5 }, 2)[1]
 *   // 'sweep 40, residual 1.0e-8 → 1.0e-12, 3.5e+4 state·sweeps/s, a larger K may follow'
 */
export function exactProgressText(p: ExactProgress, seconds: number): [string, string] {
  const stage = `level cap K = ${p.K}, ${p.states.toExponential(2)} states`;
  if (p.phase === 'build') return [`${stage}: building the chain`, ''];
  const rate = seconds > 0 ? `, ${((p.states * p.sweeps) / seconds).toExponential(1)} state·sweeps/s` : '';
  return [
    `${stage}: solving`,
    `sweep ${p.sweeps}, residual ${p.residual.toExponential(1)} → ${p.tolerance.toExponential(1)}${rate}, a larger K may follow`,
  ];
}
