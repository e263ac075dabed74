/**
 * The records the trace readers return. Every job has a `size` S (the service-time proxy the replay uses) and,
 * where the trace has one, the trace's own `userEstimate` of it, in the same unit. Missing values (−1 in SWF)
 * are `undefined`, never −1.
 */

/** Fields common to every trace format. */
export interface TraceJob {
  /** Position among the kept jobs, 0-based, in file order. */
  readonly index: number;
  /** 1-based line number in the file the record came from. */
  readonly line: number;
  /** Submit time in seconds from the log start (as in the file, not shifted). */
  readonly submitTime: number;
  /** Size S: run time in seconds (SWF) or a byte count (SWIM, see `SwimSize`). */
  readonly size: number;
  /** The trace's own prediction of `size`, in the same unit (SWF requested time); undefined if none. */
  readonly userEstimate: number | undefined;
}

/** One job of a Standard Workload Format log (the 18 fields; https://www.cs.huji.ac.il/labs/parallel/workload/swf.html). */
export interface SwfJob extends TraceJob {
  readonly format: 'swf';
  /** Field 1, job number. */
  readonly id: number;
  /** Field 3, wait time (s). */
  readonly waitTime: number | undefined;
  /** Field 4, run time (s); equal to `size`. */
  readonly runTime: number;
  /** Field 5. */
  readonly allocatedProcessors: number | undefined;
  /** Field 6, average CPU time used (s). */
  readonly averageCpuTime: number | undefined;
  /** Field 7, used memory (KB per processor). */
  readonly usedMemory: number | undefined;
  /** Field 8. */
  readonly requestedProcessors: number | undefined;
  /** Field 9, requested (wall-clock limit) time (s); equal to `userEstimate`. */
  readonly requestedTime: number | undefined;
  /** Field 10, requested memory (KB per processor). */
  readonly requestedMemory: number | undefined;
  /** Field 11: 1 completed, 0 failed, 5 cancelled, …; undefined when −1. */
  readonly status: number | undefined;
  /** Fields 12–16. */
  readonly user: number | undefined;
  readonly group: number | undefined;
  readonly executable: number | undefined;
  readonly queue: number | undefined;
  readonly partition: number | undefined;
  /** Fields 17–18. */
  readonly precedingJob: number | undefined;
  readonly thinkTime: number | undefined;
}

/** Size definitions for SWIM traces (data/README.md §3): B = m + s + r; D = m + 5·s + r (schedsim, d/n = 4). */
export type SwimSize = 'B' | 'D';

/** One job of a SWIM Hadoop workload (FB-2010 TSV: id, submit, gap, map input, shuffle, reduce output bytes). */
export interface SwimJob extends TraceJob {
  readonly format: 'swim';
  /** Field 1, e.g. `job0`. */
  readonly id: string;
  /** Field 3, inter-job submit gap (s). */
  readonly gap: number;
  /** Field 4, map input bytes m (known at submission). */
  readonly mapInputBytes: number;
  /** Field 5, shuffle bytes s. */
  readonly shuffleBytes: number;
  /** Field 6, reduce output bytes r. */
  readonly outputBytes: number;
}

/** What a reader left out and why: `reasons` maps a reason to its count; `count` is their sum. */
export interface SkipReport {
  count: number;
  reasons: Record<string, number>;
}

/** How malformed records are handled: throw a TraceFormatError (default) or skip and count them. */
export type OnMalformed = 'error' | 'skip';

export function addSkip(skipped: SkipReport, reason: string): void {
  skipped.count++;
  skipped.reasons[reason] = (skipped.reasons[reason] ?? 0) + 1;
}
