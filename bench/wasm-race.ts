/**
 * Issue 9: the race engine (its loop is the WebAssembly kernel, assembly/race.ts) beside the C reference's race variant,
 * and the cost of `simulateTrajectory` (one `run` per sample time) at large n.
 * Run: `npx tsx bench/wasm-race.ts [events] [n]` (defaults 1e7, 1000).
 *
 * 1. Trajectories: SQ(2) without replacement, λ = 0.9, 101 sample times, 2 replications, seed 4, n = 10^4 (t ≤ 50) and
 *    n = 10^5 (t ≤ 20): CPU time and a hash of the result. Recorded with the TypeScript loop before it was replaced
 *    (same seeds): hashes 76f55ade72b6633c and d2bdb0cdcbec3201, CPU 0.51–0.83 s and 2.92–3.09 s; the spike's kernel that
 *    copied the engine state in and out per `run` took 0.79–0.98 s and 3.21–3.90 s (design note).
 * 2. Speed: rounds of our race and C race (`shared/bench/run-reference.sh race EVENTS 1 1000 0.9 2`), interleaved;
 *    events/s by wall and by CPU time, ratios to C race median over same-round ratios.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModel, type SupermarketModel } from '../src/model/model.ts';
import { simulate, simulateTrajectory, type SimulateOptions } from '../src/sim/index.ts';

const events = Number(process.argv[2] ?? 1e7);
const rounds = 3;
const n = Number(process.argv[3] ?? 1000);
const lambda = 0.9;
const model: SupermarketModel = parseModel({ lambda, d: 2, sampling: 'without-replacement' });
const perReplication = events / 2;
const benchOptions: SimulateOptions = {
  n,
  engine: 'race',
  seed: 1,
  replications: 2,
  warmupTime: (0.1 * perReplication) / (2 * lambda * n),
  jobs: Math.round((0.9 * perReplication) / 2),
};

// ---- 1. trajectories ----
console.log('Trajectories (101 times, 2 replications, seed 4):');
for (const [servers, tEnd] of [
  [1e4, 50],
  [1e5, 20],
] as const) {
  const times = Array.from({ length: 101 }, (_, j) => (j * tEnd) / 100);
  for (let round = 0; round < 2; round++) {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const r = simulateTrajectory(model, { n: servers, times, replications: 2, seed: 4 });
    const used = process.cpuUsage(cpu);
    const hash = createHash('sha256').update(JSON.stringify(r)).digest('hex').slice(0, 16);
    console.log(
      `  n = ${servers}: CPU ${((used.user + used.system) / 1e6).toFixed(2)} s, wall ${((performance.now() - wall) / 1e3).toFixed(2)} s, ` +
        `${r.events} events, hash ${hash}`,
    );
  }
}

// ---- 2. speed ----
interface Row {
  events: number;
  wall: number;
  cpu: number;
  meanResponseTime: number;
}

function ours(): Row {
  const cpu = process.cpuUsage();
  const r = simulate(model, benchOptions);
  const used = process.cpuUsage(cpu);
  return { events: r.events, wall: r.wallSeconds, cpu: (used.user + used.system) / 1e6, meanResponseTime: r.meanResponseTime.mean };
}

function referenceScript(): string | undefined {
  let dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  for (let parent = path.dirname(dir); parent !== dir; dir = parent, parent = path.dirname(dir)) {
    const candidate = path.join(parent, 'shared', 'bench', 'run-reference.sh');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The C race: its own wall time; CPU time of the child from the shell's `times`. */
function cRace(script: string): Row {
  const out = execFileSync('bash', ['-c', `bash "$0" race ${events} 1 ${n} ${lambda} 2; times`, script], { encoding: 'utf8' });
  const lines = out.trim().split('\n');
  const j = JSON.parse(lines[0]) as { events: number; seconds: number; meanResponseTime: number };
  const [user, sys] = lines[lines.length - 1]
    .trim()
    .split(/\s+/)
    .map((x) => {
      const [, min, sec] = /(\d+)m([\d.]+)s/.exec(x) ?? ['', '0', 'NaN'];
      return 60 * Number(min) + Number(sec);
    });
  return { events: j.events, wall: j.seconds, cpu: user + sys, meanResponseTime: j.meanResponseTime };
}

const script = referenceScript();
simulate(model, { ...benchOptions, jobs: 200_000, warmupTime: 10 }); // JIT warm-up, untimed
const samples: Record<string, Row[]> = { race: [], 'C race': [] };
for (let round = 0; round < rounds; round++) {
  samples.race.push(ours());
  if (script) samples['C race'].push(cRace(script));
}
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `\nSpeed: SQ(2), λ = ${lambda}, n = ${n}, ~${events.toExponential(0)} events, seed 1; Node ${process.version}, ` +
    `${os.cpus().length} cores, median of ${rounds} rounds, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
);
console.log('| engine    | events   | M events/s wall | M events/s CPU | E[T]   | / C race wall | / C race CPU |');
console.log('|-----------|----------|-----------------|----------------|--------|---------------|--------------|');
for (const [name, rows] of Object.entries(samples)) {
  if (rows.length === 0) continue;
  const c = samples['C race'];
  const ratio = (f: (r: Row) => number) => (c.length ? median(rows.map((r, i) => f(r) / f(c[i]))).toFixed(2) : '-');
  const wall = (r: Row) => r.events / r.wall;
  const cpu = (r: Row) => r.events / r.cpu;
  console.log(
    `| ${name.padEnd(9)} | ${String(rows[0].events).padEnd(8)} | ${(median(rows.map(wall)) / 1e6).toFixed(2).padEnd(15)} | ` +
      `${(median(rows.map(cpu)) / 1e6).toFixed(2).padEnd(14)} | ${rows[0].meanResponseTime.toFixed(4)} | ${ratio(wall).padEnd(13)} | ${ratio(cpu).padEnd(12)} |`,
  );
}
