/** `supermarket fixed-point`: the mean-field fixed point, E[Q], E[T], the response-time ccdf, and the refined 1/n term. */
import { describeMemory } from '../../meanfield/memory/index.ts';
import { Command, Option } from 'commander';
import {
  checkServers,
  estimandFiniteness,
  infiniteOnlyAtFiniteN,
  meanFieldFiniteness,
  formatArrivals,
  formatMemory,
  policyName,
} from '../../model/index.ts';
import { heteroRefined, heteroRefinedRefusal } from '../../meanfield/hetero/refined.ts';
import {
  firstOrderTrust as orderOneTrust,
  refine,
  refinedEstimate,
  refineSecondOrder,
  responseTimeCcdf,
  secondOrderEstimate,
  secondOrderTrust,
  solveSqdFixedPoint,
} from '../../meanfield/index.ts';
import { InvalidModelError, SupermarketError } from '../../errors.ts';
import { isSqdModel, meanFieldCapabilities } from '../../meanfield/capabilities.ts';
import { meanQueueLengthUnit, solveMeanField } from '../../meanfield/solve.ts';
import { describeFitErrorOf, signedPercent } from '../../meanfield/phaseType/fitError.ts';
import { solveResponseTime, type ResponseTimeLaw } from '../../meanfield/responseTime.ts';
import type { SupermarketModel } from '../../model/index.ts';
import { timeUnit } from '../../model/service/index.ts';
import { oneInterval, percentileName } from '../../stats/index.ts';
import {
  addModelOptions,
  examples,
  modelAction,
  parsePositive,
  parsePositiveInteger,
  parseProbabilityList,
  refuseIdleOptions,
  type ModelFlags,
} from '../options.ts';
import { decimalText, intervalText, jsonOption, printJson } from '../output.ts';
import { VERSION, codeId } from '../../version.ts';
import { meanJson } from '../../io/index.ts';
import { createLateProgress } from '../progress.ts';

interface Opts extends ModelFlags {
  refined?: boolean;
  order?: number;
  n?: number;
  json?: boolean;
  method: 'closed-form' | 'newton';
  tailTolerance: number;
  ccdfTEnd: number;
  ccdfDt: number;
  phFit?: boolean;
  quantiles?: number[];
  ccdf?: boolean;
  progress: boolean;
}

export function fixedPointCommand(): Command {
  const cmd = new Command('fixed-point').description(
    'Fixed point of the SQ(d) mean-field ODE ds_i/dt = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) (theory.md §2).\n' +
      'With --refined, adds the Gast–Van Houdt 1/n term: E[Q_n] ≈ E[Q_∞] + ΣV/n (theory.md §6).\n' +
      'Other models get the strongest solver that exists, named in the output with its kind (exact, approximation,\n' +
      'cavity with CI): phase-type ODE for JSQ(d) FIFO, LWL(d) FPE, cavity methods for other disciplines, M/G/1\n' +
      'formulas for d = 1, the LPW cavity iteration on the law of predicted work for LPW(d) (an ansatz, theory.md §5).\n' +
      "Time is in the service law's units: mean service times unless --service sets a mean (exp@2: time units with\n" +
      "E[S] = 2, so E[T] = 2 is one mean service time); E[T] = E[Q]/λ by Little's law.",
  );
  addModelOptions(cmd)
    .addOption(
      new Option('--method <how>', 'closed form, or Newton on the truncated drift (the path for models without a closed form)')
        .choices(['closed-form', 'newton'])
        .default('closed-form'),
    )
    .option('--tail-tolerance <ε>', 'truncation: K is the first level with s_K* < ε', parsePositive, 1e-15)
    .option('--refined', 'add the refined mean-field correction for n servers (needs --n)')
    .option('--n <n>', 'number of servers for the refined correction (integer ≥ 1; implies --refined)', parsePositiveInteger)
    .addOption(
      new Option('--order <k>', 'refined expansion order: 1 (ΣV/n) or 2 (adds ΣA/n², Gast–Bortolussi–Tribastone 2019)')
        .choices(['1', '2'])
        .default('1'),
    )
    .option(
      '--ph-fit',
      'JSQ(d) FIFO with sizes that are not phase-type (weibull, lognormal): the two-moment phase-type fit (an approximation, its measured error stated) instead of the default JSQ cavity (an estimate with a CI)',
    )
    .option('--ccdf-t-end <t>', 'response-time ccdf P(T > t) is given on 0..t-end', parsePositive, 10)
    .option('--ccdf-dt <dt>', 'step of the ccdf grid', parsePositive, 0.5)
    .option(
      '--quantiles <p,…>',
      'response-time quantiles t_p of the mean field, each p in (0, 1), e.g. 0.5,0.95,0.99 (every solver with a response-time law; cavity solvers give CIs)',
      parseProbabilityList,
    )
    .option(
      '--ccdf',
      'give the response-time ccdf P(T > t) on the whole grid 0..--ccdf-t-end by --ccdf-dt (SQ(d) prints a summary at integer t without it)',
    )
    .option('--no-progress', 'no progress output on stderr (shown for solves that take more than a few seconds, e.g. the JSQ cavity)')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      examples([
        'supermarket fixed-point --lambda 0.9 --d 2',
        'supermarket fixed-point --lambda 0.9 --d 2 --refined --n 100 --json',
        'supermarket fixed-point --lambda 0.9 --d 2 --service erlang:2 --quantiles 0.5,0.95,0.99',
      ]),
    )
    .action(
      modelAction((model, o: Opts, cmd: Command) => {
        // which solver and refined terms the model has: the capability query's answer (meanfield/capabilities.ts)
        const capabilities = meanFieldCapabilities(model);
        // --n alone asks for the refined term (as --refined --n does); --order only picks its order
        refuseIdleOptions(cmd, [['--order', Boolean(o.refined) || o.n !== undefined, '--refined --n <servers>']]);
        refuseIdleSampling(cmd, model, Boolean(o.refined) || o.n !== undefined);
        if (o.phFit && !capabilities.phaseTypeFit.available) throw new InvalidModelError(`--ph-fit: ${capabilities.phaseTypeFit.reason}`);
        if (!isSqdModel(model)) {
          // the closed form's --method and its truncation --tail-tolerance belong to the SQ(d) fixed point
          const solver = `the solver here is ${capabilities.fixedPoint.available ? capabilities.fixedPoint.id : 'not the SQ(d) one'}; drop it`;
          refuseIdleOptions(cmd, [
            ['--method', false, 'the SQ(d) fixed point (JSQ(d), FIFO, exponential sizes)', solver],
            ['--tail-tolerance', false, 'the SQ(d) fixed point (JSQ(d), FIFO, exponential sizes)', solver],
          ]);
          // server speeds: the per-class ODE's own 1/n term (heteroRefined, theory.md §13), where the ODE answers the model
          const heteroOde =
            model.servers !== undefined && capabilities.fixedPoint.available && capabilities.fixedPoint.id === 'hetero-occupancy';
          // (with replacement only: without it the drift has its own 1/n terms, `heteroRefinedRefusal`)
          const heteroRefinable = heteroOde && heteroRefinedRefusal(model) === undefined;
          // PS/LAS with exponential sizes: FIFO's refined terms (the capability names them; `refine` runs on the twin)
          const throughFifo = capabilities.refined.firstOrder.available;
          if ((o.refined || o.n !== undefined) && (heteroRefinable || throughFifo)) {
            if (o.n === undefined) throw new InvalidModelError('--refined needs --n <servers>');
            if (Number(o.order) === 2 && !throughFifo)
              throw new InvalidModelError('--order 2: no 1/n² term with server speeds; use --order 1');
            if (Number(o.order) === 2 && !capabilities.refined.secondOrder.available)
              throw new InvalidModelError(`--order 2: ${capabilities.refined.secondOrder.reason}`);
            const n = checkServers(model, o.n);
            const refined = throughFifo ? fifoRefined(model, n, Number(o.order) === 2) : heteroRefinedAt(model, n);
            printGeneralSolution(
              model,
              o.service,
              Boolean(o.json),
              o.progress && !o.json,
              false,
              responseTimeRequest(model, o),
              capabilities.arrivalsNote,
              refined,
            );
            return;
          }
          if (o.refined || o.n !== undefined)
            throw new InvalidModelError(
              // the capability query's own reason (batches, redundancy, arrivals, speeds without replacement …) names what this model lacks
              !capabilities.refined.firstOrder.available
                ? `--refined: ${capabilities.refined.firstOrder.reason}`
                : '--refined is available for JSQ(d), FIFO, exponential service without memory only (theory.md §6)',
            );
          // only SQ(d) always prints the ccdf; elsewhere its grid acts with --ccdf alone (no setting dropped silently)
          refuseIdleOptions(cmd, [
            ['--ccdf-t-end', Boolean(o.ccdf), '--ccdf'],
            ['--ccdf-dt', Boolean(o.ccdf), '--ccdf'],
          ]);
          printGeneralSolution(
            model,
            o.service,
            Boolean(o.json),
            o.progress && !o.json,
            Boolean(o.phFit),
            responseTimeRequest(model, o),
            capabilities.arrivalsNote,
          );
          return;
        }
        const fp = solveSqdFixedPoint(model, { method: o.method, tailTolerance: o.tailTolerance });
        const steps = Math.floor(o.ccdfTEnd / o.ccdfDt + 1e-9);
        const times = Array.from({ length: steps + 1 }, (_, j) => j * o.ccdfDt);
        const ccdf = responseTimeCcdf(fp, model.d, times);
        const law = o.quantiles ? solveResponseTime(model, { quantiles: o.quantiles, times: [] }) : undefined;
        let refined:
          | {
              meanResponseTime: number;
              meanQueueLength: number;
              tail: number[];
              n: number;
              sumV: number;
              V: number[];
              trusted: boolean;
              caveat: string | null;
              secondOrder?: ReturnType<typeof secondOrderEstimate> & { sumA: number; A: number[]; trusted: boolean; caveat: string | null };
            }
          | undefined;
        if (o.refined || o.n !== undefined) {
          if (o.n === undefined) throw new InvalidModelError('--refined needs --n <servers>');
          const n = checkServers(model, o.n);
          const correction = refine(model, { fixedPoint: fp });
          refined = {
            n,
            sumV: correction.sumV,
            V: correction.V,
            ...refinedEstimate(correction, n),
            ...firstOrderTrust(correction.sumV, fp.meanQueueLength, n),
          };
          if (Number(o.order) === 2) {
            if (!capabilities.refined.secondOrder.available) throw new InvalidModelError(capabilities.refined.secondOrder.reason);
            const second = refineSecondOrder(model, { fixedPoint: fp });
            const trust = secondOrderTrust(second, n);
            refined.secondOrder = {
              sumA: second.sumA,
              A: second.A,
              ...secondOrderEstimate(second, n),
              trusted: trust.trusted,
              caveat: trust.caveat,
            };
          }
        }
        if (o.json) {
          printJson({
            model,
            policy: policyName(model),
            meanResponseTime: fp.meanResponseTime,
            meanQueueLength: fp.meanQueueLength,
            tail: fp.tail,
            truncationLevel: fp.truncationLevel,
            responseTimeCcdf: { times, ccdf },
            ...(law ? { responseTime: { solver: law.solver, kind: law.kind, source: law.source, quantiles: quantilesJson(law) } } : {}),
            ...(refined ? { refined } : {}),
            diagnostics: fp.diagnostics,
            provenance: fp.provenance,
          });
          return;
        }
        const lines = [
          `Mean field (n → ∞): ${policyName(model)}${o.service === 'exp' ? '' : `, service ${o.service}`}, λ = ${model.lambda}, fixed point ${fp.diagnostics.method} (residual ${fp.diagnostics.residual.toExponential(1)}, K = ${fp.truncationLevel})`,
          `  E[Q] = ${decimalText(fp.meanQueueLength, 6)} jobs per server`,
          `  E[T] = ${decimalText(fp.meanResponseTime, 6)} ${timeUnit(model.service)}`,
          `  s_i:  ${fp.tail
            .slice(0, 8)
            .map((s, i) => `s_${i}=${s.toPrecision(4)}`)
            .join('  ')}${fp.tail.length > 8 ? '  …' : ''}`,
          // the summary at integer t, or with --ccdf the whole grid the flags asked for
          ...(o.ccdf
            ? ccdfGridLines(times, ccdf)
            : [
                `  P(T > t): ${ccdfSummary(times, ccdf)
                  .map(([t, c]) => `t=${t}: ${c.toPrecision(3)}`)
                  .join('  ')}`,
              ]),
          ...(law ? [quantileLine(law)] : []),
        ];
        if (refined) {
          lines.push(
            `Refined mean field (Gast–Van Houdt), n = ${refined.n}, ${model.sampling}: ΣV = ${refined.sumV.toFixed(4)}`,
            `  E[Q_n] ≈ ${decimalText(refined.meanQueueLength, 6)}   E[T_n] ≈ ${refined.meanResponseTime.toFixed(6)}`,
          );
          if (refined.caveat) lines.push(`  caveat: ${refined.caveat}`);
          const so = refined.secondOrder;
          if (so) {
            lines.push(
              `  order 2 (+ ΣA/n², ΣA = ${so.sumA.toFixed(4)}): E[Q_n] ≈ ${decimalText(so.meanQueueLength, 6)}   E[T_n] ≈ ${so.meanResponseTime.toFixed(6)}`,
            );
            if (so.caveat) lines.push(`  caveat: ${so.caveat}`);
          }
        }
        process.stdout.write(`${lines.join('\n')}\n`);
      }),
    );
  return cmd;
}

/**
 * Refuses --sampling where fixed-point's output does not depend on it. Every mean-field limit here is one for both
 * samplings (the d draws are distinct as n → ∞: no solver of solveMeanField reads it); what reads it is the refined 1/n
 * terms (`refine`: SQ(d), and PS/LAS with exponential sizes through FIFO's; not the per-class term of server speeds)
 * and the note that E[T]_n = ∞ at every finite n while the limit is finite (with replacement all d draws may hit one
 * server: model/moments.ts `estimandFiniteness`, e.g. LWL(3) with pareto:1.5). A batch draws d distinct servers
 * whatever --sampling says (`refuseIdleSettings` refuses with-replacement there), so its model has one sampling.
 * @param refinedAsked whether --refined or --n asks for the 1/n term.
 * @throws {SupermarketError} one line (exit 2): the flag, why it has no effect, what to do.
 */
function refuseIdleSampling(cmd: Command, model: SupermarketModel, refinedAsked: boolean): void {
  if (cmd.getOptionValueSource('sampling') !== 'cli' || model.batch !== 1 || model.batchLaw !== undefined) return;
  const capabilities = meanFieldCapabilities(model);
  // server speeds: the per-class 1/n term answers with replacement only (`heteroRefinedRefusal`), so it reads the sampling
  const heteroOde = model.servers !== undefined && capabilities.fixedPoint.available && capabilities.fixedPoint.id === 'hetero-occupancy';
  const refinedReadsIt = capabilities.refined.firstOrder.available || heteroOde;
  if (refinedAsked && refinedReadsIt) return;
  const other: SupermarketModel = {
    ...model,
    sampling: model.sampling === 'with-replacement' ? 'without-replacement' : 'with-replacement',
  };
  if (finiteNNote(model) !== finiteNNote(other)) return;
  const limit = isSqdModel(model) ? 'the SQ(d) mean-field limit is' : `the mean-field limit of ${policyName(model)} is`;
  // speeds without replacement: the per-class 1/n term is refused there, so adding --refined --n would not help
  if (heteroOde && !capabilities.refined.firstOrder.available && heteroRefinedRefusal(model) !== undefined)
    throw new SupermarketError(
      `--sampling ${model.sampling} has no effect: ${limit} the same with and without replacement, and the 1/n term with server speeds is derived for sampling with replacement only (--refined is refused with it); drop it`,
    );
  if (refinedReadsIt)
    throw new SupermarketError(
      `--sampling acts only with --refined --n <servers>: ${limit} the same with and without replacement (only the 1/n terms differ); drop it or add --refined --n <servers>`,
    );
  throw new SupermarketError(
    `--sampling ${model.sampling} has no effect: ${limit} the same with and without replacement (the d draws are distinct as n → ∞), and no 1/n term or finite-n note of this model reads it; drop it`,
  );
}

/**
 * The note beside a finite limit that E[T]_n = ∞ at every finite n (model/moments.ts: with replacement all d draws may
 * hit one server), its reason; undefined where there is none (E[T]_n finite or not settled, or the limit not finite).
 */
function finiteNNote(model: SupermarketModel): string | undefined {
  const atN = estimandFiniteness(model).meanResponseTime;
  return !atN.finite && infiniteOnlyAtFiniteN(model) ? atN.reason : undefined;
}

/** The response-time law the flags ask for (quantiles and/or the ccdf grid), or undefined. @throws the capability's reason. */
function responseTimeRequest(model: SupermarketModel, o: Opts): ResponseTimeLaw | undefined {
  if (!o.quantiles && !o.ccdf) return undefined;
  const cap = meanFieldCapabilities(model).responseTime;
  if (!cap.available) throw new InvalidModelError(cap.reason);
  const steps = Math.floor(o.ccdfTEnd / o.ccdfDt + 1e-9);
  const times = o.ccdf ? Array.from({ length: steps + 1 }, (_, j) => j * o.ccdfDt) : [];
  // the law of a cavity model is a cavity solve of its own (minutes at high load): progress with ETA past a few seconds
  const bar = createLateProgress('fixed-point: response-time law', o.progress && !o.json);
  try {
    return solveResponseTime(model, {
      quantiles: o.quantiles ?? [],
      times,
      ...(o.phFit ? { phaseTypeFit: true } : {}),
      onProgress: (fraction, stage) => bar.update(fraction, stage),
    });
  } finally {
    bar.stop();
  }
}

/** The whole ccdf grid of --ccdf in text: a heading, then 8 points a line ("t=0.5: 0.934"). */
/**
 * The ccdf points SQ(d)'s text summary prints, at most 8: every round(1/dt)-th grid point (t = 0, 1, 2, … when --ccdf-dt
 * divides 1; --ccdf-dt 0.3: t = 0, 0.9, 1.8, …, labelled to 6 digits, where it printed t = 0.8999999999999999).
 * @returns [t, P(T > t)] pairs.
 */
function ccdfSummary(times: readonly number[], ccdf: readonly number[]): [number, number][] {
  const dt = times.length > 1 ? times[1] - times[0] : 1;
  const step = Math.max(1, Math.round(1 / dt));
  return times
    .map((t, j): [number, number] => [+t.toPrecision(6), ccdf[j]])
    .filter((_, j) => j % step === 0)
    .slice(0, 8);
}

function ccdfGridLines(times: readonly number[], ccdf: readonly number[]): string[] {
  const cells = times.map((t, j) => `t=${+t.toPrecision(6)}: ${ccdf[j].toPrecision(3)}`);
  const lines = [`  P(T > t) on ${times.length} points, t = ${+times[0].toPrecision(6)} … ${+times[times.length - 1].toPrecision(6)}:`];
  for (let k = 0; k < cells.length; k += 8) lines.push(`    ${cells.slice(k, k + 8).join('  ')}`);
  return lines;
}

/**
 * JSON of a law's quantiles, keyed by percentile name as `simulate --json` keys its percentiles ("p50", "p99", "p99.9":
 * `percentileName`), each { p, value } and, for estimates, the 95 % CI `ci95` [lo, hi] only: the interval inverts the
 * cdf and is not symmetric about t_p, so no `halfWidth` (`oneInterval`; the PH fit's reference estimate likewise).
 */
export function quantilesJson(law: ResponseTimeLaw) {
  return Object.fromEntries(
    law.quantiles.map((q) => [
      percentileName(q.p),
      {
        p: q.p,
        value: q.value,
        ...(q.estimate ? { ci95: q.estimate.ci95 } : {}),
        ...(q.measuredError
          ? { measuredError: { ...q.measuredError, referenceEstimate: oneInterval(q.measuredError.referenceEstimate) } }
          : {}),
      },
    ]),
  );
}

/** "  response time (solver, kind): p50 = 2.2019  p95 = …" with CIs for estimates. */
function quantileLine(law: ResponseTimeLaw): string {
  const cells = law.quantiles.map((q) => {
    const name = percentileName(q.p);
    const ci = q.estimate ? ` ${intervalText(q.estimate.ci95, 4)}` : '';
    const e = q.measuredError;
    const error = e
      ? ` (error ${signedPercent(e.low, 1)} to ${signedPercent(e.high, 1)}; reference ${e.referenceEstimate.mean.toFixed(4)} [${e.referenceEstimate.ci95[0].toFixed(4)}, ${e.referenceEstimate.ci95[1].toFixed(4)}])`
      : '';
    return `${name} = ${q.value.toFixed(6)}${ci}${error}`;
  });
  const reference = law.quantiles.find((q) => q.measuredError)?.measuredError?.reference;
  return `  response time (${law.solver}, ${law.kind}): ${cells.join('  ')}${reference ? `\n    quantile errors measured in this run against ${reference}` : ''}`;
}

/** Why E[T] is infinite in the limit (model/moments.ts `meanFieldFiniteness`), or a generic sentence when the rule does not say. */
function infiniteMeanReason(model: SupermarketModel): string {
  const f = meanFieldFiniteness(model);
  return f.finite ? 'E[T] = ∞ in theory (model/moments.ts)' : f.reason;
}

/** What `--refined --n` prints beside a general solution: E[T]_n ≈ E[T]∞ + c₁/n (+ c₂/n²) and where c₁ comes from. */
interface RefinedAtN {
  n: number;
  coefficient: number;
  meanResponseTime: number;
  meanQueueLength: number;
  truncationLevel: number;
  /** The term's origin, printed after the numbers. */
  source: string;
  /** Whether the 1/n term is small against the limit at n (`firstOrderTrust`), and the caveat when it is not. */
  trusted: boolean;
  caveat: string | null;
  secondOrder?: { coefficient: number; meanResponseTime: number; meanQueueLength: number; trusted: boolean; caveat: string | null };
}

/** The order-1 trust of a refined value at n (meanfield/refined.ts `firstOrderTrust`): `trusted` and the caveat. */
function firstOrderTrust(term: number, limit: number, n: number): { trusted: boolean; caveat: string | null } {
  const { trusted, caveat } = orderOneTrust(term, limit, n);
  return { trusted, caveat };
}

/** With server speeds: the per-class ODE's 1/n term (heteroRefined, theory.md §13). */
function heteroRefinedAt(model: SupermarketModel, n: number): RefinedAtN {
  const r = heteroRefined(model);
  return {
    n,
    coefficient: r.meanResponseTimeCoefficient,
    meanResponseTime: r.meanResponseTime + r.meanResponseTimeCoefficient / n,
    meanQueueLength: r.meanQueueLength + r.meanQueueLengthCoefficient / n,
    truncationLevel: r.truncationLevel,
    source: 'per-class ODE as a population model; theory.md §13',
    ...firstOrderTrust(r.meanResponseTimeCoefficient, r.meanResponseTime, n),
  };
}

/**
 * PS or LAS with exponential sizes: the refined terms of FIFO's queue lengths (`refine`, `refineSecondOrder` run on
 * the FIFO twin), E[T]_n by Little: c₁ = ΣV/λ, c₂ = ΣA/λ (theory.md §5, §6).
 */
function fifoRefined(model: SupermarketModel, n: number, second: boolean): RefinedAtN {
  const first = refine(model);
  const at = refinedEstimate(first, n);
  const base = {
    n,
    coefficient: first.sumV / model.lambda,
    meanResponseTime: at.meanResponseTime,
    meanQueueLength: at.meanQueueLength,
    truncationLevel: first.diagnostics.truncationLevel,
    source: `ΣV = ${first.sumV.toFixed(4)} of FIFO's queue lengths, which ${model.discipline.toUpperCase()} with exponential sizes shares; theory.md §5, §6`,
    ...firstOrderTrust(first.sumV, first.fixedPoint.meanQueueLength, n),
  };
  if (!second) return base;
  const so = refineSecondOrder(model, { fixedPoint: first.fixedPoint });
  const trust = secondOrderTrust(so, n);
  const { meanResponseTime, meanQueueLength } = secondOrderEstimate(so, n);
  return {
    ...base,
    secondOrder: { coefficient: so.sumA / model.lambda, meanResponseTime, meanQueueLength, trusted: trust.trusted, caveat: trust.caveat },
  };
}

/**
 * @param service the --service text, printed as given (as simulate does): the law in full, e.g. pareto:2.5, exp@2.
 * @param progress show the solve's progress on stderr once it has run a few seconds (--progress and not --json).
 */
function printGeneralSolution(
  model: SupermarketModel,
  service: string,
  json: boolean,
  progress: boolean,
  phaseTypeFit: boolean,
  law: ResponseTimeLaw | undefined,
  arrivalsNote: string | undefined,
  refined?: RefinedAtN,
): void {
  // a cavity solve and its fallback take minutes on hard models (weibull:0.2 at λ = 0.99): progress with ETA past 3 s
  const bar = createLateProgress('fixed-point', progress);
  let s: ReturnType<typeof solveMeanField>;
  try {
    s = solveMeanField(model, { phaseTypeFit, onProgress: (fraction, stage) => bar.update(fraction, stage) });
  } finally {
    bar.stop();
  }
  // an infinite mean (e.g. M/G/1 FIFO with E[S²] = ∞) as the finiteness rule has it: ∞ (reason) in text, in JSON the
  // ∞ object with responseTimeFinite: false and the reason, as mg1 gives it (model/moments.ts, README "A mean that is infinite")
  const infiniteReason = Number.isFinite(s.meanResponseTime) ? undefined : infiniteMeanReason(model);
  // a finite limit beside E[T]_n = ∞ at every n (with replacement, all d draws on one server: model/moments.ts)
  const finiteN = infiniteReason === undefined ? finiteNNote(model) : undefined;
  const e = s.measuredError;
  const measured = e
    ? `  ${describeFitErrorOf(s.meanResponseTime, e).replace('measured error', 'measured error of this fit:')}`
    : undefined;
  if (json) {
    printJson({
      model,
      policy: policyName(model),
      // an infinite mean is the ∞ object { mean: null, infinite: true, reason } (io/jsonText.ts, README "JSON formats")
      meanResponseTime: meanJson(s.meanResponseTime, infiniteReason ?? infiniteMeanReason(model)),
      ...(infiniteReason !== undefined ? { responseTimeFinite: false, infiniteReason } : {}),
      ...(s.estimate ? { estimate: s.estimate } : {}),
      ...(s.meanQueueLength !== undefined
        ? { meanQueueLength: meanJson(s.meanQueueLength, infiniteReason ?? infiniteMeanReason(model)) }
        : {}),
      ...(s.tail ? { tail: s.tail } : {}),
      solver: s.solver,
      kind: s.kind,
      source: s.source,
      // the estimate kinds: E[Q]'s interval beside E[T]'s (`estimate`), λ times it by Little's law
      ...(s.meanQueueLengthEstimate ? { meanQueueLengthEstimate: s.meanQueueLengthEstimate } : {}),
      ...(s.numericalError !== undefined ? { numericalError: s.numericalError } : {}),
      ...(e ? { measuredError: e } : {}),
      ...(s.note ? { note: s.note } : {}),
      ...(finiteN !== undefined ? { finiteNInfinite: finiteN } : {}),
      convergence: s.convergence,
      provenance: { version: VERSION, code: codeId() },
      // the memory as --memory takes it (jiq's unbounded memory is the selection's, --memory none), and its capacity in ids
      ...(s.reduction
        ? {
            reduction: {
              ...s.reduction,
              memory: formatMemory(model.memory),
              capacity: Number.isFinite(s.reduction.memory.capacity) ? s.reduction.memory.capacity : 'unbounded',
            },
          }
        : {}),
      ...(s.classes ? { classes: s.classes } : {}),
      ...(refined ? { refined } : {}),
      ...(s.redundancy ? { redundancy: s.redundancy } : {}),
      ...(law
        ? {
            responseTime: {
              solver: law.solver,
              kind: law.kind,
              source: law.source,
              quantiles: quantilesJson(law),
              ...(law.times.length > 0
                ? { ccdf: { times: law.times, ccdf: law.ccdf, ...(law.ccdfCi95 ? { ci95: law.ccdfCi95 } : {}) } }
                : {}),
              ...(law.jobs !== undefined ? { jobs: law.jobs, units: law.units } : {}),
              ...(law.measuredError ? { measuredError: law.measuredError } : {}),
              ...(law.ccdfMeasuredError !== undefined ? { ccdfMeasuredError: law.ccdfMeasuredError } : {}),
            },
          }
        : {}),
      ...(arrivalsNote !== undefined ? { arrivalsNote } : {}),
    });
    return;
  }
  const ci = s.estimate ? `  95% CI [${s.estimate.ci95[0].toFixed(4)}, ${s.estimate.ci95[1].toFixed(4)}]` : '';
  process.stdout.write(
    [
      `Mean field (n → ∞): ${policyName(model)}, service ${service}${model.arrivals.kind === 'exponential' ? '' : `, arrivals ${formatArrivals(model.arrivals)}`}, λ = ${model.lambda}`,
      `  solver: ${s.solver} (${s.kind}); ${s.source}`,
      infiniteReason !== undefined
        ? `  E[T] = ∞ (${infiniteReason})`
        : `  E[T] = ${s.meanResponseTime.toFixed(6)} ${timeUnit(model.service)}${ci}${s.numericalError ? `  (numerical error ≈ ${s.numericalError.toExponential(1)})` : ''}`,
      ...(measured ? [measured] : []),
      ...(s.note ? [`  note: ${s.note}`] : []),
      // the limit is finite while every finite n is not (with replacement): said beside it, as simulate says the ∞
      ...(finiteN !== undefined ? [`  note: E[T]_n = ∞ at every finite n (${finiteN}): E[T]_n does not converge to this limit`] : []),
      ...(s.meanQueueLength !== undefined ? [`  E[Q] = ${decimalText(s.meanQueueLength, 6)} ${meanQueueLengthUnit(s)}`] : []),
      ...(s.redundancy
        ? [
            `  busy fraction F̄(0) = ${s.redundancy.busyFraction.toFixed(6)}, work per job E[W] = ${s.redundancy.workPerJob.toFixed(6)} (E[S] = ${model.service.mean}), stable for λ < λ_max = ${s.redundancy.lambdaMax.toFixed(6)}`,
          ]
        : []),
      // (after E[Q] for the estimate kinds, which have no redundancy lines)
      ...(s.meanQueueLengthEstimate
        ? [`  E[Q] 95% CI ${intervalText(s.meanQueueLengthEstimate.ci95, 4)} (λ × the interval of E[T], Little's law)`]
        : []),
      `  convergence: ${s.convergence.converged ? 'converged' : 'NOT converged'}${s.convergence.iterations !== undefined ? `, ${s.convergence.iterations} iteration${s.convergence.iterations === 1 ? '' : 's'}` : ''}${s.convergence.residual !== undefined ? `, residual ${s.convergence.residual.toExponential(2)}` : ''}`,
      ...(s.reduction
        ? [
            `  memory ${describeMemory(s.reduction.memory)}: π₀ = ${s.reduction.pi0.toPrecision(6)} (memory empty at an arrival), reduced rate ${model.selection === 'jiq' ? 'λπ₀ (jiq samples no servers: d = 1)' : `λπ₀^(1/${model.d})`} = ${s.reduction.reducedLambda.toPrecision(6)}, probes per arrival (ISM messages counted) ${s.reduction.probesPerArrival.toPrecision(4)}`,
          ]
        : []),
      ...(s.classes
        ? [
            `  per class (speed, fraction)   busy fraction   E[T] of its jobs   share of jobs`,
            ...s.classes.map(
              (c, k) =>
                `  class ${k + 1} (${c.speed}, ${c.fraction})`.padEnd(32) +
                c.busyFraction.toFixed(6).padEnd(16) +
                c.meanResponseTime.toFixed(6).padEnd(19) +
                c.jobShare.toFixed(6),
            ),
          ]
        : []),
      ...(refined
        ? [
            `  refined (n = ${refined.n}): E[T]_n ≈ E[T]∞ + c₁/n = ${refined.meanResponseTime.toFixed(6)}, c₁ = ${refined.coefficient.toFixed(6)} (K = ${refined.truncationLevel}; ${refined.source})`,
            ...(refined.caveat ? [`  caveat: ${refined.caveat}`] : []),
            ...(refined.secondOrder
              ? [
                  `  order 2: E[T]_n ≈ E[T]∞ + c₁/n + c₂/n² = ${refined.secondOrder.meanResponseTime.toFixed(6)}, c₂ = ${refined.secondOrder.coefficient.toFixed(6)}`,
                  ...(refined.secondOrder.caveat ? [`  caveat: ${refined.secondOrder.caveat}`] : []),
                ]
              : []),
          ]
        : []),
      ...(law && law.quantiles.length > 0 ? [quantileLine(law)] : []),
      ...(law && law.times.length > 0
        ? [
            ...ccdfGridLines(law.times, law.ccdf),
            ...(law.ccdfMeasuredError !== undefined
              ? [`    ccdf error: at most ${law.ccdfMeasuredError.toPrecision(2)} outside the reference's 95 % band (measured in this run)`]
              : []),
          ]
        : []),
      ...(arrivalsNote !== undefined ? [`  note: ${arrivalsNote}`] : []),
    ].join('\n') + '\n',
  );
}
