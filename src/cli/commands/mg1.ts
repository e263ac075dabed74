/** `supermarket mg1`: exact M/G/1 (d = 1) means for one discipline, or for every discipline of the table with --all. */
import { Command, Option } from 'commander';
import { DISCIPLINES, DISCIPLINE_TABLE, disciplineHelp, parseModel, predictedDisciplines, type Discipline } from '../../model/index.ts';
import { mg1, type Mg1Result } from '../../meanfield/mg1/index.ts';
import { action } from '../errors.ts';
import { examples, parseNumber, parsePositive, refuseIdleSettings, serviceFromFlag } from '../options.ts';
import { printJson } from '../output.ts';

interface Opts {
  lambda: number;
  service: string;
  discipline: string;
  prediction: string;
  all?: boolean;
  json?: boolean;
  relTolerance: number;
}

/** JSON form of a result: E[T/S] = ∞ becomes null (JSON has no Infinity), next to `slowdownFinite`. */
const plain = (r: Mg1Result) => ({
  ...r,
  meanSlowdown: r.slowdownFinite ? r.meanSlowdown : null,
  ...(r.responseTimeFinite ? {} : { meanResponseTime: null, meanWaitingTime: null, meanQueueLength: null }),
  meanWorkload: Number.isFinite(r.meanWorkload) ? r.meanWorkload : null,
});
const slowdownText = (r: Mg1Result) => (r.slowdownFinite ? r.meanSlowdown.toFixed(6) : '∞');
/** A mean as printed: 6 decimals, or ∞ (infinite in theory, model/moments.ts). */
const meanText = (x: number) => (Number.isFinite(x) ? x.toFixed(6) : '∞');

export function mg1Command(): Command {
  const cmd = new Command('mg1')
    .description(
      'Single-server formulas of theory.md §7 (Pollaczek–Khinchine, Kleinrock, Schrage–Miller; with predictions\n' +
        'Mitzenmacher ITCS 2020), evaluated by adaptive Gauss–Kronrod quadrature with error estimates.\n' +
        'Time is in mean service times; E[U] = λE[S²]/(2(1 − ρ)) is the same for every discipline.\n' +
        'E[slowdown] = E[T/S] is ∞ when E[1/S] = ∞ (density at 0: exponential, Weibull k ≤ 1) and small jobs still wait.',
    )
    .requiredOption('--lambda <λ>', 'arrival rate (jobs per mean service time); load ρ = λ·E[S] must be < 1', parseNumber)
    .option(
      '--service <law>',
      'service law: exp, det, erlang:K, hyperexp:SCV, weibull:SHAPE, lognormal:SIGMA, bpareto:ALPHA:RATIO, pareto:ALPHA (optional @MEAN)',
      'exp',
    )
    .addOption(new Option('--discipline <name>', disciplineHelp()).choices(DISCIPLINES).default('fifo'))
    .option(
      '--prediction <model>',
      `prediction model for ${predictedDisciplines().join(', ')}: exact, exp, uniform:ALPHA, lognormal:SIGMA[:median|mean]`,
      'exact',
    )
    .option('--all', `a table over all ${DISCIPLINES.length} disciplines (the predicted ones use --prediction)`)
    .option('--rel-tolerance <ε>', 'relative tolerance of the outer quadratures', parsePositive, 1e-10)
    .option('--json', 'print one JSON object on stdout (meanSlowdown null when infinite)')
    .addHelpText(
      'after',
      examples([
        'supermarket mg1 --lambda 0.9 --service weibull:0.5 --discipline sprpt --prediction exp',
        'supermarket mg1 --lambda 0.9 --service exp --prediction exp --all --json',
      ]),
    );
  cmd.action(
    action((o: Opts, self: Command) => {
      const disciplines: readonly Discipline[] = o.all ? DISCIPLINES : [o.discipline as Discipline];
      if (!o.all) refuseIdleSettings(self, { selection: 'random', discipline: o.discipline as Discipline, d: 1 });
      const results = disciplines.map((discipline) =>
        mg1(
          parseModel({
            lambda: o.lambda,
            d: 1,
            selection: 'random',
            discipline,
            service: serviceFromFlag(o.service),
            prediction: o.prediction,
          }),
          { relTolerance: o.relTolerance },
        ),
      );
      if (o.json) {
        printJson(o.all ? { results: results.map(plain) } : plain(results[0]));
        return;
      }
      const m = results[0].provenance.model;
      const head =
        `M/G/1, λ = ${m.lambda}, service ${o.service}${disciplines.some((d) => DISCIPLINE_TABLE[d].usesPrediction) ? `, prediction ${o.prediction}` : ''}` +
        `: E[U] = ${meanText(results[0].meanWorkload)}`;
      const lines = [head];
      if (o.all) {
        lines.push('  discipline        E[T]   ±quadrature    E[T/S]');
        results.forEach((r, k) =>
          lines.push(
            `  ${disciplines[k].padEnd(8)} ${meanText(r.meanResponseTime).padStart(12)}   ${(r.responseTimeFinite ? r.diagnostics.quadratureError.toExponential(1) : '–').padStart(9)}   ${slowdownText(r).padStart(10)}`,
          ),
        );
      } else {
        const r = results[0];
        lines.push(
          r.responseTimeFinite
            ? `  ${disciplines[0]}: E[T] = ${r.meanResponseTime.toFixed(6)} (± ${r.diagnostics.quadratureError.toExponential(1)})`
            : `  ${disciplines[0]}: E[T] = ∞ (${r.infiniteReason})`,
          `  E[T/S] = ${slowdownText(r)}${r.slowdownFinite ? ` (± ${r.diagnostics.slowdownQuadratureError.toExponential(1)})` : r.responseTimeFinite ? ' (E[1/S] = ∞ and small jobs still wait)' : ' (E[T] = ∞)'}`,
          `  E[Q] = λE[T] = ${meanText(r.meanQueueLength)}`,
        );
      }
      process.stdout.write(`${lines.join('\n')}\n`);
    }),
  );
  return cmd;
}
