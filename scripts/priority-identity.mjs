// Bit-identity check of the priority engine (issue 9 work): runs the priority engine over many configurations and
// prints one SHA-256 per configuration of the result JSON (timings removed) plus one over all of them. Run it on the
// compiled build before and after a change and compare the output: `node scripts/priority-identity.mjs [DIST]`
// (DIST defaults to ./dist; build first with `npm run build`). Covers every discipline (FIFO through the priority
// engine too), both psjfPreemption and sprptOverrun conventions, every selection rule and lpwWork rule, d = 1, 2, 3 with
// both samplings, several service laws and prediction models, batch means, n = 1 with long queues (queue growth),
// replayed traces with tied arrival times, sizes and predictions (per-job records), and trajectories from a
// non-empty start.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? 'dist');
const { simulate, simulateReplay, simulateTrajectory } = await import(pathToFileURL(path.join(dist, 'sim', 'index.js')).href);
const { parseModel } = await import(pathToFileURL(path.join(dist, 'model', 'model.js')).href);

const strip = (_k, v) => {
  if (typeof _k === 'string' && /wall|perSecond|seconds|version/i.test(_k)) return undefined;
  // fields added after the pins, at their defaults, and the code identity (it names the commit): left out, so hashes
  // compare across commits
  if (_k === 'code' || (_k === 'memory' && v?.kind === 'none') || (_k === 'arrivals' && v?.kind === 'exponential')) return undefined;
  if ((_k === 'batch' && v === 1) || (_k === 'batchDispatch' && v === 'spread')) return undefined;
  if (v instanceof Float64Array || v instanceof Float32Array || v instanceof Int32Array || v instanceof Uint32Array) return Array.from(v);
  return v;
};
const hash = (x) => createHash('sha256').update(JSON.stringify(x, strip)).digest('hex').slice(0, 16);
const all = createHash('sha256');
let count = 0;
function record(name, result) {
  const h = hash(result);
  all.update(name + h);
  count++;
  console.log(`${h}  ${name}`);
}

const disciplines = ['fifo', 'sjf', 'psjf', 'srpt', 'spjf', 'pspjf', 'sprpt'];
const predictive = new Set(['spjf', 'pspjf', 'sprpt']);
const laws = [
  { kind: 'exponential', mean: 1 },
  'weibull:0.5',
  'hyperexp:4',
  'det',
  'erlang:3',
  'bpareto:1.5:1000',
  { kind: 'empirical', values: [0.5, 1, 1, 1, 2, 3.5], mean: 1 },
];
const predictions = ['exact', 'exponential', 'uniform:0.5', { kind: 'lognormal', sigma: 1, bias: 'mean' }];
const tracePred = { kind: 'trace', values: [0.3, 1, 1, 2, 0.7, 5] }; // paired with the empirical law's 6 sizes
const selections = ['random', 'jsq', 'lwl', 'lpw'];

function sim(modelInput, opts) {
  const model = parseModel(modelInput);
  return simulate(model, { engine: 'priority', seed: 7, replications: 2, warmupTime: 5, maxLevel: 40, ...opts });
}

// 1. Every discipline × law (JSQ(2)), both samplings alternating, exact predictions; predicted ones also under each prediction model.
let k = 0;
for (const discipline of disciplines)
  for (const service of laws) {
    const sampling = k++ % 2 ? 'with-replacement' : 'without-replacement';
    const preds = !predictive.has(discipline) ? ['exact'] : service.kind === 'empirical' ? [...predictions, tracePred] : predictions;
    for (const prediction of preds)
      record(
        `disc=${discipline} law=${JSON.stringify(service)} pred=${JSON.stringify(prediction)} ${sampling}`,
        sim({ lambda: 0.85, d: 2, discipline, service, prediction, sampling }, { n: 20, jobs: 6000 }),
      );
  }
// 2. Conventions.
for (const discipline of ['psjf', 'pspjf', 'sprpt', 'srpt'])
  for (const psjfPreemption of ['original', 'remaining'])
    for (const sprptOverrun of ['negative', 'zero'])
      for (const prediction of ['exact', 'exponential', 'uniform:0.9'])
        record(
          `conv disc=${discipline} psjf=${psjfPreemption} sprpt=${sprptOverrun} pred=${prediction}`,
          sim(
            { lambda: 0.9, d: 2, discipline, service: 'hyperexp:3', prediction, conventions: { psjfPreemption, sprptOverrun } },
            { n: 15, jobs: 5000 },
          ),
        );
// 3. Selection rules × d × sampling × lpwWork.
for (const selection of selections)
  for (const d of [1, 2, 3])
    for (const sampling of ['with-replacement', 'without-replacement'])
      for (const discipline of ['srpt', 'sprpt', 'sjf'])
        for (const lpwWork of selection === 'lpw' ? ['clip', 'signed', 'static'] : ['clip'])
          record(
            `sel=${selection} d=${d} ${sampling} disc=${discipline} lpw=${lpwWork}`,
            sim(
              {
                lambda: 0.8,
                d,
                selection,
                sampling,
                discipline,
                service: 'weibull:0.5',
                prediction: 'lognormal:0.5',
                conventions: { lpwWork },
              },
              { n: 12, jobs: 4000 },
            ),
          );
// 4. Long queues (n = 1, n = 2 at high load: queue and pool growth), batch means, bench-like larger n.
for (const discipline of ['srpt', 'psjf', 'sprpt', 'fifo'])
  record(
    `long n=1 disc=${discipline}`,
    sim({ lambda: 0.97, d: 1, discipline, service: 'hyperexp:6', prediction: 'exponential' }, { n: 1, jobs: 20000 }),
  );
record('long n=2 srpt', sim({ lambda: 0.98, d: 2, discipline: 'srpt' }, { n: 2, jobs: 30000 }));
record(
  'batch-means srpt',
  sim({ lambda: 0.9, d: 2, discipline: 'srpt', service: 'weibull:0.5' }, { n: 30, jobs: 2000, method: 'batch-means', batches: 5 }),
);
record(
  'bench-like srpt n=1000',
  sim({ lambda: 0.9, d: 2, discipline: 'srpt', sampling: 'without-replacement' }, { n: 1000, jobs: 100000, warmupTime: 20 }),
);
record(
  'bench-like sprpt n=1000',
  sim(
    { lambda: 0.9, d: 2, discipline: 'sprpt', service: 'weibull:0.5', prediction: 'exponential' },
    { n: 1000, jobs: 50000, warmupTime: 20 },
  ),
);
record('jsq d=5 n=5 srpt', sim({ lambda: 0.95, d: 5, discipline: 'srpt', sampling: 'without-replacement' }, { n: 5, jobs: 10000 }));

// 5. Replayed traces with ties (equal arrival times, equal sizes, equal predictions, zero sizes), per-job records.
function trace(N, seed) {
  let x = seed >>> 0;
  const u = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const arrivals = new Float64Array(N);
  const sizes = new Float64Array(N);
  const predictions = new Float64Array(N);
  let t = 0;
  for (let i = 0; i < N; i++) {
    if (u() < 0.7) t += Math.round(u() * 4) / 10; // many equal times
    arrivals[i] = t;
    sizes[i] = u() < 0.05 ? 0 : [0.5, 1, 1, 2, 3][Math.floor(u() * 5)] * (u() < 0.5 ? 1 : 0.75);
    predictions[i] = [0.5, 1, 2][Math.floor(u() * 3)];
  }
  return { arrivals, sizes, predictions };
}
for (const discipline of disciplines)
  for (const selection of ['jsq', 'lpw', 'random'])
    for (const conventions of [{}, { psjfPreemption: 'remaining', sprptOverrun: 'zero', lpwWork: 'signed' }]) {
      const model = parseModel({ lambda: 0.9, d: 2, discipline, selection, conventions, prediction: { kind: 'trace', values: [1] } });
      const w = trace(8000, 11 + discipline.length);
      const { predictions: _p, ...noPred } = w;
      record(
        `replay disc=${discipline} sel=${selection} conv=${JSON.stringify(conventions)} trace-pred`,
        simulateReplay(model, w, { n: 4, seed: 3, batches: 5, record: true }),
      );
      const model2 = parseModel({ lambda: 0.9, d: 2, discipline, selection, conventions, prediction: 'uniform:0.5' });
      record(
        `replay disc=${discipline} sel=${selection} conv=${JSON.stringify(conventions)} sampled-pred`,
        simulateReplay(model2, noPred, { n: 3, seed: 3, batches: 4, record: true }),
      );
    }

// 6. Trajectories (event engine = priority engine for non-FIFO) from a non-empty start.
for (const discipline of ['srpt', 'psjf', 'sprpt', 'spjf', 'sjf'])
  for (const from of [undefined, [1, 0.9, 0.6, 0.3, 0.1]])
    record(
      `trajectory disc=${discipline} from=${from ? 'tail' : 'empty'}`,
      simulateTrajectory(parseModel({ lambda: 0.95, d: 2, discipline, service: 'hyperexp:2', prediction: 'exponential' }), {
        n: 50,
        times: [0, 1, 3, 10, 30],
        from,
        replications: 3,
        seed: 5,
        engine: 'event',
      }),
    );
console.log(`${all.digest('hex').slice(0, 16)}  ALL (${count} configurations)`);
