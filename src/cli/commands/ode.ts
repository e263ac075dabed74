/** `supermarket ode`: the SQ(d) mean-field transient s_i(t) on a time grid (odex), as text, JSON or CSV. */
import { isJiq, modelHasMemory, NO_MEMORY } from '../../model/memory.ts';
import { formatArrivals } from '../../model/arrivals.ts';
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { stringify } from 'csv-stringify/sync';
import {
  fifoQueueLengthTwin,
  firstOrderTrust,
  meanFieldCapabilities,
  refinedTransient,
  refinedTransientAt,
  solveMeanFieldTransient,
  type MeanFieldTransientOptions,
  sqdClosedFormTail,
  sqdParameters,
  sqdTruncationLevel,
  type RefinedTransientResult,
  type TransientResult,
} from '../../meanfield/index.ts';
import { checkServers, load, policyName, unknownPolicy, type SupermarketModel } from '../../model/index.ts';
import { createLateProgress, createProgress } from '../progress.ts';
import { action } from '../errors.ts';
import {
  TRANSIENT_PROGRESS_WORK,
  checkTransientTop,
  lwlTransientWork,
  noFixedPoint,
  memoryTransientWork,
  phaseTypeTransientWork,
  sqdTransientLevels,
  transientModelFromFlags,
} from '../overload.ts';
import { ConvergenceError, InvalidModelError, PathError } from '../../errors.ts';
import {
  inFile,
  addModelOptions,
  examples,
  parseNumberSequence,
  parsePositive,
  parsePositiveInteger,
  refuseIdleOptions,
  refuseIdleSettings,
  type ModelFlags,
} from '../options.ts';
import { jsonOption, printJson } from '../output.ts';

interface Opts extends ModelFlags {
  tEnd: number;
  dt: number;
  from?: number[];
  tolerance: number;
  levels: number;
  json?: boolean;
  csv?: boolean;
  refined?: boolean;
  n?: number;
  init?: string;
  untilSteady?: boolean;
  tol: number;
  progress: boolean;
}

export function odeCommand(): Command {
  const cmd = new Command('ode').description(
    'Integrates ds_i/dt = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) with odex (Hairer–Wanner extrapolation), ' +
      'sampling the dense output at t = 0, dt, 2dt, …, t-end; the solver outcome is checked and a failure is an error. ' +
      'JSQ(d) FIFO with other size laws integrates the phase-type ODE (theory.md §3; exact for Erlang and hyperexponential, ' +
      'a two-moment fit otherwise); LWL(d) integrates the workload PIDE (theory.md §4) and prints the busy fraction and mean workload. ' +
      'At a load ρ ≥ 1 there is no fixed point, but the SQ(d) transient exists and is integrated over the horizon (as model --transient does).',
  );
  addModelOptions(cmd)
    .option(
      '--t-end <t>',
      'final time (mean service times); required unless --until-steady, where it caps the run (default 1e5)',
      parsePositive,
    )
    .requiredOption('--dt <dt>', 'output step', parsePositive)
    .option(
      '--from <s1,s2,...>',
      'initial tail fractions s_1, s_2, … (non-increasing in [0, 1]); default: empty system',
      parseNumberSequence,
    )
    .option('--tolerance <ε>', 'odex relative and absolute tolerance', parsePositive, 1e-10)
    .option(
      '--refined',
      'add the refined 1/n term: E[s(t)] ≈ s(t) + V(t)/n (linearised V, W system next to the ODE; exponential JSQ(d) only; needs --n)',
    )
    .option('--n <n>', 'servers for --refined (an integer ≥ 1)', parsePositiveInteger)
    .option('--levels <k>', 'levels shown in text output', parsePositiveInteger, 5)
    .addOption(jsonOption().conflicts('csv'))
    .option('--csv', 'print CSV (t, E[Q], s_0, s_1, …) on stdout')
    // initial state and time to steady state (SQ(d) ODE; see initialTail and runUntilSteady below)
    .option(
      '--init <state>',
      'initial state: empty | fixed-point | FILE (JSON array s_0, s_1, … with s_0 = 1, or CSV: ' +
        'numbers, or ode --csv output, whose last row is used)',
    )
    .option('--until-steady', 'integrate until max_i |s_i(t) − s_i*| ≤ --tol (s* the closed-form fixed point) and report that time')
    .option('--tol <ε>', 'distance to the fixed point counted as steady, for --until-steady', parsePositive, 1e-6)
    .option('--no-progress', 'no progress output on stderr (shown for transients that take more than a few seconds)')
    .addHelpText(
      'after',
      examples([
        'supermarket ode --lambda 0.9 --d 2 --t-end 50 --dt 0.5 --csv > transient.csv',
        'supermarket ode --lambda 0.9 --d 2 --t-end 20 --dt 1 --from 1,0.9,0.5',
        'supermarket ode --lambda 0.9 --d 2 --t-end 50 --dt 5 --refined --n 100',
      ]),
    )
    .action(
      action((o: Opts, cmd: Command) => {
        // a load ρ ≥ 1 has no fixed point but a transient (overload.ts, the rule `model --transient` follows too)
        const { model, overloaded } = transientModelFromFlags(o);
        if (modelHasMemory(model)) refuseMemoryFlags(o);
        refuseIdleOptions(cmd, [
          ['--tol', Boolean(o.untilSteady), '--until-steady'],
          ['--levels', !o.json && !o.csv, 'text output', 'JSON and CSV give every level; drop it or drop --json/--csv'],
        ]);
        refuseIdleSettings(cmd, model);
        if (overloaded) refuseOverloaded(model, o);
        // renewal arrivals: the n → ∞ transient is the Poisson model's; said on stderr, as fixed-point says it (theory.md §14)
        const arrivalsNote = model.arrivals.kind === 'exponential' ? undefined : meanFieldCapabilities(model).arrivalsNote;
        if (arrivalsNote !== undefined && meanFieldCapabilities(model).transient.available) process.stderr.write(`note: ${arrivalsNote}\n`);
        // an output step past the horizon prints t = 0 and t-end alone, whatever --dt asked (and caps --until-steady at once)
        if (o.tEnd !== undefined && o.dt > o.tEnd)
          throw new InvalidModelError(`--dt ${o.dt} exceeds --t-end ${o.tEnd}: the output step must be ≤ the horizon`);
        const init = initialTail(model, o);
        if (o.untilSteady) {
          runUntilSteady(model, init, o);
          return;
        }
        if (o.tEnd === undefined) cmd.error("error: required option '--t-end <t>' not specified (or give --until-steady)");
        const steps = Math.floor(o.tEnd / o.dt + 1e-9); // the grid never passes t-end; t-end itself is appended below
        if (steps > 1e6) throw new InvalidModelError(`t-end/dt = ${steps} output points; use a coarser --dt (at most 1e6 points)`);
        const times = Array.from({ length: steps + 1 }, (_, j) => Number((j * o.dt).toPrecision(12)));
        if (times[times.length - 1] < o.tEnd - 1e-9 * o.tEnd) times.push(o.tEnd);
        const from = init;
        // the transient solver is the capability query's (meanfield/capabilities.ts); ode only checks its own flags
        const transient = meanFieldCapabilities(model).transient;
        if (!transient.available) throw new InvalidModelError(transient.reason);
        const solver = transient.id;
        if (solver !== 'sqd-ode' && from)
          throw new InvalidModelError(
            solver === 'lwl-pide'
              ? '--from and --init set queue-length fractions; the LWL(d) transient starts from an empty system'
              : solver === 'hetero-occupancy-ode'
                ? '--from and --init set one tail for all servers; the per-class occupancy transient (--speeds) starts from an empty system'
                : '--from and --init (tail fractions) apply to exponential sizes; the phase-type transient starts from an empty system',
          );
        if (o.refined || o.n !== undefined) {
          const refined = meanFieldCapabilities(model).refined.firstOrder;
          if (solver === 'lwl-pide' || !refined.available)
            throw new InvalidModelError(
              model.arrivals.kind !== 'exponential'
                ? `--refined: the refined terms are derived for Poisson arrivals, not arrivals ${formatArrivals(model.arrivals)} (theory.md §14)`
                : `--refined: ${refined.available ? 'the LWL(d) workload PIDE has no refined term' : refined.reason}; use \`supermarket model FILE --transient\` for population models`,
            );
          if (o.n === undefined) throw new InvalidModelError('--refined needs --n <servers> (an integer ≥ 1)');
          checkServers(model, o.n); // d ≤ n, the rule of fixed-point --refined, simulate and exact
          printRefinedTransient(model, times, from, o);
          return;
        }
        switch (solver) {
          case 'lwl-pide':
            printLwlTransient(model, times, o);
            return;
          case 'sqd-ode': {
            // the SQ(d) ODE at any load, held to the simulations' budget before anything is integrated (overload.ts), with
            // progress when it takes more than a few seconds; at ρ ≥ 1 no fixed point sizes the truncation: K from the horizon
            const { K, levels, work } = sqdTransientLevels(model, times, from);
            const label = K !== undefined ? `K = ${K} levels` : `K ≤ ${levels} levels`;
            const tr = withProgress(
              o,
              work,
              (onProgress) => tailTransient(model, times, { from, tolerance: o.tolerance, truncationLevel: K, onProgress }),
              label,
            );
            if (K !== undefined) checkTransientTop(tr.times, (j) => ({ name: `s_${K}`, value: tr.tail[j][K] }), '');
            printTailTransient(model, tr, o);
            return;
          }
          case 'phase-type-ode': {
            const work = phaseTypeTransientWork(model, times); // refused here when over the simulations' budget (overload.ts)
            // a two-moment fit answers a nearby model: its measured error is stated (capabilities.ts, phaseType/fitError.ts)
            if (transient.kind === 'approximation') process.stderr.write(`note: ${transient.name} (approximation); ${transient.source}\n`);
            printTailTransient(
              model,
              withProgress(o, work, (onProgress) => tailTransient(model, times, { tolerance: o.tolerance, onProgress })),
              o,
            );
            return;
          }
          case 'batch-ode':
            // batches of K (theory.md §15): the SQ(d,K) or BSQ tail ODE from an empty system
            if (from) throw new InvalidModelError('--from applies to the SQ(d) ODE; the batch transient starts from an empty system');
            // no work estimate sizes these ODEs beforehand: progress once the run has taken a few seconds
            printTailTransient(
              model,
              withLateProgress(o, (onProgress) => tailTransient(model, times, { tolerance: o.tolerance, onProgress })),
              o,
            );
            return;
          case 'hetero-occupancy-ode':
            // server classes (theory.md §13): the mixture tail Σ f_c s_{c,k} per instant (the classes' own in the JSON)
            printTailTransient(
              model,
              withLateProgress(o, (onProgress) => tailTransient(model, times, { tolerance: o.tolerance, onProgress })),
              o,
            );
            return;
          case 'memory-cavity-ode': {
            const work = memoryTransientWork(model, times); // refused here when over the simulations' budget (overload.ts)
            printTailTransient(
              model,
              withProgress(o, work, (onProgress) => tailTransient(model, times, { from, tolerance: o.tolerance, onProgress })),
              o,
            );
            return;
          }
          case 'memory-phase-type-ode':
            // the phase-type ODE with the memory's routing: the work of the same ODE without memory (an upper bound on K)
            if (from)
              throw new InvalidModelError(
                '--from applies to exponential sizes; the phase-type memory transient starts from an empty system',
              );
            printTailTransient(
              model,
              withProgress(o, phaseTypeTransientWork(memoryFreeTwin(model), times), (onProgress) =>
                tailTransient(model, times, { tolerance: o.tolerance, onProgress }),
              ),
              o,
            );
            return;
          case 'memory-lwl-pide':
            printLwlTransient(model, times, o);
            return;
          default:
            unknownPolicy(solver, 'transient solver');
        }
      }),
    );
  return cmd;
}

/**
 * Runs a transient with a progress bar (ETA) on stderr when its work is over TRANSIENT_PROGRESS_WORK event-equivalents
 * (a few seconds) and neither --json nor --no-progress is given; the bar stops however the run ends. `label` is shown
 * beside the bar (e.g. the SQ(d) truncation level).
 */
function withProgress<T>(o: Opts, work: number, run: (onProgress: (fraction: number) => void) => T, label = ''): T {
  const progress = createProgress('ode', o.progress && !o.json && work > TRANSIENT_PROGRESS_WORK);
  try {
    return run((fraction) => progress.update(fraction, 1, label));
  } finally {
    progress.stop();
  }
}

/**
 * Runs a transient whose work is not known beforehand (batch and per-class ODEs) and shows the progress bar once it
 * has run for LATE_PROGRESS_MS (progress.ts `createLateProgress`), unless --json or --no-progress; the bar stops however
 * the run ends.
 */
function withLateProgress<T>(o: Opts, run: (onProgress: (fraction: number) => void) => T): T {
  const progress = createLateProgress('ode', o.progress && !o.json);
  try {
    return run((fraction) => progress.update(fraction));
  } finally {
    progress.stop();
  }
}

/**
 * With a dispatcher memory the transient is the SQ(d) cavity ODE of Hellemans (2021, ch. 6, Prop. trans; theory.md §12),
 * from --from or empty: --init, --until-steady and --refined act on the SQ(d) ODE without memory and are refused.
 */
function refuseMemoryFlags(o: Opts): void {
  for (const [flag, given] of [
    ['--init', o.init !== undefined],
    ['--until-steady', Boolean(o.untilSteady)],
    ['--refined', Boolean(o.refined) || o.n !== undefined],
  ] as const) {
    if (given)
      throw new InvalidModelError(`${flag} is not available with --memory: the memory transient is the cavity ODE from --from or empty`);
  }
}

/** The model without its dispatcher memory (the same grid and truncation bound the memory transients' work). */
const memoryFreeTwin = (model: SupermarketModel): SupermarketModel =>
  isJiq(model.selection) ? { ...model, selection: 'random', d: 1, memory: NO_MEMORY } : { ...model, memory: NO_MEMORY };

/** LWL(d) transient from empty: busy fraction P(U > 0) and E[U] from the mass-conserving PIDE scheme (theory.md §4). */
function printLwlTransient(model: SupermarketModel, times: number[], o: Opts): void {
  if (o.from || (o.init && o.init !== 'empty'))
    throw new InvalidModelError('--from and --init set queue-length fractions; the LWL(d) transient starts from an empty system');
  const work = lwlTransientWork(memoryFreeTwin(model), times); // refused here when over the simulations' budget (overload.ts)
  const r = withProgress(o, work, (onProgress) => solveMeanFieldTransient(model, times, { onProgress }));
  if (r.solver !== 'lwl-pide' && r.solver !== 'memory-lwl-pide')
    throw new InvalidModelError(`internal error: expected the LWL(d) workload PIDE, got ${r.solver}`);
  const tr = r.result;
  if (o.json) {
    printJson({
      policy: policyName(model),
      model,
      times: tr.times,
      busyFraction: tr.busyFraction,
      meanWorkload: tr.meanWorkload,
      quantiles: tr.quantiles,
      diagnostics: tr.diagnostics,
      provenance: tr.provenance,
    });
  } else if (o.csv) {
    process.stdout.write(
      stringify(
        tr.times.map((t, j) => [t, tr.busyFraction[j], tr.meanWorkload[j]]),
        { header: true, columns: ['t', 'busyFraction', 'meanWorkload'] },
      ),
    );
  } else {
    const body = tr.times.map(
      (t, j) => `${t.toFixed(3).padStart(10)} ${tr.busyFraction[j].toFixed(6).padStart(12)} ${tr.meanWorkload[j].toFixed(6).padStart(12)}`,
    );
    process.stdout.write(`${'t'.padStart(10)} ${'P(U > 0)'.padStart(12)} ${'E[U]'.padStart(12)}\n${body.join('\n')}\n`);
  }
}

/**
 * At a load ρ ≥ 1: refuses what needs the fixed point (--until-steady, --init fixed-point) and the transients whose
 * truncation is sized from it (phase-type, LWL(d) workload, --refined); the SQ(d) ODE itself runs.
 */
function refuseOverloaded(model: SupermarketModel, o: Opts): void {
  const rho = `load ρ = λ·E[S] = ${load(model)} ≥ 1`;
  if (o.untilSteady) throw noFixedPoint(rho, '--until-steady');
  if (o.init === 'fixed-point') throw noFixedPoint(rho, '--init fixed-point');
  if (!isSqd(model) || o.refined || o.n !== undefined)
    throw new InvalidModelError(
      `${rho}: there is no fixed point, and at such a load ode integrates only the SQ(d) ODE (JSQ(d), FIFO, exponential sizes, ` +
        'without --refined), whose truncation it sizes from the horizon',
    );
}

/** Whether the model's transient is the SQ(d) ODE (JSQ(d), FIFO, exponential sizes), the one --init and --until-steady cover. */
const isSqd = (model: SupermarketModel) => {
  const transient = meanFieldCapabilities(model).transient;
  return transient.available && transient.id === 'sqd-ode';
};

/** A transient in tail fractions (SQ(d) or phase-type ODE) by the one transient entry, solveMeanFieldTransient. */
function tailTransient(model: SupermarketModel, times: number[], options: MeanFieldTransientOptions): TransientResult {
  const r = solveMeanFieldTransient(model, times, options);
  if (r.solver === 'lwl-pide' || r.solver === 'memory-lwl-pide')
    throw new InvalidModelError('internal error: the LWL(d) transient has no tail fractions');
  return r.result;
}

/** The closed-form fixed point s_0..s_K* of the SQ(d) ODE (K*: first level below 1e−15; theory.md §2). */
function sqdFixedPointTail(model: SupermarketModel): number[] {
  // PS/LAS with exponential sizes: FIFO's queue-length process (meanFieldCapabilities names the SQ(d) ODE)
  const { rho, d } = sqdParameters(fifoQueueLengthTwin(model) ?? model);
  return sqdClosedFormTail(rho, d, sqdTruncationLevel(rho, d, 1e-15));
}

/** Tail fractions read from --init FILE: a JSON array, ode --csv output (its last row's s_i columns) or plain numbers. */
function readTailFile(file: string): number[] {
  let text: string;
  inFile(`--init ${file}`, file);
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PathError(`--init ${file}: cannot read the file (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))})`);
  }
  let values: unknown[];
  const trimmed = text.trim();
  // JSON by its first character or its name (a broken {"lambda": … file is JSON gone wrong, not a list of numbers)
  if (/^[[{"]/.test(trimmed) || /\.json$/i.test(file)) {
    try {
      values = JSON.parse(trimmed) as unknown[];
    } catch (error) {
      throw new InvalidModelError(
        `--init ${file}: not valid JSON (${(error as Error).message}); expected an array of tail fractions s_0, s_1, …`,
      );
    }
    if (!Array.isArray(values)) throw new InvalidModelError(`--init ${file}: expected a JSON array of tail fractions s_0, s_1, …`);
  } else {
    const lines = trimmed.split(/\r?\n/).filter((l) => l.trim() !== '');
    const header = lines[0]?.split(',').map((h) => h.trim()) ?? [];
    if (header.some((h) => /^s_\d+$/.test(h))) {
      const last = lines[lines.length - 1].split(',');
      values = header.flatMap((h, k) => (/^s_\d+$/.test(h) ? [last[k]] : []));
    } else {
      values = trimmed.split(/[\s,]+/);
    }
    values = values.map((v) => (typeof v === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v.trim()) ? Number(v) : v));
  }
  if (values.length === 0) throw new InvalidModelError(`--init ${file}: no tail fractions`);
  values.forEach((v, i) => {
    if (typeof v !== 'number' || !(v >= 0 && v <= 1))
      throw new InvalidModelError(`--init ${file}: s_${i} must be a number in [0, 1], got ${JSON.stringify(v)}`);
    if (i === 0 && v !== 1) throw new InvalidModelError(`--init ${file}: s_0 must be 1 (every server has ≥ 0 jobs), got ${v}`);
    if (i > 0 && v > (values[i - 1] as number))
      throw new InvalidModelError(
        `--init ${file}: tail fractions must be non-increasing, but s_${i} = ${v} > s_${i - 1} = ${values[i - 1] as number}`,
      );
  });
  return values as number[];
}

/** The initial tail s_0..s_K of --from or --init (undefined: empty system). */
function initialTail(model: SupermarketModel, o: Opts): number[] | undefined {
  if (o.from && o.init) throw new InvalidModelError('give either --from or --init, not both');
  if (o.from) return [1, ...o.from];
  if (o.init === undefined || o.init === 'empty') return undefined;
  if (!isSqd(model) && model.selection !== 'lwl') {
    throw new InvalidModelError(
      `--init applies to the SQ(d) ODE (JSQ(d), FIFO, exponential sizes); the ${model.servers ? 'per-class occupancy (--speeds)' : 'phase-type'} transient starts from an empty system`,
    );
  }
  if (o.init === 'fixed-point') {
    if (!isSqd(model)) throw new InvalidModelError('--init fixed-point applies to the SQ(d) ODE (JSQ(d), FIFO, exponential sizes)');
    return sqdFixedPointTail(model);
  }
  return readTailFile(o.init);
}

/**
 * --until-steady: integrates the SQ(d) ODE on the --dt grid, in chunks, until the first grid time with
 * max_i |s_i(t) − s_i*| ≤ --tol (s* closed form); prints the path up to it and that time (resolution dt).
 * Started within --tol (e.g. --init fixed-point) it returns at once with the initial, closed-form state.
 * @throws {ConvergenceError} when the distance is still above --tol at the cap (--t-end, default 1e5).
 */
function runUntilSteady(model: SupermarketModel, from: number[] | undefined, o: Opts): void {
  if (!isSqd(model)) throw new InvalidModelError('--until-steady applies to the SQ(d) ODE (JSQ(d), FIFO, exponential sizes)');
  const star = sqdFixedPointTail(model);
  const distance = (tail: readonly number[]) => {
    let m = 0;
    for (let i = 0; i < Math.max(tail.length, star.length); i++) m = Math.max(m, Math.abs((tail[i] ?? 0) - (star[i] ?? 0)));
    return m;
  };
  const cap = o.tEnd ?? 1e5;
  const start = from ?? [1];
  const times: number[] = [0];
  const tails: number[][] = [start];
  let reached = distance(start) <= o.tol ? 0 : NaN;
  let state = start;
  let t = 0;
  const chunk = 200;
  while (Number.isNaN(reached) && t < cap) {
    const grid = Array.from({ length: chunk + 1 }, (_, j) => Number((t + j * o.dt).toPrecision(12))).filter((x, j) => j === 0 || x <= cap);
    if (grid.length < 2) break;
    const tr = tailTransient(model, grid, { from: state, tolerance: o.tolerance });
    for (let j = 1; j < grid.length; j++) {
      times.push(grid[j]);
      tails.push(tr.tail[j]);
      if (distance(tr.tail[j]) <= o.tol) {
        reached = grid[j];
        break;
      }
    }
    state = tails[tails.length - 1];
    t = times[times.length - 1];
  }
  const last = distance(tails[tails.length - 1]);
  if (Number.isNaN(reached))
    throw new ConvergenceError(
      `the SQ(d) ODE is not within --tol ${o.tol} of the fixed point by t = ${t}; raise --t-end or --tol`,
      last,
      times.length - 1,
    );
  const meanQueueLength = tails.map((s) => s.slice(1).reduce((a, b) => a + b, 0));
  const steady = { time: reached, tolerance: o.tol, distance: last, resolution: o.dt, init: o.init ?? (o.from ? 'from' : 'empty') };
  if (o.json) {
    printJson({ policy: policyName(model), model, steady, times, meanQueueLength, tail: tails, fixedPoint: star });
  } else if (o.csv) {
    const K = Math.max(...tails.map((s) => s.length));
    const columns = ['t', 'meanQueueLength', ...Array.from({ length: K }, (_, i) => `s_${i}`)];
    process.stdout.write(
      stringify(
        tails.map((s, j) => [times[j], meanQueueLength[j], ...Array.from({ length: K }, (_, i) => s[i] ?? 0)]),
        { header: true, columns },
      ),
    );
  } else {
    const k = o.levels;
    const head = ['t'.padStart(10), 'E[Q]'.padStart(10), ...Array.from({ length: k }, (_, i) => `s_${i + 1}`.padStart(10))].join(' ');
    const body = tails.map((s, j) =>
      [
        times[j].toFixed(3).padStart(10),
        meanQueueLength[j].toFixed(6).padStart(10),
        ...Array.from({ length: k }, (_, i) => (s[i + 1] ?? 0).toFixed(6).padStart(10)),
      ].join(' '),
    );
    process.stdout.write(
      `${head}\n${body.join('\n')}\n` +
        `steady: max_i |s_i(t) − s_i*| = ${last.toExponential(2)} ≤ ${o.tol} at t = ${reached} (first grid time; resolution dt = ${o.dt})\n`,
    );
  }
}

/** SQ(d) transient with its refined 1/n term at n servers: E[Q](t), mean field and refined, and the refined tail. */
function printRefinedTransient(model: SupermarketModel, times: number[], from: number[] | undefined, o: Opts): void {
  const r = refinedTransient(model, { times, from, tolerance: o.tolerance });
  printTailTransient(model, r.meanField, o, { n: o.n!, r, at: refinedTransientAt(r, o.n!), trust: transientTrust(r, o.n!) });
}

/**
 * The order-1 trust of a refined transient at n (`firstOrderTrust`, theory.md §6): ΣV(t)/n against the limit's E[Q](t)
 * at each instant of the grid; the caveat names the worst instant (t = 0 from empty has neither, and counts as trusted).
 */
export function transientTrust(r: RefinedTransientResult, n: number): { trusted: boolean; caveat: string | null } {
  let worst = { j: 0, ratio: 0 };
  r.sumV.forEach((v, j) => {
    const { ratio } = firstOrderTrust(v, r.meanField.meanQueueLength[j], n);
    if (ratio > worst.ratio) worst = { j, ratio };
  });
  const t = r.meanField.times[worst.j];
  const { trusted, caveat } = firstOrderTrust(
    r.sumV[worst.j],
    r.meanField.meanQueueLength[worst.j],
    n,
    `n = ${n} (the worst instant: t = ${Number(t.toPrecision(6))})`,
  );
  return { trusted, caveat };
}

/**
 * Prints a tail transient s_i(t), E[Q](t) as --json, --csv or a table of the first --levels levels; with `refined`
 * also the refined estimate E[s(t)] ≈ s(t) + V(t)/n at n servers (theory.md §6) beside the mean field.
 */
function printTailTransient(
  model: SupermarketModel,
  tr: Pick<TransientResult, 'times' | 'meanQueueLength' | 'tail' | 'diagnostics' | 'provenance'>,
  o: Opts,
  refined?: {
    n: number;
    r: RefinedTransientResult;
    at: { meanQueueLength: number[]; tail: number[][] };
    trust: { trusted: boolean; caveat: string | null };
  },
): void {
  if (o.json) {
    const { n, r, at, trust } = refined ?? {};
    printJson({
      policy: policyName(model),
      model,
      ...(refined ? { n } : {}),
      times: tr.times,
      meanQueueLength: tr.meanQueueLength,
      tail: tr.tail,
      ...(r && at
        ? {
            refined: {
              n,
              meanQueueLength: at.meanQueueLength,
              tail: at.tail,
              V: r.V,
              sumV: r.sumV,
              diagnostics: r.diagnostics,
              provenance: r.provenance,
              ...trust,
            },
          }
        : {}),
      diagnostics: tr.diagnostics,
      provenance: tr.provenance,
    });
    return;
  }
  const K = tr.tail[0]?.length ?? 0;
  const levels = (prefix: string) => Array.from({ length: K }, (_, i) => `${prefix}s_${i}`);
  const at = refined?.at;
  if (o.csv) {
    // the solvers project their tails onto [0, 1] (numerics/clamp.ts), so no round-off negative reaches here
    const columns = at
      ? ['t', 'meanQueueLength', 'refinedMeanQueueLength', ...levels(''), ...levels('refined_')]
      : ['t', 'meanQueueLength', ...levels('')];
    const rows = tr.times.map((t, j) =>
      at ? [t, tr.meanQueueLength[j], at.meanQueueLength[j], ...tr.tail[j], ...at.tail[j]] : [t, tr.meanQueueLength[j], ...tr.tail[j]],
    );
    process.stdout.write(stringify(rows, { header: true, columns }));
    if (refined?.trust.caveat) process.stderr.write(`caveat: ${refined.trust.caveat}\n`); // not in the CSV's rows
    return;
  }
  const k = Math.min(o.levels, K - 1);
  const shown = at ?? tr;
  const suffix = refined ? ` n=${refined.n}` : '';
  const width = refined ? 12 : 10;
  const columns: [string, number, (j: number) => number, number][] = [
    ['t', 10, (j) => tr.times[j], 3],
    [refined ? 'E[Q] MF' : 'E[Q]', 10, (j) => tr.meanQueueLength[j], 6],
    ...(at ? [[`E[Q]${suffix}`, 12, (j: number) => at.meanQueueLength[j], 6] as [string, number, (j: number) => number, number]] : []),
    ...Array.from({ length: k }, (_, i): [string, number, (j: number) => number, number] => [
      `s_${i + 1}${suffix}`,
      width,
      (j) => shown.tail[j][i + 1],
      6,
    ]),
  ];
  const head = columns.map(([label, w]) => label.padStart(w)).join(' ');
  const body = tr.times.map((_, j) => columns.map(([, w, value, digits]) => value(j).toFixed(digits).padStart(w)).join(' '));
  const title = refined ? `Refined mean field (theory.md §6): E[s(t)] ≈ s(t) + V(t)/n at n = ${refined.n}\n` : '';
  const caveat = refined?.trust.caveat ? `caveat: ${refined.trust.caveat}\n` : '';
  process.stdout.write(`${title}${head}\n${body.join('\n')}\n${caveat}`);
}
