/** Trace readers (SWF, SWIM), their statistics and the replay workload. Only `load.ts` does I/O. */
export { TraceFormatError } from './errors.ts';
export type { TraceJob, SwfJob, SwimJob, SwimSize, SkipReport, OnMalformed } from './job.ts';
export { describeClock, parseSwf, swfClock, SWF_FIELDS, wallClock, type SwfOptions, type SwfTrace, type TraceClock } from './swf.ts';
export { parseSwim, swimSize, SWIM_FIELDS, SWIM_GAP_TOLERANCE, type SwimOptions, type SwimTrace } from './swim.ts';
export { mean, scv, median, pearson, ranks, spearman } from './correlation.ts';
export { traceStatistics, pairStatistics, type TraceStatistics, type PairStatistics } from './traceStatistics.ts';
export { traceWorkload, type TraceWorkload, type TraceWorkloadOptions } from './workload.ts';
export { loadTrace, readTraceText, formatFromName, type LoadTraceOptions, type Trace, type TraceFormat } from './load.ts';
