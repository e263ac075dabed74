// The TypeScript engines' rows of bench/simulator.ts, run in plain Node on the compiled build (dist/: what `npm start`
// and bin/ run). Under tsx the same compiled code took 10–25 % more CPU time per run (same-round A/B, race engine), a cost
// the shipped program does not have. The benchmark starts one such process per row and round: the parent sends the
// row's untimed warm-up, then the row itself; this process runs each and answers with its measurement.
//
// Two timings of the same `simulate` call: the whole call (planning, the engine loops, then the summaries: percentiles,
// MSER-5, batch means, tail fractions) and the engine loops alone (`run` of each replication's engine, timed by a
// wrapper around each engine class's `run`, called once per replication: nothing inside the loop changes). The C
// reference times its loop alone, so the second timing is the like-for-like one.
import { performance } from 'node:perf_hooks';
import { simulate } from '../dist/sim/index.js';
import { EventEngine } from '../dist/sim/engine.js';
import { PriorityEngine } from '../dist/sim/priorityEngine.js';
import { SharingEngine } from '../dist/sim/sharingEngine.js';
import { RaceEngine, setRaceLoop } from '../dist/sim/race.js';

const loops = { seconds: 0, cpuSeconds: 0 };
for (const Engine of [EventEngine, PriorityEngine, SharingEngine, RaceEngine]) {
  const run = Engine.prototype.run;
  Engine.prototype.run = function (stopTime, onTick) {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    try {
      return run.call(this, stopTime, onTick);
    } finally {
      const used = process.cpuUsage(cpu);
      loops.cpuSeconds += (used.user + used.system) / 1e6;
      loops.seconds += (performance.now() - wall) / 1000;
    }
  };
}

process.on('message', ({ model, n, lambda, seed, engine, budget, label, raceLoop }) => {
  // the race engine's loop: the WebAssembly kernel or the TypeScript loop (src/sim/race.ts, `setRaceLoop`)
  if (raceLoop !== undefined) setRaceLoop(raceLoop);
  const perReplication = budget / 2;
  loops.seconds = 0;
  loops.cpuSeconds = 0;
  const cpu = process.cpuUsage();
  const r = simulate(model, {
    n,
    engine,
    seed,
    replications: 2,
    warmupTime: (0.1 * perReplication) / (2 * lambda * n),
    jobs: Math.round((0.9 * perReplication) / 2),
  });
  const used = process.cpuUsage(cpu);
  process.send({
    engine: label,
    events: r.events,
    seconds: r.wallSeconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    eventsPerSecond: r.eventsPerSecond,
    meanResponseTime: r.meanResponseTime.mean,
    loopSeconds: loops.seconds,
    loopCpuSeconds: loops.cpuSeconds,
  });
});
