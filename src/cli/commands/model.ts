/**
 * `supermarket model <file.json>`: a generic density-dependent population model (models/README.md): fixed point,
 * observables, refined 1/n correction and mean-field transient. Thin over src/meanfield/population.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConvergenceError, InvalidModelError, SolverError } from '../../errors.ts';
import { loadJsonFile } from '../../io/index.ts';
import {
  parsePopulationModel,
  bindingTruncation,
  populationFixedPoint,
  populationRefined,
  populationSecondOrder,
  populationTransient,
  refinedAt,
  requireSmoothModel,
  secondOrderAt,
  type PopulationFixedPointResult,
} from '../../meanfield/population/index.ts';
import { MAX_EVENTS, type PopulationSimulationResult } from '../../sim/index.ts';
import { secondOrderTrust } from '../../meanfield/refinedSecondOrder.ts';
import { firstOrderTrust } from '../../meanfield/refined.ts';
import { simulationWarmup } from '../../meanfield/warmup.ts';
import { action, withInterruptMessage } from '../errors.ts';
import {
  examples,
  parseInFile,
  parseIntegerList,
  parseNonNegative,
  parseNumber,
  parsePositive,
  parsePositiveInteger,
  parseThreads,
  parseReplications,
  parseSeed,
  refuseIdleOptions,
} from '../options.ts';
import { decimalText, jsonOption, printJson } from '../output.ts';
import { TRANSIENT_PROGRESS_WORK, checkTransientTop, noFixedPoint, populationTransientWork } from '../overload.ts';
import { runPool } from '../pool.ts';
import { createProgress } from '../progress.ts';
import { estimateDecimals, formatCount } from '../../stats/index.ts';

interface Opts {
  set: Record<string, number>;
  refined?: boolean;
  order: string;
  n?: number[];
  transient?: boolean;
  tEnd: number;
  dt: number;
  tolerance: number;
  maxSteps?: number;
  json?: boolean;
  compare?: boolean;
  horizon: number;
  warmup?: number;
  replications: number;
  seed: number;
  threads?: number;
}

/** Collects repeated `--set name=value` into one record; a name given twice is refused (no silent last-wins). */
function collectSet(value: string, previous: Record<string, number>): Record<string, number> {
  const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+)$/.exec(value);
  if (!match) throw new InvalidArgumentError(`expected name=value, got ${JSON.stringify(value)}`);
  if (Object.hasOwn(previous, match[1]))
    throw new InvalidArgumentError(
      `${match[1]} is set twice (${match[1]}=${previous[match[1]]}, then ${value.trim()}); give each parameter once`,
    );
  return { ...previous, [match[1]]: parseNumber(match[2]) };
}

const fmt = (v: number) => (Math.abs(v) >= 1e-4 || v === 0 ? v.toFixed(6) : v.toExponential(4));

export function modelCommand(): Command {
  return new Command('model')
    .description(
      'Reads a density-dependent population model (state variables, transitions with jump vectors and mathjs\n' +
        'rate expressions; format in models/README.md), derives the drift f = Σ ℓβ_ℓ with its symbolic Jacobian and\n' +
        'Hessian, and prints the fixed point (Newton, residual checked), the observables there, with --refined the\n' +
        'Gast–Van Houdt 1/n correction (theory.md §6), and with --transient the ODE trajectory from the initial state.',
    )
    .argument('<file>', 'model file (JSON), e.g. models/jsq-d.json', parseInFile)
    .option('--set <name=value>', 'override a parameter of the file (repeatable), e.g. --set lambda=0.95', collectSet, {})
    .option('--refined', 'add the refined mean-field 1/n correction (E[g(X_n)] ≈ g(π) + c/n)')
    .addOption(
      new Option(
        '--order <k>',
        'refined expansion order: 1 (c/n) or 2 (c₁/n + c₂/n², Gast–Bortolussi–Tribastone 2019; O(K⁵) time, O(K⁴) memory)',
      )
        .choices(['1', '2'])
        .default('1'),
    )
    .option('--n <n,...>', 'population sizes for the refined estimates (implies --refined)', parseIntegerList)
    .option('--transient', 'integrate the mean-field ODE from the initial state')
    .option('--t-end <t>', 'transient end time', parsePositive, 50)
    .option('--dt <dt>', 'transient output step', parsePositive, 1)
    .option(
      '--tolerance <ε>',
      "odex tolerance of the transient (given: also of the fixed point's ODE relaxation, default 1e-9)",
      parsePositive,
      1e-10,
    )
    .option(
      '--max-steps <k>',
      "odex step budget of the transient and of the fixed point's ODE relaxation (a stiff model may need more)",
      parsePositiveInteger,
    )
    .option(
      '--compare',
      'also simulate the population process at each --n (Gillespie, seeded) and compare with the mean field and the refined estimate',
    )
    .option('--horizon <t>', 'measured time per replication for --compare', parsePositive, 1000)
    .option('--warmup <t>', 'warm-up time for --compare (default: 2 × the ODE time to within 1e-3 of the fixed point)', parseNonNegative)
    .option('--replications <r>', 'replications for --compare (≥ 2)', parseReplications, 10)
    .option('--seed <s>', 'master seed for --compare (integer ≥ 0)', parseSeed, 1)
    .option('--threads <k>', "worker threads for --compare, one n per task (default: the machine's cores)", parseThreads)
    .addOption(jsonOption())
    .addHelpText(
      'after',
      examples([
        'supermarket model models/jsq-d.json --refined --n 10,100',
        'supermarket model models/jsq-d.json --set lambda=0.95 --set d=3 --set K=7 --refined --order 2 --n 10,20',
        'supermarket model models/jsq-d.json --set lambda=0.95 --set d=3 --json',
        'supermarket model models/jsq-d.json --compare --n 10,100,1000 --horizon 500',
        'supermarket model models/threshold-probe.json --transient --t-end 100 --dt 5',
      ]),
    )
    .action(
      action(async (file: string, o: Opts, cmd: Command) => {
        refuseIdleOptions(cmd, [
          ...['--horizon', '--warmup', '--replications', '--seed', '--threads'].map(
            (flag) => [flag, Boolean(o.compare), '--compare'] as const,
          ),
          ...['--t-end', '--dt'].map((flag) => [flag, Boolean(o.transient), '--transient'] as const),
        ]);
        const model = loadJsonFile(file, 'model', (json) => parsePopulationModel(json, o.set, { file }));
        if (o.refined || o.n !== undefined) requireSmoothModel(model); // before solving: the 1/n term needs C² rates
        const order = Number(o.order);
        const wantRefined = o.refined || o.n !== undefined || order === 2;
        // theory.md §2: a fixed point exists only for ρ < 1 and is the model's only if the top level K is empty. A
        // truncated level model whose top level is not empty at its fixed point (ρ ≥ 1, or K too small) has no answer
        // here; a transient over a finite horizon is still the model's as long as its top level stays empty.
        const transientOnly = Boolean(o.transient) && !wantRefined && !o.compare;
        let solved: PopulationFixedPointResult | undefined;
        try {
          solved = populationFixedPoint(model, {
            ...(o.maxSteps !== undefined ? { maxSteps: o.maxSteps } : {}),
            ...(cmd.getOptionValueSource('tolerance') === 'cli' ? { odeTolerance: o.tolerance } : {}),
          });
        } catch (error) {
          // e.g. ρ = 1: no fixed point to converge to; a stiff model whose ODE relaxation runs out of steps: the requested
          // transient does not need the fixed point, so it runs without it
          if (!transientOnly || !(error instanceof ConvergenceError || error instanceof SolverError)) throw error;
        }
        const bound = solved && bindingTruncation(model, solved.x);
        if (bound && !transientOnly)
          throw noFixedPoint(
            `${bound.name} = ${bound.value.toPrecision(3)} at the fixed point: the truncation at the last level binds, so this is not the ` +
              "model's fixed point (a load ρ ≥ 1 has none; at ρ < 1 raise K)",
            'all but --transient',
          );
        const fp = bound ? undefined : solved;
        const names = Object.keys(model.observables);
        if (o.compare && (o.n === undefined || o.n.length === 0))
          throw new InvalidModelError('--compare needs --n <n,...>, the population sizes to simulate');
        const refined = wantRefined ? populationRefined(model, solved!) : undefined;
        const second = refined && order === 2 ? populationSecondOrder(model, refined) : undefined;
        const estimates = refined ? (o.n ?? []).map((n) => (second ? secondOrderAt(second, n) : refinedAt(refined, n))) : [];
        // order 1 outside its trusted range (|c|/(n|g(π)|) > FIRST_ORDER_RANGE: the 1/n term not small against the
        // limit), per observable and n, as fixed-point and ode say it (firstOrderTrust, theory.md §6); with --order 2 the
        // estimates printed are order 2's, whose own range speaks below
        const firstCaveats =
          refined && !second
            ? (o.n ?? []).flatMap((n) =>
                names.flatMap((nm) => {
                  const g = refined.observables[nm];
                  // a 1/n term at round-off (an observable the process conserves) is no expansion to trust or not
                  if (Math.abs(g.coefficient) / n <= 1e-10 * Math.max(1, Math.abs(g.meanField))) return [];
                  const t = firstOrderTrust(g.coefficient, g.meanField, n);
                  return t.trusted ? [] : [`${nm}: ${t.caveat!}`];
                }),
              )
            : [];
        // order 2 outside its trusted range (|c₂|/(n|c₁|) > SECOND_ORDER_RANGE, theory.md §6), per observable and n
        const secondCaveats = second
          ? (o.n ?? []).flatMap((n) =>
              Object.keys(second.observables).flatMap((nm) => {
                // a 1/n² term at round-off (e.g. an observable the process conserves) is no expansion to trust or not
                const g = second.observables[nm];
                if (Math.abs(g.second) / (n * n) <= 1e-10 * Math.max(1, Math.abs(g.meanField))) return [];
                const t = secondOrderTrust({ sumA: second.observables[nm].second, sumV: refined!.observables[nm].coefficient }, n);
                return t.trusted ? [] : [`${nm}: ${t.caveat!.replace('|ΣA|/(n|ΣV|)', '|c₂|/(n|c₁|)')}`];
              }),
            )
          : [];
        const caveats = [...firstCaveats, ...secondCaveats];
        let transient: ReturnType<typeof populationTransient> | undefined;
        if (o.transient) {
          const steps = Math.round(o.tEnd / o.dt);
          if (steps > 1e5) throw new InvalidModelError(`t-end/dt = ${steps} output points; use a coarser --dt (at most 1e5 points)`);
          const times = Array.from({ length: steps + 1 }, (_, j) => j * o.dt);
          if (times[times.length - 1] < o.tEnd * (1 - 1e-9)) times.push(o.tEnd);
          // held to the simulations' budget before the horizon is integrated (overload.ts), with progress past a few seconds
          const work = populationTransientWork(model, times, o.tolerance);
          const progress = createProgress('model --transient', !o.json && work > TRANSIENT_PROGRESS_WORK);
          try {
            transient = populationTransient(model, {
              times,
              tolerance: o.tolerance,
              ...(o.maxSteps !== undefined ? { maxSteps: o.maxSteps } : {}),
              onProgress: (fraction) => progress.update(fraction, 1, `${model.variables.length} variables`),
            });
          } finally {
            progress.stop();
          }
          const x = transient.x;
          checkTransientTop(transient.times, (j) => bindingTruncation(model, x[j]), 'raise K');
        }
        let simulations: PopulationSimulationResult[] = [];
        if (o.compare) {
          const warmup = o.warmup ?? simulationWarmup(model, { fixedPoint: solved! }).time;
          // one task per n on the pool; each n's replications have their own seeded streams, so any --threads gives the same numbers
          simulations = new Array(o.n!.length);
          // the Gillespie run makes up to about two events per server per time unit (jsq-d.json at λ = 0.9: 1.8, an arrival
          // and a departure)
          const work = o.n!.reduce((sum, n) => sum + 2 * o.replications * n * (warmup + o.horizon), 0);
          if (work > MAX_EVENTS)
            throw new InvalidModelError(
              `--compare needs about ${formatCount(work)} events (replications × n × (warm-up ${warmup.toPrecision(3)} + horizon ${o.horizon}) ` +
                `× 2 events per server per time unit, summed over --n), more than ${MAX_EVENTS.toExponential(0)}; lower the horizon, the replications or n`,
            );
          const progress = createProgress('model --compare', !o.json);
          try {
            await withInterruptMessage(
              () =>
                'nothing was stored (model --compare keeps its simulations in memory until all are done); rerun the command to start again',
              () =>
                runPool(
                  o.n!.map((n, i) => ({
                    key: i,
                    kind: 'population' as const,
                    model,
                    options: { n, horizon: o.horizon, warmup, replications: o.replications, seed: o.seed },
                    cost: o.replications * n * (warmup + o.horizon),
                  })),
                  (i, result) => (simulations[i] = result as PopulationSimulationResult),
                  { threads: o.threads, onProgress: (done, total, label) => progress.update(done, total, label) },
                ),
              () => progress.stop(),
            );
          } finally {
            progress.stop();
          }
        }
        if (o.json) {
          printJson({
            model: {
              name: model.name,
              file,
              source: model.source,
              parameters: model.parameters,
              variables: model.variables,
              transitions: model.transitions.length,
            },
            fixedPoint: fp
              ? { x: fp.x, residual: fp.residual, iterations: fp.iterations, observables: fp.observables, diagnostics: fp.diagnostics }
              : null,
            ...(refined
              ? {
                  refined: {
                    order,
                    V: refined.V,
                    observables: refined.observables,
                    lyapunovResidual: refined.lyapunovResidual,
                    diagnostics: refined.diagnostics,
                    estimates,
                    caveats,
                    ...(second
                      ? {
                          secondOrder: {
                            A: second.A,
                            observables: second.observables,
                            diagnostics: second.diagnostics,
                            provenance: second.provenance,
                          },
                        }
                      : {}),
                  },
                }
              : {}),
            ...(simulations.length
              ? {
                  simulations: simulations.map((r) => ({
                    n: r.n,
                    observables: r.observables,
                    x: r.x,
                    events: r.events,
                    warmup: r.warmup,
                    horizon: r.horizon,
                    seeds: r.seeds,
                    provenance: r.provenance,
                  })),
                }
              : {}),
            ...(transient
              ? {
                  transient: {
                    times: transient.times,
                    x: transient.x,
                    observables: transient.observables,
                    diagnostics: transient.diagnostics,
                  },
                }
              : {}),
            provenance: refined?.provenance ?? fp?.provenance ?? transient!.provenance,
          });
          return;
        }
        const K = model.variables.length;
        const shown = Math.min(K, 8);
        const lines = [
          `${model.name} (${file}): ${K} variables, ${model.transitions.length} transitions`,
          `  parameters: ${
            Object.entries(model.parameters)
              .map(([k, v]) => `${k} = ${v}`)
              .join(', ') || '(none)'
          }`,
          ...(fp
            ? [
                `Fixed point (${fp.diagnostics.method}, residual ${fp.residual.toExponential(1)}, ${fp.iterations} Newton steps):`,
                `  ${model.variables
                  .slice(0, shown)
                  .map((v, i) => `${v}=${fp.x[i].toPrecision(6)}`)
                  .join('  ')}${K > shown ? '  …' : ''}`,
              ]
            : [
                `Fixed point: none (${bound ? `${bound.name} = ${bound.value.toPrecision(3)} there: the truncation binds` : 'Newton does not converge'}; a load ρ ≥ 1 has none)`,
              ]),
        ];
        if (names.length && fp) lines.push('Observables at the fixed point:', ...names.map((nm) => `  ${nm} = ${fmt(fp.observables[nm])}`));
        if (refined) {
          lines.push(
            second
              ? `Refined mean field to order 2 (Gast–Bortolussi–Tribastone, theory.md §6): E[g(X_n)] ≈ g(π) + c₁/n + c₂/n²; Lyapunov residual ${refined.lyapunovResidual.toExponential(1)}, D/C/B residuals ${Object.values(
                  second.diagnostics.residuals,
                )
                  .map((r) => r.toExponential(1))
                  .join('/')}`
              : `Refined mean field (Gast–Van Houdt, theory.md §6): E[g(X_n)] ≈ g(π) + c/n; Lyapunov residual ${refined.lyapunovResidual.toExponential(1)}`,
          );
          lines.push(
            `  ${'observable'.padEnd(24)} ${'g(π)'.padStart(12)} ${(second ? 'c₁' : 'c').padStart(12)}${second ? 'c₂'.padStart(13) : ''}${estimates.map((e) => `${`n = ${e.n}`.padStart(14)}`).join('')}`,
          );
          for (const nm of names) {
            const o1 = refined.observables[nm];
            lines.push(
              `  ${nm.padEnd(24)} ${fmt(o1.meanField).padStart(12)} ${fmt(o1.coefficient).padStart(12)}${second ? ` ${fmt(second.observables[nm].second).padStart(12)}` : ''}${estimates.map((e) => fmt(e.observables[nm]).padStart(14)).join('')}`,
            );
          }
          for (const c of caveats) lines.push(`  caveat: ${c}`);
          lines.push(
            `  V: ${model.variables
              .slice(0, shown)
              .map((v, i) => `${v}=${refined.V[i].toPrecision(4)}`)
              .join('  ')}${K > shown ? '  …' : ''}`,
          );
        }
        if (simulations.length) {
          const r0 = simulations[0];
          lines.push(
            `Simulation of the population process (Gillespie; warm-up ${r0.warmup.toFixed(1)}, horizon ${r0.horizon}, ${r0.perReplication.length} replications, seed ${r0.seeds.master}; 95% CI):`,
          );
          lines.push(
            `  ${'n'.padStart(7)} ${'observable'.padEnd(20)} ${'simulated'.padStart(12)} ${'± CI'.padStart(10)} ${'mean field'.padStart(12)} ${'refined'.padStart(12)} ${'events'.padStart(12)}`,
          );
          simulations.forEach((r, k) => {
            for (const nm of names) {
              const e = r.observables[nm];
              // an estimate and its ± by the one rule of simulated numbers in text (stats `estimateDecimals`: two
              // significant digits of h): it printed six decimals whatever the CI, "3.271059 ± 0.998933"
              const digits = Math.min(6, estimateDecimals(e.halfWidth, 2, 6));
              const est = (x: number) => (Number.isFinite(x) && x !== 0 && Math.abs(x) < 1e-4 ? fmt(x) : decimalText(x, digits));
              lines.push(
                `  ${String(r.n).padStart(7)} ${nm.padEnd(20)} ${est(e.mean).padStart(12)} ${est(e.halfWidth).padStart(10)} ${fmt(fp!.observables[nm]).padStart(12)} ${fmt(estimates[k].observables[nm]).padStart(12)} ${String(r.events).padStart(12)}`,
              );
            }
          });
        }
        if (transient) {
          const cols = names.length ? names : model.variables.slice(0, shown);
          const value = (nm: string, j: number) =>
            names.length ? transient!.observables[nm][j] : transient!.x[j][model.variables.indexOf(nm)];
          // each column at least two characters wider than its name, so that long names (fractionAtThreshold) stay apart
          const widths = cols.map((c) => Math.max(18, c.length + 2));
          lines.push(
            `Transient from the initial state (odex, tolerance ${o.tolerance}):`,
            `  ${'t'.padStart(10)}${cols.map((c, k) => c.padStart(widths[k])).join('')}`,
          );
          transient.times.forEach((t, j) =>
            lines.push(`  ${t.toFixed(3).padStart(10)}${cols.map((c, k) => fmt(value(c, j)).padStart(widths[k])).join('')}`),
          );
        }
        process.stdout.write(`${lines.join('\n')}\n`);
      }),
    );
}
