/**
 * Starting the pool's worker threads (pool.ts), and starting them early: a command that will open a pool
 * (`compare`) asks for its first worker before it loads its own modules (`prestartWorkers`; the others start when its
 * pool opens, main.ts), so that worker loads the simulator while this thread loads the command's solvers and report
 * code, instead of after. The pool then adopts it (`takePrestarted`) in place of starting a new one. Light on purpose (node:worker_threads only): it runs before
 * the command's imports.
 */
import os from 'node:os';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { timeline } from './timeline.ts';

/**
 * How much a JavaScript function runs (V8's interrupt budget, in bytes of bytecode executed, weighted) before V8
 * considers it for its optimising compiler: 2× V8 11's default (132 KiB). A command runs for seconds in several
 * isolates (this thread and each worker), each compiling its own hot code on V8's helper threads, and with the default
 * much of that was recompiling functions optimised on too little type feedback, each deoptimised at its first new
 * branch and compiled again (the ODE solver's steps, the race engine, MSER's walk). Measured (CPU s, load 9–12): the
 * heavy cell's helper threads (`compare --lambda 0.95 --d 2 --n 10000 --threads 2`) 1.5 → 0.7, the default report's
 * 8.3 → 4.6 (at 4×); one model's solve, the renderer's load and its six figures in one thread, median of 7: process
 * 3.58 → 3.20 at 2× and 3.20 at 4×, the thread itself +0.06 at 2× and +0.15 at 4× (interpreting longer), hence 2×.
 * The simulators' inner loops are WebAssembly (tiered by their own budget) or run long enough that a later tier-up
 * costs nothing measurable; results do not depend on it.
 */
const INTERRUPT_BUDGET = 2 * 132 * 1024;

/**
 * Sets the CLI's V8 tiering (`INTERRUPT_BUDGET`) for this thread and every worker started after: V8's flags are the
 * process's, read by each isolate as it creates a function's budget. Call once, first thing (main.ts).
 */
export function tuneJit(): void {
  v8.setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}

/** Defined (true) inside the bundles of scripts/build-cli.ts only; undeclared (typeof 'undefined') elsewhere. */
declare const SUPERMARKET_BUNDLE: boolean | undefined;

/**
 * The worker's entry. From the CLI's bundle (dist/bundle/cli.js, the `supermarket` bin once built): the worker's
 * bundle beside it (dist/bundle/worker.js: a few chunks to load, not ≈ 180 modules; scripts/build-cli.ts). Compiled (dist/, the
 * package's pool): the plain JavaScript worker. From the TypeScript sources (vitest, tsx): bootstrap.mjs registers
 * tsx's loader in the thread, then imports the .ts worker.
 */
function workerEntry(): { file: URL; workerData?: { module: string } } {
  // import.meta.url is this module's own dist/cli/workerStart.js inside the bundle too
  if (typeof SUPERMARKET_BUNDLE !== 'undefined') return { file: new URL('../bundle/worker.js', import.meta.url) };
  if (import.meta.url.endsWith('.js')) return { file: new URL('./workers/simulateWorker.js', import.meta.url) };
  return {
    file: new URL('./workers/bootstrap.mjs', import.meta.url),
    workerData: { module: new URL('./workers/simulateWorker.ts', import.meta.url).href },
  };
}

/** A new worker thread of the pool, loading its modules; it keeps the process alive until `unref`. */
export function startWorker(): Worker {
  const entry = workerEntry();
  return new Worker(entry.file, { workerData: entry.workerData });
}

/** Modules a worker can load ahead of the tasks that need them: the solvers of 'prepare' tasks, the figure renderer. */
export type Preload = 'solvers' | 'renderer';

/**
 * Workers started ahead of their pool, in start order, each with the error it met before adoption (if any) and its
 * listener of preload answers until then.
 */
const prestarted: {
  worker: Worker;
  error?: Error;
  listener: (msg: { id: number; modules?: Preload; ms?: number; cpu?: number }) => void;
}[] = [];

/** What each worker was asked to load ahead (`prestartWorkers`) and what it has loaded before its pool adopted it. */
const preloads = new WeakMap<Worker, { asked: readonly Preload[]; loaded: Set<Preload> }>();

/**
 * Starts `count` workers now for a pool the command will open (unreferenced: if the command stops first, e.g. on a
 * refused option, they do not keep the process alive). Their errors before adoption are kept, not thrown.
 * `ahead(k)` names the modules worker k (0 is the first to get a task) loads once started, while this thread loads
 * the command's: the window costs no task (`compare` gives no task before it has parsed its options and loaded its
 * modules, ~0.3 s), and the modules leave the critical path (a model's solve needs the solvers at once, the report's
 * figures need the renderer when the last simulation ends).
 */
export function prestartWorkers(count: number, ahead: (k: number) => readonly Preload[] = () => []): void {
  for (let k = 0; k < count; k++) {
    timeline('worker-prestart', { worker: k });
    const worker = startWorker();
    // a preload's answer (id −1) before the pool adopts the worker: the timeline keeps what it cost
    const entry: (typeof prestarted)[number] = {
      worker,
      listener: (msg) => {
        if (msg.id !== -1) return;
        timeline('preload-end', { worker: k, modules: msg.modules, ms: msg.ms, cpu: msg.cpu });
        if (msg.modules) preloads.get(worker)?.loaded.add(msg.modules);
      },
    };
    worker.unref();
    worker.once('error', (error) => (entry.error = error));
    worker.on('message', entry.listener);
    const modules = ahead(k);
    for (const m of modules) {
      timeline('preload', { worker: k, modules: m });
      worker.postMessage({ id: -1, kind: 'preload', modules: m });
    }
    preloads.set(worker, { asked: modules, loaded: new Set() });
    prestarted.push(entry);
  }
}

/** A worker started ahead (oldest first) that met no error, or undefined; a failed one is ended and skipped. */
export function takePrestarted(): Worker | undefined {
  for (let next = prestarted.shift(); next; next = prestarted.shift()) {
    next.worker.off('message', next.listener);
    if (next.error === undefined) return next.worker;
    void next.worker.terminate();
  }
  return undefined;
}

/**
 * The modules `worker` was asked to load when started ahead (`prestartWorkers`) and those it had loaded when taken
 * (`takePrestarted`; the pool hears of the rest); none for any other worker.
 */
export function preloadedAhead(worker: Worker): { asked: readonly Preload[]; loaded: readonly Preload[] } {
  const p = preloads.get(worker);
  return { asked: p?.asked ?? [], loaded: [...(p?.loaded ?? [])] };
}

/**
 * What `compare`'s worker k, started ahead, loads while the command loads its own modules (`prestartWorkers`'
 * `ahead`): the first worker, which takes the first model's solve, the solvers (~50 ms of CPU, which the start-up
 * window has spare on 2 cores; the solve then starts at once). Not the figure renderer: ~0.13 s of CPU plus its
 * compilation, for which the window has no room on 2 cores (the main thread's ~0.2 s and two workers' start-up fill
 * it), so it would only move CPU from the end of the run to its critical start; a worker loads it when it idles at
 * the end of the simulations (pool.ts, `preloadWhenIdle`).
 */
export function compareAhead(k: number): readonly Preload[] {
  return k === 0 ? ['solvers'] : [];
}

/**
 * How many workers to start ahead for the command line `argv` (its arguments after the command): the first of its
 * pool only, the one that takes the first model's solve (the others start when the pool opens, after this thread's
 * modules: main.ts says why); 0 when it shows help (`-h`, `--help`) or `--threads` (or `--threads=N`) is 0 or not plain
 * digits (the command refuses it, or reads a form such as 1e0 that is left to it).
 */
export function workersFor(argv: readonly string[]): number {
  if (argv.includes('--help') || argv.includes('-h')) return 0;
  let threads: number = os.availableParallelism();
  argv.forEach((a, i) => {
    const value = a === '--threads' ? (argv[i + 1] ?? '') : a.startsWith('--threads=') ? a.slice('--threads='.length) : undefined;
    if (value !== undefined) threads = /^\d+$/.test(value) ? Number(value) : 0;
  });
  return Math.min(threads, 1);
}
