/** Output of per-job and per-server records (`--per-job FILE.csv`, `--per-server`) for `simulate` and `replay`. */
import { stringify } from 'csv-stringify/sync';
import type { Command } from 'commander';
import { writeFileAtomic } from '../io/index.ts';
import { parseOutFile } from './options.ts';
import type { JobRecords, ServerRecords } from '../sim/jobRecord.ts';
import { predictedDisciplines, predictedSelections } from '../model/policy/index.ts';

/**
 * Adds `--per-server` and `--per-job <file.csv>` (the records below). @param scope the run they record, e.g.
 * 'the first replication' (simulate); none for a replay, which is one run.
 */
export function addRecordOptions(cmd: Command, scope?: string): Command {
  return cmd
    .option('--per-server', `per server${scope ? `, in ${scope}` : ''}: busy fraction, mean queue (Little: Σ T / window), jobs served`)
    .option(
      '--per-job <file.csv>',
      `write the measured jobs${scope ? ` of ${scope}` : ''} as CSV: arrival, size, prediction (the predicted size Y, only where the selection or discipline reads one: ${predictionReaders()}), server, start (FIFO), departure, response, and timeUnit (the unit of the times and sizes, on every row)`,
      parseOutFile,
    );
}

/** Columns of the per-job CSV, in order ('prediction' only where the records have one: a policy that reads predictions). */
export const PER_JOB_COLUMNS = ['job', 'arrival', 'size', 'prediction', 'server', 'start', 'departure', 'response', 'timeUnit'] as const;

/** The policies that read a prediction, from the policy tables (for the help). */
function predictionReaders(): string {
  return [...predictedSelections(), ...predictedDisciplines()].join(', ');
}

/** A number as CSV text: shortest round-trip form; empty for NaN (not recorded). */
const cell = (x: number) => (Number.isNaN(x) ? '' : String(x));

/**
 * Writes the measured jobs as CSV (header `job,arrival,size,prediction,server,start,departure,response,timeUnit`,
 * without `prediction` where the records have none; job = 1-based arrival rank in the window, server 1-based; empty
 * cells: not recorded, e.g. start under a non-FIFO discipline). Every row names the unit of its times and sizes
 * (`timeUnit`, as the figures' data do): a CSV read on its own says what its numbers measure.
 * @param unit the unit of arrival, size, prediction, start, departure and response: model/service `timeUnit` for a
 *   simulation ("mean service times"), the replay's clock for a trace.
 */
export function writePerJobCsv(file: string, jobs: JobRecords, unit: string): void {
  const prediction = jobs.prediction;
  const columns = PER_JOB_COLUMNS.filter((c) => c !== 'prediction' || prediction !== undefined);
  const rows: string[][] = [];
  for (let k = 0; k < jobs.arrival.length; k++) {
    rows.push([
      String(k + 1),
      cell(jobs.arrival[k]),
      cell(jobs.size[k]),
      ...(prediction === undefined ? [] : [cell(prediction[k])]),
      String(jobs.server[k] + 1),
      cell(jobs.start[k]),
      cell(jobs.departure[k]),
      cell(jobs.response[k]),
      unit,
    ]);
  }
  writeFileAtomic(file, stringify(rows, { header: true, columns }));
}

/**
 * What the per-server records are, in one sentence for the text and JSON outputs (`--per-server`).
 * @param unit the unit of the window (time units of the run). @param scope e.g. 'replication 1'; none for a replay.
 */
export function perServerAbout(window: number, unit: string, scope?: string): string {
  return (
    `one row per server${scope ? ` in ${scope}` : ''}, over its measurement window of ${Number(window.toPrecision(6))} ${unit}: ` +
    'busy = fraction of the window the server worked; E[Q_j] = its mean number of jobs by Little (Σ T of the measured jobs it served / ' +
    'window, so it counts their time after the window end too); jobs = measured jobs it served'
  );
}

/** Per-server rows as plain objects (server 1-based), for JSON. */
export function perServerRows(
  servers: ServerRecords,
): { server: number; busyFraction: number; meanQueueLength: number; jobsServed: number }[] {
  return servers.busyFraction.map((b, j) => ({
    server: j + 1,
    busyFraction: b,
    meanQueueLength: servers.meanQueueLength[j],
    jobsServed: servers.jobsServed[j],
  }));
}

/** Text table of the per-server records (at most `limit` rows, then a count of the rest). */
export function perServerTable(servers: ServerRecords, limit = 50): string {
  const rows = perServerRows(servers);
  const head = `  ${'server'.padStart(6)} ${'busy'.padStart(8)} ${'E[Q_j]'.padStart(8)} ${'jobs'.padStart(9)}`;
  const body = rows
    .slice(0, limit)
    .map(
      (r) =>
        `  ${String(r.server).padStart(6)} ${r.busyFraction.toFixed(4).padStart(8)} ${r.meanQueueLength.toFixed(4).padStart(8)} ${String(r.jobsServed).padStart(9)}`,
    );
  const more = rows.length > limit ? [`  … ${rows.length - limit} more servers (--json lists all)`] : [];
  return [head, ...body, ...more].join('\n');
}
