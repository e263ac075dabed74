/**
 * `supermarket conjecture analysis/<file>.json`: evaluates a claim over a parameter grid (mean field where a solver
 * exists, simulation with CIs otherwise), with a holds / fails / undecided verdict per grid point, and writes its
 * report. Simulations run on the worker pool; every finished simulation and mean-field solve is stored at once under
 * <out>/cells/, so an interrupted run resumes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { stringify } from 'csv-stringify/sync';
import {
  conjectureFigures, conjectureMarkdown, conjectureRows, evaluateConjecture, parseConjecture,
  type SimulationRequest, type SimulationSummary,
} from '../../claims/index.ts';
import { solveMeanField, type MeanFieldSolution, type SolveOptions } from '../../meanfield/solve.ts';
import { InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/index.ts';
import { htmlPage, writeFigureFiles, writeFileAtomic, writeJsonAtomic } from '../../report/index.ts';
import type { SimulationResult } from '../../sim/index.ts';
import { VERSION } from '../../version.ts';
import { action } from '../errors.ts';
import { runSimulations } from '../pool.ts';
import { createProgress } from '../progress.ts';
import { parseOutDir, parsePositiveInteger, parseReplications } from '../options.ts';
import { dependencyVersions } from '../versions.ts';

interface Opts { out?: string; threads?: number; fresh?: boolean; json?: boolean; progress: boolean; n?: number; jobs?: number; replications?: number }

/** Reads and validates a conjecture file; JSON syntax errors become one line naming the file. */
export function loadConjecture(file: string, overrides: { n?: number; jobs?: number; replications?: number } = {}) {
  if (!existsSync(file)) throw new InvalidModelError(`conjecture file not found: ${file}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InvalidModelError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (json && typeof json === 'object' && Object.values(overrides).some((x) => x !== undefined)) {
    const j = json as { evaluation?: Record<string, unknown> };
    j.evaluation = { ...(j.evaluation ?? {}), ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) };
  }
  return parseConjecture(json, file);
}

const hash = (x: unknown) => createHash('sha256').update(JSON.stringify({ x, version: VERSION })).digest('hex');

function summarise(r: SimulationResult): SimulationSummary {
  return { meanResponseTime: r.meanResponseTime, meanSlowdown: r.meanSlowdown, responseTimePercentiles: r.responseTimePercentiles, events: r.events, wallSeconds: r.wallSeconds };
}

function readCell<T>(file: string, expected: string): T | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { hash: string; value: T };
    return stored.hash === expected ? stored.value : undefined;
  } catch {
    return undefined; // damaged file: recompute
  }
}

export function conjectureCommand(): Command {
  return new Command('conjecture')
    .summary('test a claim such as "T(jsq, sprpt) < T(lpw, sprpt)" over a parameter grid: holds / fails / undecided per point')
    .description('Evaluates the claim of a conjecture file (a mathjs expression over T, S, P50, P95, P99 (selection, discipline):\n' +
      'mean response time, mean slowdown, response-time percentiles) at every grid point (λ × d × service × prediction).\n' +
      'Each quantity comes from the mean-field solver where one exists (exact, approximation or estimate) and from finite-n\n' +
      'simulation with 95% CIs otherwise; the report names the source of each. A comparison holds if it is true for\n' +
      'every value in the interval enclosures of its sides, fails if false for all, and is undecided otherwise.\n' +
      'Writes <out>/report.md, index.html, figures/ (verdict map, both sides vs λ: PNG, SVG, vega-lite, CSV, JSON),\n' +
      'results.json, metadata.json; finished simulations and solves are kept in <out>/cells/ (rerun to resume).')
    .argument('<file>', 'conjecture file (JSON), e.g. analysis/h3-jsq-beats-lpw.json')
    .option('--out <dir>', 'report folder (default: reports/conjecture-<name>)', parseOutDir)
    .option('--n <n>', 'override evaluation.n (servers of the simulations)', parsePositiveInteger)
    .option('--jobs <k>', 'override evaluation.jobs (measured jobs per replication)', parsePositiveInteger)
    .option('--replications <r>', 'override evaluation.replications', parseReplications)
    .option('--threads <k>', 'worker threads for simulations (default: number of cores)', parsePositiveInteger)
    .option('--fresh', 'ignore stored cells and recompute everything')
    .option('--json', 'print a JSON summary on stdout')
    .option('--no-progress', 'no progress output on stderr')
    .addHelpText('after', '\nExamples:\n  supermarket conjecture analysis/h1-known-sizes.json\n  supermarket conjecture analysis/q4-heavy-traffic-ratio.json --json\n\n' +
      'Claim syntax: comparisons (<, <=, >, >=, chained), and/or/not, + - * / ^, log, log2, log10, sqrt, exp, abs, min, max;\n' +
      'symbols lambda, d, n, pi, e. See analysis/README.md.')
    .action(action(async (file: string, o: Opts) => {
      const started = Date.now();
      const conjecture = loadConjecture(file, { n: o.n, jobs: o.jobs, replications: o.replications });
      const out = o.out ?? path.join('reports', `conjecture-${conjecture.spec.name}`);
      const cells = path.join(out, 'cells');
      let resumed = 0;
      const solveProgress = createProgress(`conjecture ${conjecture.spec.name}: mean field`, o.progress);
      const solve = (model: SupermarketModel, options: SolveOptions): MeanFieldSolution => {
        const h = hash({ model, options });
        const f = path.join(cells, `mf-${h.slice(0, 20)}.json`);
        const cached = o.fresh ? undefined : readCell<MeanFieldSolution>(f, h);
        if (cached) return cached;
        const s = solveMeanField(model, options);
        if (s.kind === 'estimate') writeJsonAtomic(f, { hash: h, value: s }); // only estimates (cavity solves) are slow enough to keep
        return s;
      };
      const simulate = async (requests: readonly SimulationRequest[]): Promise<SimulationSummary[]> => {
        solveProgress.stop();
        const found = new Map<string, SimulationSummary>();
        const fileOf = (r: SimulationRequest) => path.join(cells, `sim-${r.key}.json`);
        for (const r of requests) {
          const v = o.fresh ? undefined : readCell<SimulationSummary>(fileOf(r), hash({ model: r.model, options: r.options }));
          if (v) found.set(r.key, v);
        }
        resumed = found.size;
        const todo = requests.filter((r) => !found.has(r.key));
        if (resumed > 0 && o.progress) process.stderr.write(`${resumed} of ${requests.length} simulations resumed from ${cells}\n`);
        const cost = (r: SimulationRequest) => r.options.replications * (2 * r.options.jobs + 2 * r.model.lambda * r.options.n * r.options.warmupTime);
        const total = todo.reduce((s, r) => s + cost(r), 0);
        let done = 0;
        const progress = createProgress(`conjecture ${conjecture.spec.name}: simulations`, o.progress);
        const byKey = new Map(todo.map((r) => [r.key, r]));
        await runSimulations(todo.map((r) => ({ key: r.key, model: r.model, options: r.options })), (key, result) => {
          const r = byKey.get(key)!;
          const summary = summarise(result);
          writeJsonAtomic(fileOf(r), { hash: hash({ model: r.model, options: r.options }), value: summary, request: r });
          found.set(key, summary);
          done += cost(r);
          progress.update(done, total, `${found.size}/${requests.length} simulations`);
        }, o.threads);
        progress.stop();
        return requests.map((r) => found.get(r.key)!);
      };
      const result = await evaluateConjecture(conjecture, { solve, simulate, onSolve: (done, total, label) => solveProgress.update(done, total, label) });
      solveProgress.stop();
      const figures = conjectureFigures(result);
      const written: string[] = [];
      const put = (rel: string, data: string | Uint8Array) => { writeFileAtomic(path.join(out, rel), data); written.push(rel); };
      for (const f of figures) {
        written.push(...(await writeFigureFiles(out, f)));
      }
      const rows = conjectureRows(result);
      put('points.csv', stringify(rows, { header: true, columns: [...new Set(rows.flatMap((r) => Object.keys(r)))] }));
      const meta = {
        command: ['supermarket', ...process.argv.slice(2)].join(' '), startedAt: new Date(started).toISOString(),
        wallSeconds: (Date.now() - started) / 1000, versions: dependencyVersions(), resumedSimulations: resumed,
        machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, platform: `${process.platform} ${process.arch}` },
      };
      writeJsonAtomic(path.join(out, 'results.json'), result);
      written.push('results.json');
      writeJsonAtomic(path.join(out, 'metadata.json'), meta);
      written.push('metadata.json');
      const md = conjectureMarkdown(result, figures, meta);
      put('report.md', md);
      put('index.html', htmlPage(md, `supermarket-lab conjecture: ${result.name}`));
      const s = result.summary;
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ out, files: written, name: result.name, claim: result.claim, summary: s, wallSeconds: meta.wallSeconds,
          points: result.points.map((p) => ({ ...p.point, verdict: p.verdict, comparisons: p.comparisons,
            quantities: p.quantities.map((q) => ({ key: q.key, value: q.value, interval: q.interval, source: q.source, method: q.method })) })) })}\n`);
        return;
      }
      process.stdout.write(`${result.name}: ${result.claim}\n  holds ${s.holds}, fails ${s.fails}, undecided ${s.undecided} of ${s.total} grid points ` +
        `(${result.simulations.length} simulations, ${resumed} resumed) in ${meta.wallSeconds.toFixed(1)} s\n  report: ${path.join(out, 'index.html')}\n`);
    }));
}
