import { appendFileSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * Timeline of a run for profiling the pool (`SUPERMARKET_TIMELINE=FILE`): one JSON line per event appended to FILE,
 * `{ t, threadCpu, ev, ... }` with t in ms since the epoch (the same clock in every thread) and the calling thread's
 * CPU ms so far. Events: phases of a command
 * (`phase`, `name`), pool starts and ends, worker starts (`worker-start`; `worker-prestart` for one started ahead of its pool) and readiness (`worker-ready`), preloads done (`preload-end`, with ms and CPU), task starts
 * and ends (`task-start`/`task-end` with the worker, key and kind; `task-end` adds the worker's busy ms). Off (no cost
 * but one check) when the variable is unset.
 */
export function timeline(ev: string, fields: Record<string, unknown> = {}): void {
  const file = process.env.SUPERMARKET_TIMELINE;
  if (!file) return;
  const line = { t: performance.timeOrigin + performance.now(), threadCpu: threadCpuMs(), ev, ...fields };
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
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
