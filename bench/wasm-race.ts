/**
 * Issue 9 spike: the WebAssembly race kernel (assembly/race.ts via bench/wasm-race-kernel.ts) against the TypeScript
 * race loop and the C reference's race variant. Run: `npx tsx bench/wasm-race.ts [events] [n]` (defaults 1e7, 1000).
 *
 * 1. Bit-identity: the same `simulate(..., { engine: 'race' })` runs with the TS loop and with the wasm loop; every
 *    engine's final state is compared byte for byte (time, counts, occupancy counts/areas/last times, sums, stored
 *    responses, queues, the Rng's next 600 outputs) and so is the result (all but timings). Cases: the bench model (n = 1000,
 *    λ = 0.9, JSQ(2) without replacement, seed 1, ~events events in 2 replications); n = 7 with replacement and
 *    JSQ(3) with and without replacement (n = 50), random (d = 1), JSQ(2) with n = 50 000 (pair rejection in ~42 % of arrivals) and
 *    n = 70 000 > 2^16 (no pair rule);
 *    and n = 2, 3 from rings of capacity 4 (growth mid-run) with float64 and with strided float32 responses.
 * 2. Speed: rounds of TS race, wasm race, C race (`shared/bench/run-reference.sh race EVENTS 1 1000 0.9 2`),
 *    interleaved; events/s by wall and by CPU time, ratios to C race median over same-round ratios.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModel, type SupermarketModel } from '../src/model/model.ts';
import { simulate, type SimulateOptions, type SimulationResult } from '../src/sim/index.ts';
import { RaceEngine } from '../src/sim/race.ts';
import { JobStore } from '../src/sim/jobStore.ts';
import { Occupancy } from '../src/sim/occupancy.ts';
import { Measurement } from '../src/sim/measurement.ts';
import { Workload } from '../src/sim/workload.ts';
import { resolveRunConfig } from '../src/sim/options.ts';
import { Rng, streamSeed } from '../src/stats/rng.ts';
import { compileRaceKernel, loadRaceKernel, useWasmRaceLoop } from './wasm-race-kernel.ts';

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

await loadRaceKernel(await compileRaceKernel());

// ---- 1. bit-identity ----
/** Every typed array and number of an engine's final state, by name. */
function snapshot(e: RaceEngine): Record<string, number | ArrayBufferView> {
  const s = e.state;
  const m = s.measurement;
  const inner = e as unknown as Record<string, number | ArrayBufferView>;
  return {
    t: s.t,
    events: e.events,
    arrivals: e.arrivals,
    busyCount: inner.busyCount,
    busy: (inner.busy as Int32Array).subarray(0, inner.busyCount as number),
    lastDeparture: inner.lastDeparture,
    tick: inner.tick,
    len: s.store.len,
    head: s.store.head,
    arrival: s.store.arrival,
    count: s.occupancy.count,
    area: s.occupancy.area,
    last: s.occupancy.last,
    measuredArrivals: m.measuredArrivals,
    measuredInSystem: m.measuredInSystem,
    sumResponse: m.sumResponse,
    completed: m.completed,
    sumSlowdown: m.sumSlowdown,
    slowdownJobs: m.slowdownJobs,
    responses: m.responses.subarray(0, m.sampled),
    rngStream: Int32Array.from({ length: 600 }, () => s.rng.nextInt32()), // the stream from here on (consumes it)
  };
}

const bytes = (x: number | ArrayBufferView) =>
  typeof x === 'number' ? Buffer.from(new Float64Array([x]).buffer) : Buffer.from(x.buffer, x.byteOffset, x.byteLength);

/** Names of the fields that differ in bits between two snapshots. */
function differences(a: Record<string, number | ArrayBufferView>, b: Record<string, number | ArrayBufferView>): string[] {
  return Object.keys(a).filter((k) => !bytes(a[k]).equals(bytes(b[k])));
}

/** Runs `run` once with the TS loop and once with the wasm loop, capturing the engines. */
function bothWays<T>(run: () => T): { ts: T; wasm: T; tsEngines: RaceEngine[]; wasmEngines: RaceEngine[] } {
  const captured: RaceEngine[] = [];
  const plainRun = RaceEngine.prototype.run;
  RaceEngine.prototype.run = function (this: RaceEngine, stop: number, onTick?: (events: number) => void) {
    captured.push(this);
    plainRun.call(this, stop, onTick);
  };
  try {
    useWasmRaceLoop(false);
    const ts = run();
    const tsEngines = captured.splice(0);
    useWasmRaceLoop(true);
    const wasm = run();
    return { ts, wasm, tsEngines, wasmEngines: captured.splice(0) };
  } finally {
    RaceEngine.prototype.run = plainRun;
    useWasmRaceLoop(false);
  }
}

/** The result without its timings, as JSON. */
const resultJson = (r: SimulationResult) => JSON.stringify({ ...r, wallSeconds: 0, eventsPerSecond: 0 });

function checkSimulate(label: string, m: SupermarketModel, options: SimulateOptions): boolean {
  const ticks: number[][] = [];
  const { ts, wasm, tsEngines, wasmEngines } = bothWays(() => {
    const mine: number[] = [];
    ticks.push(mine);
    return simulate(m, { ...options, onProgress: (done: number) => mine.push(done) });
  });
  const diffs = tsEngines.map((e, i) => differences(snapshot(e), snapshot(wasmEngines[i])));
  const sameTicks = ticks[0].join() === ticks[1].join();
  const same = resultJson(ts) === resultJson(wasm) && diffs.every((d) => d.length === 0) && sameTicks;
  console.log(
    `${same ? 'IDENTICAL' : 'DIFFERENT'}  ${label}: E[T] ${ts.meanResponseTime.mean} vs ${wasm.meanResponseTime.mean}, ` +
      `${tsEngines.length} replications, ${ts.events} events, ${ticks[0].length} progress ticks` +
      (same ? '' : `; differing: result ${resultJson(ts) !== resultJson(wasm)}, ticks ${!sameTicks}, state ${JSON.stringify(diffs)}`),
  );
  return same;
}

/**
 * One engine run outside `simulate`: n servers from rings of capacity 4 (so they grow mid-run), responses kept
 * as `responses` says: 'float64' (every job, as per-job records) or 'strided' (float32, every 3rd job).
 */
function checkEngine(
  n: number,
  lambda: number,
  sampling: 'with-replacement' | 'without-replacement',
  responses: 'float64' | 'strided',
): boolean {
  const config = resolveRunConfig(parseModel({ lambda, d: 2, sampling }), n);
  const jobs = 200_000;
  const { tsEngines, wasmEngines } = bothWays(() => {
    const store = new JobStore(n, false, 4);
    const measurement = new Measurement(200, jobs, -1, responses === 'float64');
    if (responses === 'strided') Object.assign(measurement, { stride: 3, responses: new Float32Array(Math.ceil(jobs / 3)) });
    const state = {
      store,
      occupancy: new Occupancy(n, store.cap + 2),
      measurement,
      workload: new Workload(n, config.workloadGrid),
      rng: new Rng(streamSeed(7, n)),
      t: 0,
    };
    new RaceEngine(config, state).run(Infinity);
  });
  const diffs = differences(snapshot(tsEngines[0]), snapshot(wasmEngines[0]));
  const cap = tsEngines[0].state.store.cap;
  console.log(
    `${diffs.length === 0 ? 'IDENTICAL' : 'DIFFERENT'}  n = ${n}, λ = ${lambda}, JSQ(2) ${sampling}, rings grown 4 → ${cap}, ${responses} responses, ` +
      `${tsEngines[0].events} events` +
      (diffs.length === 0 ? '' : `; differing: ${diffs.join(', ')}`),
  );
  return diffs.length === 0;
}

console.log('Bit-identity, TS race loop vs wasm kernel (same seeds):');
const identical = [
  checkSimulate(`bench model n = ${n}, λ = ${lambda}, JSQ(2) without replacement, seed 1`, model, benchOptions),
  checkSimulate('n = 7, λ = 0.8, JSQ(2) with replacement, seed 3', parseModel({ lambda: 0.8, d: 2 }), {
    n: 7,
    engine: 'race',
    seed: 3,
    replications: 3,
    jobs: 40_000,
    warmupTime: 100,
  }),
  ...(
    [
      [50, 3, 'without-replacement'],
      [50, 3, 'with-replacement'],
      [20, 1, 'with-replacement'],
      [50_000, 2, 'without-replacement'], // pair rule with n·m ≈ 2^31.2: ~42 % of pairs are redrawn (rejection path)
      [50_000, 2, 'with-replacement'],
      [70_000, 2, 'without-replacement'],
      [70_000, 2, 'with-replacement'],
    ] as const
  ).map(([servers, d, sampling]) =>
    checkSimulate(`n = ${servers}, λ = 0.85, JSQ(${d}) ${sampling}, seed 5`, parseModel({ lambda: 0.85, d, sampling }), {
      n: servers,
      engine: 'race',
      seed: 5,
      replications: 2,
      jobs: 60_000,
      warmupTime: 1,
    }),
  ),
  checkEngine(2, 0.95, 'without-replacement', 'float64'),
  checkEngine(3, 0.97, 'with-replacement', 'strided'),
].every(Boolean);

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
useWasmRaceLoop(false);
simulate(model, { ...benchOptions, jobs: 200_000, warmupTime: 10 }); // JIT warm-up, untimed
useWasmRaceLoop(true);
simulate(model, { ...benchOptions, jobs: 200_000, warmupTime: 10 });
const samples: Record<string, Row[]> = { 'ts race': [], 'wasm race': [], 'C race': [] };
for (let round = 0; round < rounds; round++) {
  useWasmRaceLoop(false);
  samples['ts race'].push(ours());
  useWasmRaceLoop(true);
  samples['wasm race'].push(ours());
  useWasmRaceLoop(false);
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
console.log(`Bit-identical in every case: ${identical ? 'yes' : 'NO'}`);
