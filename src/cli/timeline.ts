import { appendFileSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * Timeline of a run for profiling the pool (`SUPERMARKET_TIMELINE=FILE`): one JSON line per event appended to FILE,
 * `{ t, threadCpu, tid, ev, ... }` with t in ms since the epoch (the same clock in every thread), the calling thread's
 * CPU ms so far and its kernel thread id. Events: phases of a command
 * (`phase`, `name`), pool starts and ends, worker starts (`worker-start`; `worker-prestart` for one started ahead of its pool) and readiness (`worker-ready`), preloads done (`preload-end`, with ms and CPU), task starts
 * and ends (`task-start`/`task-end` with the worker, key and kind; `task-end` adds the worker's busy ms and, for a
 * replication, `shared`: the shared buffers it took for its arrays, fresh and reused). Off (no cost but one check)
 * when the variable is unset.
 */
export function timeline(ev: string, fields: Record<string, unknown> = {}): void {
  const file = process.env.SUPERMARKET_TIMELINE;
  if (!file) return;
  const { tid, cpuMs } = threadStat();
  const line = { t: performance.timeOrigin + performance.now(), threadCpu: cpuMs, tid, ev, ...fields };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** Whether the timeline is on (`SUPERMARKET_TIMELINE` set). */
export function timelineOn(): boolean {
  return Boolean(process.env.SUPERMARKET_TIMELINE);
}

/**
 * CPU milliseconds (user + system) of the calling thread so far, from /proc/thread-self/stat (Linux, 10 ms ticks);
 * NaN elsewhere. Node 20 has no per-thread CPU clock (`process.cpuUsage` is the whole process's).
 */
export function threadCpuMs(): number {
  return threadStat().cpuMs;
}

/**
 * The calling thread's kernel id and CPU ms so far, from /proc/thread-self/stat (Linux); NaN for both elsewhere. The
 * id lets a reader of the timeline (bench/threads.ts) tell the main thread and the workers from the process's other
 * threads (V8's compiler and garbage-collector helpers, libuv's pool) in /proc/<pid>/task.
 */
function threadStat(): { tid: number; cpuMs: number } {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return { tid: Number.parseInt(stat, 10), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
  } catch {
    return { tid: Number.NaN, cpuMs: Number.NaN };
  }
}
