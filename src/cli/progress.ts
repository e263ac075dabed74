/**
 * Progress bar with ETA on stderr (cli-progress). Silent when stderr is not a terminal unless forced, so
 * piped --json output and CI logs stay clean; with `plain`, prints a line every ~10% instead.
 */
import type CliProgress from 'cli-progress';
import { cliProgress as loadCliProgress } from '../lazy.ts';

/** cli-progress, loaded when a bar is first shown (lazy.ts): a run with --no-progress or off a terminal never loads it. */
const cliProgress = (): typeof CliProgress => loadCliProgress() as typeof CliProgress;

export interface Progress {
  update(done: number, total: number, label: string): void;
  stop(): void;
}

/**
 * A duration as "45s", "2m05s" or "1h03m": rounded to a multiple of `step` seconds first, then split, so a
 * rounded-up part carries into the next unit (119.6 s at step 5 is "2m00s", never "1m60s"; cli-progress's own
 * formatter rounds the seconds after splitting and printed "2m60s"). Hours show minutes, rounded likewise.
 * @param seconds ≥ 0; NaN, ∞ or negative give "--". @param step rounding multiple in seconds (default 1).
 * @example formatDuration(179.9, 5) // "3m00s"
 */
export function formatDuration(seconds: number, step = 1): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--';
  const pad = (v: number) => String(v).padStart(2, '0');
  if (seconds >= 3600 - 30) {
    const minutes = Math.round(seconds / 60);
    return `${Math.floor(minutes / 60)}h${pad(minutes % 60)}m`;
  }
  const total = seconds > 10 ? step * Math.round(seconds / step) : Math.round(seconds);
  if (total >= 60) return `${Math.floor(total / 60)}m${pad(total % 60)}s`;
  return `${total}s`;
}

/**
 * The bar's line: while running, the percentage, ETA and elapsed time; at 100 % the elapsed time as "done in …" (an
 * ETA there is nothing to wait for, and cli-progress printed "ETA --" when the last step jumped to the end).
 */
export function progressFormat(title: string): BarFormatter {
  const running = `${title} [{bar}] {percentage}% | ETA {eta_formatted} | elapsed {duration_formatted} | {label}`;
  const done = `${title} [{bar}] {percentage}% | done in {duration_formatted} | {label}`;
  return (options, params, payload) =>
    cliProgress().Format.Formatter(
      { ...(options as CliProgress.Options), format: params.progress >= 1 ? done : running },
      params as CliProgress.Params,
      payload,
    );
}

/**
 * cli-progress's format function (its GenericFormatter), spelled out so that the package's types, a dev dependency,
 * stay out of the published declarations.
 */
export type BarFormatter = (options: object, params: { progress: number }, payload: unknown) => string;

/**
 * A progress bar (cli-progress on a terminal; else a line every 10 %), nothing when `enabled` is false.
 * @param options.since the clock start (ms since the epoch, default now): a command whose bar covers all of its run
 *   passes its start, so the elapsed time (and "done in") is the whole run's, not the time since the bar's first update.
 */
export function createProgress(title: string, enabled: boolean, options: { since?: number } = {}): Progress {
  if (!enabled) return { update() {}, stop() {} };
  const since = options.since ?? Date.now();
  if (!process.stderr.isTTY) {
    let nextDecile = 1;
    const start = since;
    return {
      update(done, total) {
        const frac = total > 0 ? done / total : 0;
        while (frac >= nextDecile / 10 && nextDecile <= 10) {
          const elapsed = (Date.now() - start) / 1000;
          const eta = frac > 0 ? (elapsed * (1 - frac)) / frac : 0;
          process.stderr.write(
            nextDecile === 10
              ? `${title}: 100% (done in ${formatDuration(elapsed)})\n`
              : `${title}: ${nextDecile * 10}% (${formatDuration(elapsed)} elapsed, ETA ${formatDuration(eta)})\n`,
          );
          nextDecile++;
        }
      },
      stop() {},
    };
  }
  const bar = new (cliProgress().SingleBar)(
    {
      format: progressFormat(title),
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
      formatTime: (t: number, _options: unknown, step?: number) => formatDuration(t, step ?? 1),
    },
    cliProgress().Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, label) {
      const scaledTotal = 1000;
      const value = total > 0 ? Math.min(scaledTotal, Math.round((done / total) * scaledTotal)) : 0;
      if (!started) {
        bar.start(scaledTotal, value, { label });
        // the elapsed time counts from `since` (cli-progress's own clock starts at the first update)
        (bar as unknown as { startTime: number }).startTime = since;
        bar.update(value, { label });
        started = true;
      } else bar.update(value, { label });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** Wall time after which a computation without a work estimate starts showing progress (ms). */
export const LATE_PROGRESS_MS = 3000;

/**
 * Progress of a computation whose length is not known beforehand (batch and per-class ODEs, cavity solves): shown
 * only once it has run for LATE_PROGRESS_MS, and only when `enabled` (callers pass `--progress && !--json`). A
 * computation in stages (a cavity solve, then its fallback) names each: a new stage stops the bar and starts its own,
 * titled `title: stage`, whose fraction runs 0 → 1 again. `stop` ends the current bar (call it however the run ends).
 */
export function createLateProgress(title: string, enabled: boolean): { update(fraction: number, stage?: string): void; stop(): void } {
  const start = Date.now();
  let bar: Progress | undefined;
  let current: string | undefined;
  return {
    update(fraction, stage) {
      if (!enabled || Date.now() - start < LATE_PROGRESS_MS) return;
      if (bar === undefined || stage !== current) {
        bar?.stop();
        current = stage;
        bar = createProgress(stage === undefined ? title : `${title}: ${stage}`, true);
      }
      bar.update(fraction, 1, '');
    },
    stop() {
      bar?.stop();
    },
  };
}

/** Seconds between two lines of a status line when stderr is not a terminal (a log keeps a line per stage besides). */
export const STATUS_LOG_SECONDS = 10;

/**
 * A status line on stderr for a computation whose total work cannot be known beforehand (the exact chain: whether a
 * larger level cap follows is known only after each solve), so no percentage and no ETA, only the elapsed time and
 * what the caller says (the stage, the work done, its rate). On a terminal the line is rewritten in place; otherwise
 * a line is printed at each new `stage` and at most every STATUS_LOG_SECONDS within one. Nothing when not `enabled`.
 * @param title prefix of each line. @param enabled callers pass `--progress && !--json`.
 */
export function createStatusLine(title: string, enabled: boolean): { update(stage: string, detail: string): void; stop(): void } {
  if (!enabled) return { update() {}, stop() {} };
  const start = Date.now();
  const tty = Boolean(process.stderr.isTTY);
  let lastStage: string | undefined;
  let lastPrinted = 0;
  let shown = false;
  return {
    update(stage, detail) {
      const now = Date.now();
      const line = `${title}: ${stage}${detail ? `, ${detail}` : ''} | elapsed ${formatDuration((now - start) / 1000)}`;
      if (tty) {
        process.stderr.write(`\r\x1b[2K${line}`);
        shown = true;
      } else if (stage !== lastStage || now - lastPrinted >= STATUS_LOG_SECONDS * 1000) {
        process.stderr.write(`${line}\n`);
        lastPrinted = now;
      }
      lastStage = stage;
    },
    stop() {
      if (tty && shown) process.stderr.write('\n');
    },
  };
}
