/**
 * Threads benchmark (issue 9 acceptance: `npm start` on 2 cores in ≤ 0.6 × the time of `--threads 1`, same report):
 * runs the compare preset with the compiled CLI, once with `--threads 1` and once with `--threads K` (default 2), each
 * `--fresh` into its own folder, and prints both wall times (and CPU times), their ratio and whether the two
 * results.json agree number for number (timing fields aside).
 * `--full`: the real default preset, exactly what `npm start` runs (about 2 + 1.3 minutes on a quiet 2-core machine).
 * Otherwise a reduced preset: every λ, d, n and trajectory of `npm start`, smaller budgets (`--jobs`, `--replications`).
 * Run: `npm run bench:threads [-- --full] [-- --jobs 40000 --replications 4 --threads 2]` (builds first).
 * On a shared machine the wall times include waiting for a core: read the ratio with the load average it prints.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'supermarket.js');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const jobs = arg('jobs', 40_000);
const replications = arg('replications', 4);
const threads = arg('threads', 2);
const full = process.argv.includes('--full');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-bench-threads-'));

function run(k: number): { seconds: number; cpuSeconds: number; dir: string } {
  const dir = path.join(tmp, `threads-${k}`);
  // the default preset is `compare` with no setting given (--out, --threads, --fresh, --no-progress change no number)
  const preset = full ? [] : ['--jobs', String(jobs), '--replications', String(replications), '--trajectory-replications', '2'];
  const cpu0 = childrenCpuSeconds();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, 'compare', ...preset, '--threads', String(k), '--out', dir, '--fresh', '--no-progress'], {
    encoding: 'utf8',
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`compare --threads ${k} failed: ${r.stderr}`);
  return { seconds, cpuSeconds: childrenCpuSeconds() - cpu0, dir };
}

/** User + system CPU seconds of every finished child so far (Linux; NaN elsewhere). */
function childrenCpuSeconds(): number {
  // fields 16 and 17 of /proc/self/stat: cutime and cstime in clock ticks (100 per second on Linux)
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

function numbers(dir: string): string {
  const r = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
  // timing fields aside: wall time, speed, and the seconds an exact solve took
  return JSON.stringify(r, (k, v) => (k === 'wallSeconds' || k === 'eventsPerSecond' || k === 'seconds' ? undefined : v));
}

const load0 = os.loadavg()[0];
const one = run(1);
const many = run(threads);
const same = numbers(one.dir) === numbers(many.dir);
console.log(
  (full
    ? 'compare, full default preset (what `npm start` runs); '
    : `compare, reduced default preset (λ 0.7,0.9,0.95; d 2,3; n 10…10000; jobs ${jobs}, replications ${replications}); `) +
    `${os.availableParallelism()} cores, load average ${load0.toFixed(2)} → ${os.loadavg()[0].toFixed(2)}`,
);
console.log(`  --threads 1: ${one.seconds.toFixed(1)} s wall, ${one.cpuSeconds.toFixed(1)} s CPU`);
console.log(`  --threads ${threads}: ${many.seconds.toFixed(1)} s wall, ${many.cpuSeconds.toFixed(1)} s CPU`);
console.log(`  ratio ${(many.seconds / one.seconds).toFixed(3)} (target ≤ 0.6 on 2 cores); same report numbers: ${same ? 'yes' : 'NO'}`);
if (!same) process.exitCode = 1;
