/** `supermarket mg1`: exact M/G/1 (d = 1) means for one discipline, or for every discipline of the table with --all. */
import { Command, Option } from 'commander';
import { DISCIPLINES, DISCIPLINE_TABLE, disciplineHelp, parseModel, predictedDisciplines, type Discipline } from '../../model/index.ts';
import { mg1, type Mg1Result } from '../../meanfield/mg1/index.ts';
import { action } from '../errors.ts';
import { SERVICE_LAW_HELP, examples, parseNumber, parsePositive, refuseIdleSettings, serviceFromFlag } from '../options.ts';
import { jsonOption, printJson } from '../output.ts';
import { estimandFiniteness } from '../../model/moments.ts';
import { infiniteJson, meanJson } from '../../io/index.ts';
import { SupermarketError } from '../../errors.ts';

interface Opts {
  lambda: number;
  service: string;
  discipline: string;
  prediction: string;
  all?: boolean;
  json?: boolean;
  relTolerance: number;
}

/**
 * JSON form of a result (README "JSON formats"): a mean that is infinite in theory is the ∞ object
 * `{ mean: null, infinite: true, reason }` (io/jsonText.ts), beside `responseTimeFinite`, `slowdownFinite` and
 * `infiniteReason` as before; finite means stay numbers.
 */
const plain = (r: Mg1Result) => {
  const finiteness = estimandFiniteness(r.provenance.model);
  const why = r.infiniteReason ?? 'E[T] = ∞ in theory (model/moments.ts)';
  const slowdownWhy = finiteness.meanSlowdown.finite
    ? r.responseTimeFinite
      ? 'E[1/S] = ∞ and small jobs still wait'
      : `E[T] = ∞: ${why}`
    : finiteness.meanSlowdown.reason;
  return {
    ...r,
    meanResponseTime: meanJson(r.meanResponseTime, why),
    meanWaitingTime: meanJson(r.meanWaitingTime, why),
    meanSlowdown: r.slowdownFinite ? meanJson(r.meanSlowdown, slowdownWhy) : infiniteJson(slowdownWhy),
    meanQueueLength: meanJson(r.meanQueueLength, why),
    meanWorkload: meanJson(r.meanWorkload, finiteness.meanWorkload.finite ? 'E[S²] = ∞' : finiteness.meanWorkload.reason),
  };
};
/** A discipline of `--all` whose formula failed (a quadrature that missed its tolerance): its row says why. */
interface FailedRow {
  discipline: Discipline;
  failed: string;
}
const slowdownText = (r: Mg1Result) => (r.slowdownFinite ? meanText(r.meanSlowdown) : '∞');
/** A mean as printed: 6 decimals, ∞ (infinite in theory, model/moments.ts), or – (none: every formula failed). */
const meanText = (x: number) => (Number.isFinite(x) ? x.toFixed(6) : Number.isNaN(x) ? '–' : '∞');

/**
 * `supermarket mg1`. @param solveMg1 the M/G/1 formulas (meanfield/mg1 `mg1`); a test passes one that fails for a
 * discipline to check how `--all` prints a failed row.
 */
export function mg1Command(solveMg1: typeof mg1 = mg1): Command {
  const cmd = new Command('mg1')
    .description(
      'Single-server formulas of theory.md §7 (Pollaczek–Khinchine, Kleinrock, Schrage–Miller; with predictions\n' +
        'Mitzenmacher ITCS 2020), evaluated by adaptive Gauss–Kronrod quadrature with error estimates.\n' +
        'Time is in mean service times; E[U] = λE[S²]/(2(1 − ρ)) is the same for every discipline.\n' +
        'E[slowdown] = E[T/S] is ∞ when E[1/S] = ∞ (density at 0: exponential, Weibull k ≤ 1) and small jobs still wait.',
    )
    .requiredOption('--lambda <λ>', 'arrival rate (jobs per mean service time); load ρ = λ·E[S] must be < 1', parseNumber)
    .option('--service <law>', SERVICE_LAW_HELP, 'exp')
    .addOption(new Option('--discipline <name>', disciplineHelp()).choices(DISCIPLINES).default('fifo'))
    .option(
      '--prediction <model>',
      `prediction model for ${predictedDisciplines().join(', ')}: exact, exp, uniform:ALPHA, lognormal:SIGMA[:median|mean]`,
      'exact',
    )
    .option('--all', `a table over all ${DISCIPLINES.length} disciplines (the predicted ones use --prediction)`)
    .option('--rel-tolerance <ε>', 'relative tolerance of the outer quadratures', parsePositive, 1e-10)
    .addOption(jsonOption()) // an infinite mean is the ∞ object with its reason (README "JSON formats"), never null
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
      const modelOf = (discipline: Discipline) =>
        parseModel({
          lambda: o.lambda,
          d: 1,
          selection: 'random',
          discipline,
          service: serviceFromFlag(o.service),
          prediction: o.prediction,
        });
      const solve = (discipline: Discipline) => solveMg1(modelOf(discipline), { relTolerance: o.relTolerance });
      // --all: a discipline whose formula fails keeps its row, with the reason, and the exit code says so (2)
      const results: (Mg1Result | FailedRow)[] = disciplines.map((discipline) => {
        if (!o.all) return solve(discipline);
        try {
          return solve(discipline);
        } catch (error) {
          if (!(error instanceof SupermarketError)) throw error;
          return { discipline, failed: error.message };
        }
      });
      const failed = results.filter((r): r is FailedRow => 'failed' in r);
      const solved = results.filter((r): r is Mg1Result => !('failed' in r));
      if (failed.length > 0) {
        process.exitCode = 2;
        process.stderr.write(
          `supermarket: error: mg1 --all: ${failed.length} of ${results.length} disciplines failed (${failed.map((f) => f.discipline).join(', ')}); their rows say why\n`,
        );
      }
      if (o.json) {
        printJson(o.all ? { results: results.map((r) => ('failed' in r ? r : plain(r))) } : plain(solved[0]));
        return;
      }
      const m = solved[0]?.provenance.model ?? modelOf(disciplines[0]);
      const head =
        `M/G/1, λ = ${m.lambda}, service ${o.service}${disciplines.some((d) => DISCIPLINE_TABLE[d].usesPrediction) ? `, prediction ${o.prediction}` : ''}` +
        `: E[U] = ${meanText(solved.length > 0 ? solved[0].meanWorkload : NaN)}`;
      const lines = [head];
      if (o.all) {
        lines.push('  discipline        E[T]   ±quadrature    E[T/S]');
        results.forEach((r, k) =>
          lines.push(
            'failed' in r
              ? `  ${disciplines[k].padEnd(8)} failed: ${r.failed}`
              : `  ${disciplines[k].padEnd(8)} ${meanText(r.meanResponseTime).padStart(12)}   ${(r.responseTimeFinite ? r.diagnostics.quadratureError.toExponential(1) : '–').padStart(9)}   ${slowdownText(r).padStart(10)}`,
          ),
        );
        const reasons = [...new Set(solved.filter((r) => !r.responseTimeFinite).map((r) => r.infiniteReason))];
        for (const reason of reasons) {
          const which = solved.filter((r) => r.infiniteReason === reason).map((r) => r.provenance.model.discipline);
          lines.push(`  ∞ (${which.join(', ')}): ${reason}`);
        }
      } else {
        const r = solved[0];
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
