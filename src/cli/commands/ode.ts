/** `supermarket ode`: the SQ(d) mean-field transient s_i(t) on a time grid (odex), as text, JSON or CSV. */
import { Command, Option } from 'commander';
import { stringify } from 'csv-stringify/sync';
import { lwlTransient, phaseTypeJsqTransient, refinedTransient, refinedTransientAt, solveTransient } from '../../meanfield/index.ts';
import type { SupermarketModel } from '../../model/index.ts';
import { InvalidModelError } from '../../errors.ts';
import { action } from '../errors.ts';
import { addModelOptions, parseNumberList, parsePositive, modelFromFlags, type ModelFlags } from '../options.ts';

interface Opts extends ModelFlags {
  tEnd: number; dt: number; from?: number[]; tolerance: number; levels: number; json?: boolean; csv?: boolean; refined?: boolean; n?: number;
}

export function odeCommand(): Command {
  const cmd = new Command('ode')
    .summary('mean-field transient s_i(t) from an initial state (default: empty), on a time grid')
    .description('Integrates ds_i/dt = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) with odex (Hairer–Wanner extrapolation), ' +
      'sampling the dense output at t = 0, dt, 2dt, …, t-end; the solver outcome is checked and a failure is an error. ' +
      'JSQ(d) FIFO with other size laws integrates the phase-type ODE (theory.md §3; exact for Erlang and hyperexponential, ' +
      'a two-moment fit otherwise); LWL(d) integrates the workload PIDE (theory.md §4) and prints the busy fraction and mean workload.');
  addModelOptions(cmd)
    .requiredOption('--t-end <t>', 'final time (mean service times)', parsePositive)
    .requiredOption('--dt <dt>', 'output step', parsePositive)
    .option('--from <s1,s2,...>', 'initial tail fractions s_1, s_2, … (non-increasing in [0, 1]); default: empty system', parseNumberList)
    .option('--tolerance <ε>', 'odex relative and absolute tolerance', parsePositive, 1e-10)
    .option('--refined', 'add the refined 1/n term: E[s(t)] ≈ s(t) + V(t)/n (linearised V, W system next to the ODE; exponential JSQ(d) only; needs --n)')
    .option('--n <n>', 'servers for --refined', parsePositive)
    .option('--levels <k>', 'levels shown in text output', parsePositive, 5)
    .addOption(new Option('--json', 'print one JSON object on stdout').conflicts('csv'))
    .option('--csv', 'print CSV (t, E[Q], s_0, s_1, …) on stdout')
    .addHelpText('after', '\nExamples:\n  supermarket ode --lambda 0.9 --d 2 --t-end 50 --dt 0.5 --csv > transient.csv\n  supermarket ode --lambda 0.9 --d 2 --t-end 20 --dt 1 --from 1,0.9,0.5\n  supermarket ode --lambda 0.9 --d 2 --t-end 50 --dt 5 --refined --n 100')
    .action(action((o: Opts) => {
      const model = modelFromFlags(o);
      const steps = Math.floor(o.tEnd / o.dt + 1e-9); // the grid never passes t-end; t-end itself is appended below
      if (steps > 1e6) throw new InvalidModelError(`t-end/dt = ${steps} output points; use a coarser --dt (at most 1e6 points)`);
      const times = Array.from({ length: steps + 1 }, (_, j) => Number((j * o.dt).toPrecision(12)));
      if (times[times.length - 1] < o.tEnd - 1e-9 * o.tEnd) times.push(o.tEnd);
      const from = o.from ? [1, ...o.from] : undefined;
      if (model.selection === 'lwl') {
        printLwlTransient(model, times, o);
        return;
      }
      const classic = model.selection === 'jsq' && model.discipline === 'fifo' && model.service.kind === 'exponential';
      const phaseType = model.selection === 'jsq' && model.discipline === 'fifo' && !['deterministic', 'empirical'].includes(model.service.kind);
      if (!classic && !phaseType) {
        throw new InvalidModelError(`no transient mean field for ${model.selection.toUpperCase()}(d) + ${model.discipline.toUpperCase()} with ${model.service.kind} sizes: ` +
          'ode covers JSQ(d) FIFO (SQ(d) ODE; phase-type ODE for other laws) and LWL(d) (workload PIDE, any discipline)');
      }
      if (!classic && from) throw new InvalidModelError('--from (tail fractions) applies to exponential sizes; the phase-type transient starts from an empty system');
      if (o.refined || o.n !== undefined) {
        if (!classic) throw new InvalidModelError('--refined covers JSQ(d) FIFO with exponential sizes (the SQ(d) ODE); use `supermarket model FILE --transient` for population models');
        if (o.n === undefined || !Number.isInteger(o.n)) throw new InvalidModelError('--refined needs --n <servers> (an integer ≥ 1)');
        printRefinedTransient(model, times, from, o);
        return;
      }
      const tr = classic ? solveTransient(model, { times, from, tolerance: o.tolerance }) : phaseTypeJsqTransient(model, { times, tolerance: o.tolerance });
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ model, times: tr.times, meanQueueLength: tr.meanQueueLength, tail: tr.tail, diagnostics: tr.diagnostics, provenance: tr.provenance })}\n`);
      } else if (o.csv) {
        const K = tr.tail[0]?.length ?? 0;
        const columns = ['t', 'meanQueueLength', ...Array.from({ length: K }, (_, i) => `s_${i}`)];
        // the solvers project their tails onto [0, 1] (numerics/clamp.ts), so no round-off negative reaches here
        const rows = tr.times.map((t, j) => [t, tr.meanQueueLength[j], ...tr.tail[j]]);
        process.stdout.write(stringify(rows, { header: true, columns }));
      } else {
        const k = Math.min(o.levels, (tr.tail[0]?.length ?? 1) - 1);
        const head = ['t'.padStart(10), 'E[Q]'.padStart(10), ...Array.from({ length: k }, (_, i) => `s_${i + 1}`.padStart(10))].join(' ');
        const body = tr.times.map((t, j) => [t.toFixed(3).padStart(10), tr.meanQueueLength[j].toFixed(6).padStart(10),
          ...tr.tail[j].slice(1, k + 1).map((s) => s.toFixed(6).padStart(10))].join(' '));
        process.stdout.write(`${head}\n${body.join('\n')}\n`);
      }
    }));
  return cmd;
}

/** LWL(d) transient from empty: busy fraction P(U > 0) and E[U] from the mass-conserving PIDE scheme (theory.md §4). */
function printLwlTransient(model: SupermarketModel, times: number[], o: Opts): void {
  if (o.from) throw new InvalidModelError('--from sets queue-length fractions; the LWL(d) transient starts from an empty system');
  const tr = lwlTransient(model, { times });
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ model, times: tr.times, busyFraction: tr.busyFraction, meanWorkload: tr.meanWorkload, quantiles: tr.quantiles, diagnostics: tr.diagnostics, provenance: tr.provenance })}\n`);
  } else if (o.csv) {
    process.stdout.write(stringify(tr.times.map((t, j) => [t, tr.busyFraction[j], tr.meanWorkload[j]]), { header: true, columns: ['t', 'busyFraction', 'meanWorkload'] }));
  } else {
    const body = tr.times.map((t, j) => `${t.toFixed(3).padStart(10)} ${tr.busyFraction[j].toFixed(6).padStart(12)} ${tr.meanWorkload[j].toFixed(6).padStart(12)}`);
    process.stdout.write(`${'t'.padStart(10)} ${'P(U > 0)'.padStart(12)} ${'E[U]'.padStart(12)}\n${body.join('\n')}\n`);
  }
}

/** SQ(d) transient with its refined 1/n term at n servers: E[Q](t), mean field and refined, and the refined tail. */
function printRefinedTransient(model: SupermarketModel, times: number[], from: number[] | undefined, o: Opts): void {
  const r = refinedTransient(model, { times, from, tolerance: o.tolerance });
  const n = o.n!;
  const at = refinedTransientAt(r, n);
  const tr = r.meanField;
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ model, n, times: tr.times, meanQueueLength: tr.meanQueueLength, tail: tr.tail,
      refined: { n, meanQueueLength: at.meanQueueLength, tail: at.tail, V: r.V, sumV: r.sumV, diagnostics: r.diagnostics, provenance: r.provenance },
      diagnostics: tr.diagnostics, provenance: tr.provenance })}\n`);
  } else if (o.csv) {
    const K = tr.tail[0]?.length ?? 0;
    const columns = ['t', 'meanQueueLength', 'refinedMeanQueueLength', ...Array.from({ length: K }, (_, i) => `s_${i}`), ...Array.from({ length: K }, (_, i) => `refined_s_${i}`)];
    process.stdout.write(stringify(tr.times.map((t, j) => [t, tr.meanQueueLength[j], at.meanQueueLength[j], ...tr.tail[j], ...at.tail[j]]), { header: true, columns }));
  } else {
    const k = Math.min(o.levels, (tr.tail[0]?.length ?? 1) - 1);
    const head = ['t'.padStart(10), 'E[Q] MF'.padStart(10), `E[Q] n=${n}`.padStart(12), ...Array.from({ length: k }, (_, i) => `s_${i + 1} n=${n}`.padStart(12))].join(' ');
    const body = tr.times.map((t, j) => [t.toFixed(3).padStart(10), tr.meanQueueLength[j].toFixed(6).padStart(10), at.meanQueueLength[j].toFixed(6).padStart(12),
      ...at.tail[j].slice(1, k + 1).map((s) => s.toFixed(6).padStart(12))].join(' '));
    process.stdout.write(`Refined mean field (theory.md §6): E[s(t)] ≈ s(t) + V(t)/n at n = ${n}\n${head}\n${body.join('\n')}\n`);
  }
}
