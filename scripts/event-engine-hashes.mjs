// Identity check for the FIFO event engine (issue 9 work): hashes the full JSON of simulate / simulateTrajectory /
// simulateReplay results over many configurations on a compiled build, so two builds can be compared output for
// output. Wall-clock fields (wallSeconds, eventsPerSecond) are dropped before hashing.
// Run: node scripts/event-engine-hashes.mjs [DIST_DIR] > hashes.txt   (DIST_DIR defaults to ./dist; `npm run build` first)
// then diff the files of the two builds: every line must be equal.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? 'dist');
const { simulate, simulateTrajectory, simulateReplay } = await import(pathToFileURL(path.join(dist, 'sim/index.js')).href);
const { parseModel } = await import(pathToFileURL(path.join(dist, 'model/model.js')).href);

const drop = new Set(['wallSeconds', 'eventsPerSecond', 'code']); // code: the commit's identity, not the engine's result
// model fields added after the pins, at their defaults: left out so hashes compare across commits
const atDefault = (k, v) =>
  (k === 'memory' && v?.kind === 'none') ||
  (k === 'arrivals' && v?.kind === 'exponential') ||
  (k === 'batch' && v === 1) ||
  (k === 'batchDispatch' && v === 'spread');
const hash = (x) =>
  createHash('sha256')
    .update(JSON.stringify(x, (k, v) => (drop.has(k) || atDefault(k, v) ? undefined : v)))
    .digest('hex')
    .slice(0, 16);
const lines = [];
const record = (name, f) => {
  let out;
  try {
    out = hash(f());
  } catch (e) {
    out = 'error ' + String(e.message);
  }
  lines.push(`${name} ${out}`);
  console.log(`${name} ${out}`);
};

const services = [
  'exp',
  'hyperexp:4',
  'weibull:0.5',
  'det',
  'erlang:3',
  'lognormal:1',
  'pareto:2.5',
  { kind: 'empirical', values: [0, 2, 0.5], source: 'test', mean: 2.5 / 3 },
];
const predictions = ['exact', 'exp', 'uniform:0.5', 'lognormal:1'];
const samplings = ['with-replacement', 'without-replacement'];
const sim = (spec, n, opts = {}) =>
  simulate(parseModel(spec), { n, engine: 'event', seed: 7, replications: 2, warmupTime: 20, jobs: 20000, ...opts });

// Every selection rule, d = 1, 2, 3, both samplings, exponential sizes.
for (const selection of ['random', 'jsq', 'lwl', 'lpw'])
  for (const d of [1, 2, 3])
    for (const sampling of samplings) {
      if (selection === 'random' && d > 1) continue;
      record(`sel=${selection} d=${d} ${sampling}`, () => sim({ lambda: 0.85, d, selection, sampling }, 50));
    }
// Size laws x selection (exact predictions), and prediction models under LPW and JSQ.
for (const service of services)
  for (const selection of ['jsq', 'lwl', 'lpw'])
    record(`service=${JSON.stringify(service)} sel=${selection}`, () => sim({ lambda: 0.8, d: 2, selection, service }, 40));
for (const prediction of predictions)
  for (const selection of ['jsq', 'lpw'])
    for (const lpwWork of ['clip', 'signed', 'static'])
      record(`pred=${prediction} sel=${selection} lpw=${lpwWork}`, () =>
        sim({ lambda: 0.8, d: 2, selection, prediction, service: 'hyperexp:4', conventions: { lpwWork } }, 30),
      );
// Bench model, larger n, heavy load, small n, pair rule outside its range, ring growth, batch means, precision, per-job.
record('bench n=1000', () => sim({ lambda: 0.9, d: 2, sampling: 'without-replacement' }, 1000, { jobs: 200000, warmupTime: 50 }));
record('n=1 d=1', () => sim({ lambda: 0.95, d: 1 }, 1, { jobs: 50000 }));
record('n=3 heavy', () => sim({ lambda: 0.99, d: 2 }, 3, { jobs: 100000 }));
record('n=70000 no pair rule', () => sim({ lambda: 0.9, d: 2 }, 70000, { jobs: 100000, warmupTime: 2 }));
record('n=2 lambda 0.999 rings grow', () => sim({ lambda: 0.999, d: 1 }, 2, { jobs: 200000, warmupTime: 0 }));
record('batch-means', () => sim({ lambda: 0.9, d: 2 }, 100, { method: 'batch-means', batches: 5, jobs: 5000 }));
record('precision', () => sim({ lambda: 0.9, d: 3 }, 100, { precision: { relative: 0.01 }, maxReplications: 6 }));
record('workload grid', () => sim({ lambda: 0.9, d: 2, service: 'weibull:0.5' }, 100, { workloadGrid: [0, 0.5, 1, 2, 4] }));
record('warmup 0 maxLevel 5', () => sim({ lambda: 0.9, d: 2 }, 100, { warmupTime: 0, maxLevel: 5 }));
// Priority engine and race engine (they share the job store, the heap and the Rng), and a small-n heavy run where rings grow.
for (const discipline of ['sjf', 'psjf', 'srpt', 'spjf', 'pspjf', 'sprpt'])
  record(`priority ${discipline}`, () =>
    sim({ lambda: 0.85, d: 2, discipline, prediction: 'exp', service: 'weibull:0.5' }, 30, { engine: 'priority' }),
  );
record('priority srpt n=2 heavy', () => sim({ lambda: 0.98, d: 1, discipline: 'srpt' }, 2, { engine: 'priority', jobs: 100000 }));
record('race bench', () =>
  sim({ lambda: 0.9, d: 2, sampling: 'without-replacement' }, 1000, { engine: 'race', jobs: 200000, warmupTime: 50 }),
);
record('race n=2 heavy', () => sim({ lambda: 0.999, d: 1 }, 2, { engine: 'race', jobs: 200000, warmupTime: 0 }));
// Trajectories (event engine), from empty and from a non-empty start.
for (const d of [1, 2, 3])
  record(`trajectory d=${d}`, () =>
    simulateTrajectory(parseModel({ lambda: 0.9, d }), { n: 500, engine: 'event', times: [0, 1, 2, 5, 10, 20], replications: 3, seed: 4 }),
  );
record('trajectory from', () =>
  simulateTrajectory(parseModel({ lambda: 0.95, d: 2 }), {
    n: 300,
    engine: 'event',
    times: [0, 3, 10],
    from: [1, 0.9, 0.6, 0.3, 0.1],
    replications: 2,
    seed: 9,
  }),
);
// Traces: Poisson-like, with ties (integer times, zero sizes), with predictions, with records.
const N = 30000;
let u = 12345;
const rand = () => ((u = (Math.imul(u, 1103515245) + 12345) >>> 0) + 0.5) / 4294967296;
const arrivals = new Float64Array(N);
const sizes = new Float64Array(N);
const preds = new Float64Array(N);
const tieArrivals = new Float64Array(N);
const tieSizes = new Float64Array(N);
for (let i = 1; i < N; i++) arrivals[i] = arrivals[i - 1] - Math.log(rand()) / (0.85 * 20);
for (let i = 0; i < N; i++) {
  sizes[i] = -Math.log(rand());
  preds[i] = sizes[i] * (0.5 + rand());
  tieArrivals[i] = Math.floor(arrivals[i] * 4);
  tieSizes[i] = rand() < 0.1 ? 0 : Math.ceil(sizes[i] * 4);
}
for (const selection of ['random', 'jsq', 'lwl', 'lpw']) {
  const d = selection === 'random' ? 1 : 2;
  record(`replay sel=${selection}`, () =>
    simulateReplay(parseModel({ lambda: 0.85, d, selection }), { arrivals, sizes }, { n: 20, seed: 3, batches: 10 }),
  );
  record(`replay preds sel=${selection}`, () =>
    simulateReplay(
      parseModel({ lambda: 0.85, d, selection }),
      { arrivals, sizes, predictions: preds },
      { n: 20, seed: 3, batches: 10, record: true },
    ),
  );
  record(`replay ties sel=${selection}`, () =>
    simulateReplay(
      parseModel({ lambda: 0.85, d, selection, sampling: 'without-replacement' }),
      { arrivals: tieArrivals, sizes: tieSizes },
      { n: 80, seed: 5, batches: 10 },
    ),
  );
}
console.log('all ' + hash(lines));
