// The race engine's loop alone, on the compiled build (dist/: run `npm run build` first), for instruction counts and
// A/B rounds of the two race loops (issue 23; bench/wasm-race-design.md, "The plain TypeScript loop").
// Usage: node bench/wasm-race-loop.mjs typescript|wasm [events = 2e6] [repeats = 1] [d = 2] [n = 1000] [lambda = 0.9]
//   [sampling = without-replacement]
// Runs `repeats` times the two replications of `npm run bench`'s race row (SQ(2) without replacement, λ = 0.9,
// n = 1000, seed 1, warm-up and jobs as bench/simulatorRows.mjs sets them for that event budget), each replication's
// `run` alone (no planning, no summaries), and prints the events and events per CPU second. Instructions per event
// in the steady state: the cachegrind count with repeats 2 minus that with repeats 1, over the events of one repeat
// (`--no-concurrent-recompilation`, so that every TurboFan compile lands in the first repeat; for wasm add `--no-liftoff`,
// else the kernel's tier-up may land in either repeat):
//   valgrind --tool=cachegrind --cache-sim=no --smc-check=all-non-file --cachegrind-out-file=/dev/null \
//     node --no-concurrent-recompilation bench/wasm-race-loop.mjs typescript 2e6 2
import { planSimulation, createEngine } from '../dist/sim/simulate.js';
import { initialState } from '../dist/sim/initialState.js';
import { setRaceLoop } from '../dist/sim/race.js';
import { Rng, streamSeed } from '../dist/stats/rng.js';
import { Measurement } from '../dist/sim/measurement.js';
import { parseModel } from '../dist/model/model.js';

const [loop, budgetArg, repeatsArg, dArg, nArg, lambdaArg, samplingArg] = process.argv.slice(2);
if (loop !== 'typescript' && loop !== 'wasm') {
  console.error('usage: node bench/wasm-race-loop.mjs typescript|wasm [events] [repeats] [d] [n] [lambda] [sampling]');
  process.exit(2);
}
setRaceLoop(loop);
const budget = Number(budgetArg ?? 2e6);
const repeats = Number(repeatsArg ?? 1);
const [d, n, lambda] = [Number(dArg ?? 2), Number(nArg ?? 1000), Number(lambdaArg ?? 0.9)];
const perReplication = budget / 2;
const plan = planSimulation(parseModel({ lambda, d, sampling: samplingArg ?? 'without-replacement' }), {
  n,
  engine: 'race',
  seed: 1,
  replications: 2,
  warmupTime: (0.1 * perReplication) / (2 * lambda * n),
  jobs: Math.round((0.9 * perReplication) / 2),
});
let [events, cpuSeconds] = [0, 0];
for (let r = 0; r < repeats; r++) {
  for (let u = 0; u < 2; u++) {
    const state = initialState(plan.config, plan.kind, new Rng(streamSeed(plan.master, u)), new Measurement(plan.warmupTime, plan.jobs));
    const engine = createEngine(plan.kind, plan.config, state);
    const cpu = process.cpuUsage();
    engine.run(Infinity);
    const used = process.cpuUsage(cpu);
    cpuSeconds += (used.user + used.system) / 1e6;
    events += engine.events;
    engine.release?.();
  }
}
console.log(JSON.stringify({ loop, events, eventsPerCpuSecond: Math.round(events / cpuSeconds) }));
