/**
 * Worker thread of the pool (src/cli/pool.ts): receives { id, kind, model, options } messages and runs `simulate`
 * (kind 'simulate'), `runReplications` (kind 'replications', with first and count), `simulateTrajectory` (kind
 * 'trajectory'), `runTrajectoryReplications` (kind 'trajectory-replications', with first and count) or
 * `simulatePopulation` (kind 'population'), or { id, kind: 'prepare', config, index } and runs
 * `prepareComparisonModel`, or { id, kind: 'figure', outDir, figure } and runs `writeFigureFiles` (`writeFigureVectors`
 * with vectorsOnly, `writeFigureDrawing` with drawingOnly, `renderSvg` alone with svgOnly), or { id, kind: 'raster', outDir, name, svg } and runs `writeFigurePng` (the solvers and
 * the renderer are loaded on first use, so simulation workers stay light; { id, kind: 'preload', modules } loads
 * them ahead, e.g. while the worker would idle; { kind: 'identity', code } gives it the pool's code identity, which
 * it adopts: it runs no git; { kind: 'buffers', buffers } gives back shared buffers the pool has read, for its next
 * replications' copies); answers { id, result } (a 'replications' task adds `shared`: its shared buffers taken, fresh
 * and reused) or
 * { id, error: { name, message } }, and while a simulation runs, { id, progress } (fraction done, at most ~4 per s);
 * a 'prepare' sends { id, partial } with the model's first simulations before its costlier solves.
 */
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import type { ComparisonConfig } from '../../compare/index.ts';
import type { FigureFiles } from '../../report/writeFigure.ts';
import type { SupermarketModel } from '../../model/index.ts';
import type { PopulationModel } from '../../model/population/parse.ts';
import {
  expectedEvents,
  planSimulation,
  planTrajectory,
  runReplications,
  runTrajectoryReplications,
  simulate,
  simulatePopulation,
  simulateTrajectory,
  type PopulationSimulationOptions,
  type SimulateOptions,
  type TrajectoryOptions,
} from '../../sim/index.ts';
import { keepShared, recycle, sharedBuffersTaken, takeShared } from '../../sim/buffers.ts';
import { adoptCodeIdentity } from '../../runs/codeIdentity.ts';
import { threadCpuMs, timeline, timelineOn } from '../timeline.ts';

interface Task {
  id: number;
  kind?:
    | 'simulate'
    | 'trajectory'
    | 'prepare'
    | 'population'
    | 'replications'
    | 'trajectory-replications'
    | 'figure'
    | 'raster'
    | 'preload'
    | 'identity'
    | 'buffers';
  model: SupermarketModel | PopulationModel;
  options: Omit<SimulateOptions, 'onProgress'> | TrajectoryOptions | PopulationSimulationOptions;
  config: ComparisonConfig;
  index: number;
  first: number;
  count: number;
  outDir: string;
  figure: FigureFiles;
  /** A figure: all but its PNG (`writeFigureVectors`), which a 'raster' task writes from the SVG (`writeFigurePng`). */
  vectorsOnly?: boolean;
  /** A figure: its SVG and PDF alone (`writeFigureDrawing`); the caller writes its data files. */
  drawingOnly?: boolean;
  /** A figure: its SVG alone, written nowhere (`renderSvg`); the caller writes it. */
  svgOnly?: boolean;
  name: string;
  svg: string;
  /** What a 'preload' loads ahead of its tasks: the solvers of 'prepare' or the figure renderer. */
  modules: 'solvers' | 'renderer';
  /** An 'identity': the pool's thread's code identity, which this worker's results name (no git run here). */
  code: string;
  /** 'buffers': shared buffers the pool's thread has read and gives back for this worker's next copies (`keepShared`). */
  buffers: SharedArrayBuffer[];
}

timeline('worker-ready');

/**
 * CPU ms of the tasks this worker has finished (with the timeline on): a preload's modules load between the tasks
 * that arrive meanwhile (a module loads in steps, a simulation runs at once), so its own CPU is its span's less theirs.
 */
let tasksCpu = 0;

parentPort!.on('message', async (task: Task) => {
  // before any task (messages arrive in order): no answer
  if (task.kind === 'identity') return adoptCodeIdentity(task.code);
  if (task.kind === 'buffers') return keepShared(task.buffers);
  const t0 = performance.now();
  const cpu0 = timelineOn() ? threadCpuMs() : 0;
  // wall and (with the timeline on) CPU ms of this task, for the pool's timeline
  const ms = () => performance.now() - t0;
  // `end`: the task's last report (its CPU joins `tasksCpu`), not a partial one sent ahead
  const cpu = (end = true) => {
    if (!timelineOn()) return undefined;
    const spent = threadCpuMs() - cpu0;
    if (end && task.kind !== 'preload') tasksCpu += spent;
    return spent;
  };
  try {
    if (task.kind === 'preload') {
      const before = tasksCpu;
      if (task.modules === 'renderer') await (await import('../../report/render.ts')).loadRenderer();
      else await import('../../compare/plan.ts');
      const spent = cpu();
      parentPort!.postMessage({
        id: task.id,
        result: null,
        modules: task.modules,
        ms: ms(),
        cpu: spent === undefined ? undefined : spent - (tasksCpu - before),
      });
      return;
    }
    if (task.kind === 'figure' && task.svgOnly) {
      const { renderSvg } = await import('../../report/render.ts');
      parentPort!.postMessage({ id: task.id, result: { svg: await renderSvg(task.figure.spec), paths: [] }, ms: ms(), cpu: cpu() });
      return;
    }
    if (task.kind === 'figure') {
      const { figurePaths, writeFigureDrawing, writeFigureFiles, writeFigureVectors } = await import('../../report/writeFigure.ts');
      const result = task.drawingOnly
        ? {
            svg: await writeFigureDrawing(task.outDir, task.figure),
            paths: figurePaths(task.figure).filter((p) => /\.(svg|pdf)$/.test(p)),
          }
        : task.vectorsOnly
          ? await writeFigureVectors(task.outDir, task.figure)
          : await writeFigureFiles(task.outDir, task.figure);
      parentPort!.postMessage({ id: task.id, result, ms: ms(), cpu: cpu() });
      return;
    }
    if (task.kind === 'raster') {
      const { writeFigurePng } = await import('../../report/writeFigure.ts');
      await writeFigurePng(task.outDir, task.name, task.svg);
      parentPort!.postMessage({ id: task.id, result: [], ms: ms(), cpu: cpu() });
      return;
    }
    if (task.kind === 'prepare') {
      const { prepareComparisonModel } = await import('../../compare/plan.ts');
      // the model's first simulations go to the pool as soon as its warm-up is known, while the rest is solved here
      const first = (tasks: unknown[]) => parentPort!.postMessage({ id: task.id, partial: tasks, ms: ms(), cpu: cpu(false) });
      parentPort!.postMessage({ id: task.id, result: prepareComparisonModel(task.config, task.index, first), ms: ms(), cpu: cpu() });
      return;
    }
    let last = 0;
    const onProgress = (done: number, total: number) => {
      const now = Date.now();
      if (now - last < 250) return;
      last = now;
      parentPort!.postMessage({ id: task.id, progress: Math.min(1, done / Math.max(total, 1)) });
    };
    if (task.kind === 'trajectory-replications') {
      const plan = planTrajectory(task.model as SupermarketModel, task.options as TrajectoryOptions);
      const parts = runTrajectoryReplications(plan, task.first, task.count);
      parentPort!.postMessage(
        { id: task.id, result: parts, ms: ms(), cpu: cpu() },
        parts.flatMap((p) => [p.samples.buffer as ArrayBuffer, p.queue.buffer as ArrayBuffer]),
      );
      return;
    }
    if (task.kind === 'replications') {
      const plan = planSimulation(task.model as SupermarketModel, task.options as SimulateOptions);
      const parts = runReplications(plan, task.first, task.count, (done) =>
        onProgress(
          done,
          expectedEvents({
            lambda: plan.config.lambda,
            n: plan.config.n,
            jobs: plan.jobs,
            replications: task.count,
            warmupTime: plan.warmupTime,
          }),
        ),
      );
      // Each part's sample and batch-5 series go as copies on shared buffers, and this thread's own are recycled for
      // its next replication: V8 counts a transferred ArrayBuffer as external memory of the thread that receives it and
      // answers every few MB of it with a full GC of that thread's heap (the pool's main thread: 44-54 of them in
      // `npm start`, ~2 s); a shared buffer is not counted per thread. The copy is ~2 MB a replication, on a shared
      // buffer the pool gave back once it had read it ('buffers', sim/buffers.ts) where one of that size is free.
      const before = sharedBuffersTaken();
      const shared = parts.map((p) => ({ ...p, sample: sharedCopy(p.sample), batch5: sharedCopy(p.batch5) }));
      for (const p of parts) {
        recycle(p.sample);
        recycle(p.batch5);
      }
      const after = sharedBuffersTaken();
      const taken = { fresh: after.fresh - before.fresh, reused: after.reused - before.reused };
      parentPort!.postMessage({ id: task.id, result: shared, shared: taken, ms: ms(), cpu: cpu() });
      return;
    }
    const result =
      task.kind === 'population'
        ? simulatePopulation(task.model as PopulationModel, task.options as PopulationSimulationOptions)
        : task.kind === 'trajectory'
          ? simulateTrajectory(task.model as SupermarketModel, task.options as TrajectoryOptions)
          : simulate(task.model as SupermarketModel, { ...(task.options as SimulateOptions), onProgress });
    parentPort!.postMessage({ id: task.id, result, ms: ms(), cpu: cpu() });
  } catch (error) {
    const e = error as Error;
    parentPort!.postMessage({ id: task.id, error: { name: e?.name ?? 'Error', message: e?.message ?? String(error) } });
  }
});

/** A copy of `a` on a SharedArrayBuffer of exactly its bytes (`takeShared`: one given back, else a fresh one). */
function sharedCopy<T extends Float32Array | Float64Array | Uint16Array>(a: T): T {
  const Kind = a.constructor as new (buffer: SharedArrayBuffer) => T;
  const out = new Kind(takeShared(a.byteLength));
  out.set(a);
  return out;
}
