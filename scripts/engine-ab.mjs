// Interleaved A/B of simulation engines: several rows (a compiled build, an engine choice and a model), one child process
// per row kept across rounds (so one engine's type feedback does not slow another's; bench/simulator.ts goes further: a
// fresh process per row and round), the rows run in turn each round, the order rotated between rounds; prints each
// row's median events/s over the whole `simulate` call and over the engine loops alone (`run`), by wall and by CPU
// time, the median same-round speed ratio of each row to the first row of the same model preset (its A; > 1: faster),
// and the load average before and after.
// Indicative only on a shared machine (CPU time is the steadier figure there).
//
//   node scripts/engine-ab.mjs [--rounds R] [--events E] ROW...      ROW = label=DIST:ENGINE:MODEL
//   MODEL is one of the presets below; DIST a compiled build (e.g. dist, or a build of main in /tmp/base/dist).
// e.g. node scripts/engine-ab.mjs --rounds 7 a=/tmp/base/dist:event:fifo b=dist:event:fifo
import { fork } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const n = 1000;
const lambda = 0.9;
/** Model presets (the bench's rows: n = 1000, ρ = 0.9, JSQ(2) without replacement). */
const MODELS = {
  fifo: { lambda, d: 2, sampling: 'without-replacement' },
  srpt: { lambda, d: 2, sampling: 'without-replacement', discipline: 'srpt' },
  'srpt-weibull': { lambda, d: 2, sampling: 'without-replacement', discipline: 'srpt', service: 'weibull:0.5' },
  ps: { lambda, d: 2, sampling: 'without-replacement', discipline: 'ps' },
  las: { lambda, d: 2, sampling: 'without-replacement', discipline: 'las' },
  // speeds 1 and 2 in equal halves at ρ = 0.9 (bench/simulator.ts's hetero row)
  hetero: { lambda: 1.35, d: 2, sampling: 'without-replacement', servers: { speeds: '1,2', fractions: '0.5,0.5' } },
  'batch-fifo': { lambda, d: 3, batch: 2 },
  'batch-srpt': { lambda, d: 3, batch: 2, discipline: 'srpt' },
  'batch-ps': { lambda, d: 3, batch: 2, discipline: 'ps' },
};

const self = fileURLToPath(import.meta.url);
if (process.argv[2] === '--child') {
  // Child: one row. The engines' `run` is wrapped (once per replication) to time the loops alone.
  const dist = path.resolve(process.argv[3]);
  const { simulate } = await import(pathToFileURL(path.join(dist, 'sim/index.js')).href);
  const { parseModel } = await import(pathToFileURL(path.join(dist, 'model/model.js')).href);
  const loops = { seconds: 0, cpu: 0 };
  const cpuNow = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  // every class of the build's engine modules (and the frame they inherit `run` from) that defines its own `run`
  const files = ['frame', 'engine', 'priorityEngine', 'sharingEngine', 'heteroEngine', 'race', 'redundancyEngine'];
  for (const f of files) {
    let mod;
    try {
      mod = await import(pathToFileURL(path.join(dist, 'sim', f + '.js')).href);
    } catch {
      continue; // not in this build
    }
    for (const E of Object.values(mod)) {
      if (typeof E !== 'function' || !Object.hasOwn(E.prototype ?? {}, 'run') || Object.hasOwn(E.prototype, '__wrapped')) continue;
      const own = E.prototype.run;
      E.prototype.__wrapped = true;
      E.prototype.run = function (stopTime, onTick) {
        const t0 = performance.now();
        const c0 = cpuNow();
        try {
          return own.call(this, stopTime, onTick);
        } finally {
          loops.seconds += (performance.now() - t0) / 1000;
          loops.cpu += cpuNow() - c0;
        }
      };
    }
  }
  process.on('message', ({ model, engine, events }) => {
    loops.seconds = 0;
    loops.cpu = 0;
    const c0 = cpuNow();
    const m = parseModel(model);
    const rate = m.lambda * n;
    const per = events / 2;
    const r = simulate(m, {
      n,
      engine,
      seed: 11,
      replications: 2,
      warmupTime: (0.1 * per) / (2 * rate),
      jobs: Math.round((0.9 * per) / 2),
    });
    process.send({
      events: r.events,
      seconds: r.wallSeconds,
      loopSeconds: loops.seconds,
      cpu: cpuNow() - c0,
      loopCpu: loops.cpu,
      mean: r.meanResponseTime.mean,
    });
  });
} else {
  const args = process.argv.slice(2);
  let rounds = 5;
  let events = 3e6;
  const rows = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--rounds') rounds = Number(args[++i]);
    else if (args[i] === '--events') events = Number(args[++i]);
    else {
      const [label, spec] = args[i].split('=');
      const [dist, engine, model] = spec.split(':');
      if (!(model in MODELS)) throw new Error(`unknown model preset ${model}; expected ${Object.keys(MODELS).join(', ')}`);
      rows.push({ label, dist, engine, model });
    }
  }
  const load0 = os.loadavg();
  const children = rows.map((r) => fork(self, ['--child', r.dist], { execArgv: [] }));
  const ask = (i) =>
    new Promise((resolve) => {
      children[i].once('message', resolve);
      children[i].send({ model: MODELS[rows[i].model], engine: rows[i].engine, events });
    });
  const results = rows.map(() => []);
  // warm-up round (JIT), not counted
  for (let i = 0; i < rows.length; i++) await ask(i);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < rows.length; k++) {
      const i = (k + r) % rows.length;
      results[i].push(await ask(i));
    }
  }
  for (const c of children) c.kill();
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  console.log(`${rounds} rounds, ${events} events per run, n = ${n}; load average before ${load0.map((x) => x.toFixed(2)).join(' ')}`);
  for (let i = 0; i < rows.length; i++) {
    const rs = results[i];
    const rate = (key) => median(rs.map((x) => x.events / x[key] / 1e6));
    // same-round speed ratio to the first row of the same model preset (the A of this B)
    const a = results[rows.findIndex((row) => row.model === rows[i].model)];
    const ratio = (key) => median(rs.map((x, r) => a[r][key] / a[r].events / (x[key] / x.events)));
    const f = (x) => x.toFixed(2);
    const g = (x) => x.toFixed(3);
    console.log(
      `${rows[i].label.padEnd(12)} ${rows[i].engine.padEnd(9)} ${rows[i].model.padEnd(12)} M events/s: whole ${f(rate('seconds'))} ` +
        `(CPU ${f(rate('cpu'))}), loop ${f(rate('loopSeconds'))} (CPU ${f(rate('loopCpu'))}); vs A: whole ${g(ratio('seconds'))} ` +
        `(CPU ${g(ratio('cpu'))}), loop ${g(ratio('loopSeconds'))} (CPU ${g(ratio('loopCpu'))}); E[T] ${rs[0].mean.toFixed(5)}`,
    );
  }
  console.log(
    `load average after ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
