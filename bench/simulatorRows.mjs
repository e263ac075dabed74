// The TypeScript engines' rows of bench/simulator.ts, run in plain Node on the compiled build (dist/: what `npm start`
// and bin/ run). Under tsx the same compiled code took 10–25 % more CPU time per run (same-round A/B, race engine), a cost
// the shipped program does not have. The benchmark starts one such process per engine and keeps it across rounds: the
// parent sends a row, this process runs it and answers with its measurement.
import { simulate } from '../dist/sim/index.js';

process.on('message', ({ model, n, lambda, seed, engine, budget, label }) => {
  const perReplication = budget / 2;
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
  });
});
