/**
 * Starting the pool's worker threads (pool.ts), and starting them early: a command that will open a pool
 * (`compare`) asks for its workers before it loads its own modules (`prestartWorkers`), so each worker loads the
 * simulator while this thread loads the command's solvers and report code, instead of after. The pool then adopts
 * them (`takePrestarted`) in place of starting new ones. Light on purpose (node:worker_threads only): it runs before
 * the command's imports.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * The worker's entry. Compiled (dist/, the `supermarket` bin): the plain JavaScript worker. From the TypeScript sources
 * (vitest, tsx): bootstrap.mjs registers tsx's loader in the thread, then imports the .ts worker.
 */
function workerEntry(): { file: URL; workerData?: { module: string } } {
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

/** Workers started ahead of their pool, in start order, each with the error it met before adoption (if any). */
const prestarted: { worker: Worker; error?: Error }[] = [];

/**
 * Starts `count` workers now for a pool the command will open (unreferenced: if the command stops first, e.g. on a
 * refused option, they do not keep the process alive). Their errors before adoption are kept, not thrown.
 */
export function prestartWorkers(count: number): void {
  for (let k = 0; k < count; k++) {
    const entry = { worker: startWorker() } as (typeof prestarted)[number];
    entry.worker.unref();
    entry.worker.once('error', (error) => (entry.error = error));
    prestarted.push(entry);
  }
}

/** A worker started ahead (oldest first) that met no error, or undefined; a failed one is ended and skipped. */
export function takePrestarted(): Worker | undefined {
  for (let next = prestarted.shift(); next; next = prestarted.shift()) {
    if (next.error === undefined) return next.worker;
    void next.worker.terminate();
  }
  return undefined;
}

/**
 * How many workers to start ahead for the command line `argv` (its arguments after the command): as many as its pool
 * will start first, `--threads N` (or `--threads=N`) or by default the machine's cores, but at most the cores (a pool
 * of more starts the rest itself); 0 when it shows help (`-h`, `--help`) or `--threads` is not plain digits (the
 * command refuses it, or reads a form such as 1e0 that is left to it).
 */
export function workersFor(argv: readonly string[]): number {
  if (argv.includes('--help') || argv.includes('-h')) return 0;
  let threads: number = os.availableParallelism();
  argv.forEach((a, i) => {
    const value = a === '--threads' ? (argv[i + 1] ?? '') : a.startsWith('--threads=') ? a.slice('--threads='.length) : undefined;
    if (value !== undefined) threads = /^\d+$/.test(value) ? Number(value) : 0;
  });
  return Math.min(threads, os.availableParallelism());
}
