// Identity check for the engines the other two hash scripts do not reach (scripts/event-engine-hashes.mjs: FIFO event
// engine; scripts/priority-identity.mjs: priority engine): the sharing engine (PS, LAS), server speeds in the FIFO,
// priority and sharing engines, batch arrivals, dispatcher memories, renewal and MMPP arrivals, redundancy-d. One
// SHA-256 prefix per configuration of the result JSON (timings and the code identity removed) and one over all.
// Run it on two builds and diff: `npm run build` (or tsc into a folder), then `node scripts/frame-hashes.mjs [DIST]`.
// NO_ENGINE=1 leaves out the engine's name and method (FIFO with speeds moved from its own engine to the priority engine).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? 'dist');
const { simulate, simulateTrajectory } = await import(pathToFileURL(path.join(dist, 'sim', 'index.js')).href);
const { parseModel } = await import(pathToFileURL(path.join(dist, 'model', 'model.js')).href);

// NO_ENGINE=1 also drops the engine's name and method, to compare results across a change of the engine that runs them
const noEngine = process.env.NO_ENGINE === '1';
const strip = (k, v) => {
  if (typeof k === 'string' && /wall|perSecond|seconds|version/i.test(k)) return undefined;
  if (k === 'code' || (noEngine && (k === 'engine' || k === 'method'))) return undefined;
  if (ArrayBuffer.isView(v)) return Array.from(v);
  return v;
};
const hash = (x) => createHash('sha256').update(JSON.stringify(x, strip)).digest('hex').slice(0, 16);
const all = createHash('sha256');
let count = 0;
function record(name, f) {
  let h;
  try {
    h = hash(f());
  } catch (e) {
    h = 'error ' + String(e.message);
  }
  all.update(name + h);
  count++;
  console.log(`${h}  ${name}`);
}
const sim = (input, opts) => simulate(parseModel(input), { seed: 7, replications: 2, warmupTime: 5, maxLevel: 40, ...opts });
const speeds = { speeds: '1,2', fractions: '0.5,0.5' };

// 1. Sharing engine: PS and LAS × laws × selection (memory too).
for (const discipline of ['ps', 'las'])
  for (const service of ['exp', 'weibull:0.5', 'det', 'hyperexp:4'])
    for (const selection of ['random', 'jsq', 'lwl']) {
      const d = selection === 'random' ? 1 : 2;
      record(`sharing ${discipline} ${service} ${selection}`, () =>
        sim({ lambda: 0.85, d, discipline, service, selection }, { n: 20, jobs: 6000 }),
      );
    }
for (const discipline of ['ps', 'las'])
  for (const memory of ['ip', 'jiq'])
    record(`sharing ${discipline} memory ${memory}`, () =>
      sim({ lambda: 0.85, d: 2, discipline, ...(memory === 'jiq' ? { selection: 'jiq' } : { memory }) }, { n: 30, jobs: 6000 }),
    );
record('sharing ps n=1 long', () => sim({ lambda: 0.97, d: 1, discipline: 'ps', service: 'hyperexp:6' }, { n: 1, jobs: 20000 }));
record('sharing las batch-means', () =>
  sim({ lambda: 0.9, d: 2, discipline: 'las', service: 'weibull:0.5' }, { n: 30, jobs: 2000, method: 'batch-means', batches: 5 }),
);
record('sharing ps trajectory', () =>
  simulateTrajectory(parseModel({ lambda: 0.9, d: 2, discipline: 'ps' }), { n: 50, times: [0, 1, 3, 10], replications: 2, seed: 5 }),
);
// 2. Dispatcher memories in the FIFO event and priority engines.
for (const memory of ['ip', 'cp', 'bcp:3', 'ism:3'])
  for (const discipline of ['fifo', 'srpt'])
    record(`memory ${memory} ${discipline}`, () => sim({ lambda: 0.9, d: 2, discipline, memory }, { n: 40, jobs: 8000, engine: 'event' }));
// 3. Server speeds: FIFO (event engine), priority, sharing; every selection rule that reads speeds.
for (const selection of ['random', 'jsq', 'sed', 'lwl'])
  for (const discipline of ['fifo', 'srpt', 'sjf', 'ps', 'las']) {
    const d = selection === 'random' ? 1 : 2;
    record(`speeds ${selection} ${discipline}`, () =>
      sim(
        { lambda: selection === 'random' ? 0.9 : 1.2, d, selection, discipline, service: 'weibull:0.5', servers: speeds },
        { n: 20, jobs: 6000 },
      ),
    );
  }
record('speeds fifo speed-weighted', () => sim({ lambda: 1.2, d: 2, servers: { ...speeds, sampling: 'speed' } }, { n: 30, jobs: 6000 }));
record('speeds fifo batch-means', () =>
  sim({ lambda: 1.2, d: 2, servers: speeds }, { n: 30, jobs: 2000, method: 'batch-means', batches: 5 }),
);
record('speeds fifo trajectory', () =>
  simulateTrajectory(parseModel({ lambda: 1.2, d: 2, servers: speeds }), { n: 40, times: [0, 1, 3, 10], replications: 2, seed: 5 }),
);
record('speeds fifo bench-like n=1000', () =>
  sim({ lambda: 1.35, d: 2, sampling: 'without-replacement', servers: speeds }, { n: 1000, jobs: 100000, warmupTime: 20 }),
);
// 4. Batches (event engine), spread and whole, jsq and lwl, laws.
for (const batchDispatch of ['spread', 'whole'])
  for (const selection of ['jsq', 'lwl'])
    for (const service of ['exp', 'weibull:0.5'])
      for (const batch of [2, 3])
        record(`batch ${batch} ${batchDispatch} ${selection} ${service}`, () =>
          sim({ lambda: 0.8, d: 3, selection, service, batch, batchDispatch }, { n: 30, jobs: 6000 }),
        );
// 5. Renewal and MMPP arrivals through each engine kind.
for (const arrivals of ['det', 'erlang:2', 'hyperexp:4'])
  for (const discipline of ['fifo', 'srpt', 'ps'])
    record(`arrivals ${arrivals} ${discipline}`, () => sim({ lambda: 0.85, d: 2, discipline, arrivals }, { n: 20, jobs: 6000 }));
// 6. Redundancy-d cancel-on-complete.
for (const replicas of ['independent', 'identical'])
  for (const d of [2, 3])
    record(`redundancy ${replicas} d=${d}`, () =>
      sim({ lambda: 0.4, d, redundancy: 'cancel-on-complete', replicas }, { n: 20, jobs: 6000 }),
    );
console.log(`${all.digest('hex').slice(0, 16)}  ALL (${count} configurations)`);
