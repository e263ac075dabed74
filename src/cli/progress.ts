/**
 * Progress bar with ETA on stderr (cli-progress). Silent when stderr is not a terminal unless forced, so
 * piped --json output and CI logs stay clean; with `plain`, prints a line every ~10% instead.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total: number, label: string): void;
  stop(): void;
}

export function createProgress(title: string, enabled: boolean): Progress {
  if (!enabled) return { update() {}, stop() {} };
  if (!process.stderr.isTTY) {
    let nextDecile = 1;
    const start = Date.now();
    return {
      update(done, total) {
        const frac = total > 0 ? done / total : 0;
        while (frac >= nextDecile / 10 && nextDecile <= 10) {
          const elapsed = (Date.now() - start) / 1000;
          const eta = frac > 0 ? (elapsed * (1 - frac)) / frac : 0;
          process.stderr.write(`${title}: ${nextDecile * 10}% (${elapsed.toFixed(0)} s elapsed, ETA ${eta.toFixed(0)} s)\n`);
          nextDecile++;
        }
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: `${title} [{bar}] {percentage}% | ETA {eta_formatted} | elapsed {duration_formatted} | {label}`, stream: process.stderr, hideCursor: true, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, label) {
      const scaledTotal = 1000;
      const value = total > 0 ? Math.min(scaledTotal, Math.round((done / total) * scaledTotal)) : 0;
      if (!started) { bar.start(scaledTotal, value, { label }); started = true; } else bar.update(value, { label });
    },
    stop() { if (started) bar.stop(); },
  };
}
