/**
 * Simulator benchmark: our event engine and race fast path beside the C reference (../shared/bench), same model
 * and event budget. Run: `npx tsx bench/simulator.ts [events]` (default 1e7). Prints one table.
 *
 * Model: SQ(2), λ = 0.9, n = 1000, exponential sizes, FIFO, d servers sampled WITHOUT replacement (as the C
 * reference does). The C program measures a fixed number of events with the first ~10% as warm-up; we match it
 * with 2 replications of ~events/2 each (warm-up = 10% of each, then jobs = 45% of each, plus the short drain of
 * measured jobs), after a short untimed JIT warm-up. Runs are interleaved; each row is the median of 3.
 * Two more rows (no C counterpart): the priority engine on JSQ(2) with Weibull k = 1/2 sizes under SRPT, and under
 * SPRPT with exponential predictions, same n, λ and event budget.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModel, type SupermarketModel } from '../src/model/model.ts';
import { simulate } from '../src/sim/index.ts';

const events = Number(process.argv[2] ?? 1e7);
const n = 1000;
const lambda = 0.9;
const d = 2;
const seed = 1;
const runs = 3;
const model: SupermarketModel = parseModel({ lambda, d, sampling: 'without-replacement' });

interface Row {
  engine: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  meanResponseTime: number;
}

const median = (rows: Row[]): Row => rows.slice().sort((a, b) => a.eventsPerSecond - b.eventsPerSecond)[rows.length >> 1];

function ours(engine: 'event' | 'race', budget: number, m: SupermarketModel = model, label = `ts ${engine}`): Row {
  const perReplication = budget / 2;
  const r = simulate(m, {
    n,
    engine,
    seed,
    replications: 2,
    warmupTime: (0.1 * perReplication) / (2 * lambda * n),
    jobs: Math.round((0.9 * perReplication) / 2),
  });
  return { engine: label, events: r.events, seconds: r.wallSeconds, eventsPerSecond: r.eventsPerSecond, meanResponseTime: r.meanResponseTime.mean };
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = path.resolve(repo, '../shared/bench/run-reference.sh');

function reference(variant: 'heap' | 'race'): Row | undefined {
  if (!existsSync(script)) return undefined;
  const out = execFileSync('bash', [script, variant, String(events), String(seed), String(n), String(lambda), String(d)], { encoding: 'utf8' });
  const j = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { events: number; seconds: number; eventsPerSecond: number; meanResponseTime: number };
  return { engine: `C ${variant}`, events: j.events, seconds: j.seconds, eventsPerSecond: j.eventsPerSecond, meanResponseTime: j.meanResponseTime };
}

const weibull = { kind: 'weibull', shape: 0.5, mean: 1 } as const;
const srpt: SupermarketModel = { ...model, discipline: 'srpt', service: weibull };
const sprpt: SupermarketModel = { ...model, discipline: 'sprpt', service: weibull, prediction: { kind: 'exponential' } };
ours('event', 1e6); // JIT warm-up, untimed
ours('race', 1e6);
ours('event', 1e6, srpt, 'ts SRPT');
ours('event', 1e6, sprpt, 'ts SPRPT');
const haveC = existsSync(script);
const samples: Record<string, Row[]> = { 'ts event': [], 'ts race': [], 'C heap': [], 'C race': [], 'ts SRPT weibull:0.5': [], 'ts SPRPT weibull:0.5 exp-pred': [] };
for (let round = 0; round < runs; round++) {
  // Interleaved, so machine load drifts hit every engine alike.
  samples['ts event'].push(ours('event', events));
  samples['ts race'].push(ours('race', events));
  samples['ts SRPT weibull:0.5'].push(ours('event', events, srpt, 'ts SRPT weibull:0.5'));
  samples['ts SPRPT weibull:0.5 exp-pred'].push(ours('event', events, sprpt, 'ts SPRPT weibull:0.5 exp-pred'));
  if (haveC) {
    samples['C heap'].push(reference('heap') as Row);
    samples['C race'].push(reference('race') as Row);
  }
}
const rows: Row[] = Object.values(samples).filter((xs) => xs.length > 0).map(median);
const cHeap = haveC ? median(samples['C heap']) : undefined;
const cRace = haveC ? median(samples['C race']) : undefined;

console.log(`supermarket-lab simulator benchmark: SQ(${d}), λ = ${lambda}, n = ${n}, ~${events.toExponential(0)} events, sampling without replacement, seed ${seed}`);
console.log(`Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} (${os.cpus().length} cores), median of ${runs} runs`);
if (!cHeap) console.log(`C reference not found at ${script}: showing our engines only`);
const header = ['engine', 'events', 'seconds', 'events/s', 'mean response time', 'vs C heap', 'vs C race'];
const table = rows.map((r) => [
  r.engine,
  String(r.events),
  r.seconds.toFixed(3),
  (r.eventsPerSecond / 1e6).toFixed(2) + 'M',
  r.meanResponseTime.toFixed(4),
  cHeap ? (r.eventsPerSecond / cHeap.eventsPerSecond).toFixed(2) : '-',
  cRace ? (r.eventsPerSecond / cRace.eventsPerSecond).toFixed(2) : '-',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
console.log(line(header));
console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
for (const row of table) console.log(line(row));
console.log('Mean-field limit E[T] = 2.6141 (FIFO rows); finite n = 1000 adds about +0.004 (theory.md §6, §10). SRPT/SPRPT rows: JSQ(2), Weibull k = 1/2 sizes.');
