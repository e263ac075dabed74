/**
 * Loop priming (src/sim/frame.ts, issue 23): before the first run of a loop shape in a thread, the engine's `advance` runs
 * every phase on a private state with its own constant stream, so that V8 optimises the loop once. Nothing a run reports
 * may change: each model here is simulated with priming off, then on (a fresh set of primed shapes, so every shape is
 * primed just before its run), and the results must agree bit for bit. The models cover the FIFO event engine (the
 * JSQ(2) in-place path, the general selection entry, LWL with Weibull sizes, dispatcher memory), the priority engine
 * (SRPT, SPRPT with predictions, heterogeneous servers), the sharing engine (PS, LAS) and the race engine's TypeScript
 * loop (src/sim/race.ts: the JSQ(2) pair with and without replacement, d i.i.d. draws, Fisher–Yates, queues past a
 * server record; its priming twin also redraws half of its Lemire draws, which must not reach the real run).
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/model.ts';
import { simulate, type SimulateOptions } from '../../src/sim/index.ts';
import { primedLoopShapes, setLoopPriming } from '../../src/sim/frame.ts';
import { setRaceLoop } from '../../src/sim/race.ts';

const strip = (r: unknown) => JSON.stringify(r, (k, v) => (k === 'wallSeconds' || k === 'eventsPerSecond' ? undefined : (v as unknown)));
const weibull = { kind: 'weibull', shape: 0.5, mean: 1 } as const;

const runs: [Parameters<typeof parseModel>[0], Omit<SimulateOptions, 'warmupTime'>][] = [
  [
    { lambda: 0.9, d: 2, sampling: 'without-replacement' },
    { n: 300, engine: 'event', jobs: 20_000 },
  ],
  [
    { lambda: 0.9, d: 3 },
    { n: 100, engine: 'event', jobs: 20_000 },
  ],
  [
    { lambda: 0.8, d: 2, selection: 'lwl', service: weibull },
    { n: 50, engine: 'event', jobs: 20_000 },
  ],
  [
    { lambda: 0.8, d: 1, selection: 'jiq' },
    { n: 200, engine: 'event', jobs: 20_000 },
  ],
  [
    { lambda: 0.9, d: 2, discipline: 'srpt' },
    { n: 300, engine: 'priority', jobs: 20_000 },
  ],
  [
    { lambda: 0.8, d: 2, discipline: 'sprpt', service: weibull, prediction: { kind: 'exponential' } },
    { n: 100, jobs: 20_000 },
  ],
  [
    { lambda: 0.6, d: 2, servers: { speeds: [1, 2], fractions: [0.5, 0.5] } },
    { n: 100, jobs: 20_000 },
  ],
  [
    { lambda: 0.9, d: 2, discipline: 'ps' },
    { n: 200, jobs: 20_000 },
  ],
  [
    { lambda: 0.8, d: 2, discipline: 'las', service: weibull },
    { n: 100, jobs: 20_000 },
  ],
];

describe('loop priming', () => {
  it('leaves every result bit for bit as it was without it, and primes each loop shape once per thread', () => {
    const all = (): string[] =>
      runs.map(([model, options]) => strip(simulate(parseModel(model), { seed: 7, replications: 2, warmupTime: 20, ...options })));
    const was = setLoopPriming(false);
    let unprimed: string[];
    try {
      unprimed = all();
      expect(primedLoopShapes()).toBe(0);
      setLoopPriming(true); // on, with no shape primed yet: each run below primes its shape first
      const primed = all();
      expect(primed).toEqual(unprimed);
      const shapes = primedLoopShapes();
      expect(shapes).toBeGreaterThanOrEqual(runs.length - 1); // one shape per model (two runs may share one)
      // a second pass primes nothing new and still gives the same numbers
      expect(all()).toEqual(unprimed);
      expect(primedLoopShapes()).toBe(shapes);
    } finally {
      setLoopPriming(was);
    }
  }, 600_000);
});

/** Race models (exponential FIFO JSQ(d): `simulate` runs the race engine), each a loop shape of its own. */
const raceRuns: [Parameters<typeof parseModel>[0], number][] = [
  [{ lambda: 0.9, d: 2 }, 300],
  [{ lambda: 0.9, d: 2, sampling: 'without-replacement' }, 100],
  [{ lambda: 0.9, d: 3 }, 100],
  [{ lambda: 0.9, d: 3, sampling: 'without-replacement' }, 50],
  [{ lambda: 0.95, d: 1 }, 20], // queues past 7 jobs: the spill area grows
];

describe('race loop priming', () => {
  it('primes the TypeScript race loop once per shape, and leaves every result bit for bit as it was', () => {
    const all = (): string[] =>
      raceRuns.map(([model, n]) => strip(simulate(parseModel(model), { n, seed: 3, replications: 2, jobs: 20_000, warmupTime: 20 })));
    const wasLoop = setRaceLoop('typescript');
    const wasPriming = setLoopPriming(false);
    try {
      const unprimed = all();
      setLoopPriming(true);
      expect(all()).toEqual(unprimed);
      expect(primedLoopShapes()).toBe(raceRuns.length);
      expect(all()).toEqual(unprimed);
      expect(primedLoopShapes()).toBe(raceRuns.length);
      // the WebAssembly kernel's loop is not V8's to optimise: nothing is primed for it, and it gives the same numbers
      setRaceLoop('wasm');
      setLoopPriming(true);
      expect(all()).toEqual(unprimed);
      expect(primedLoopShapes()).toBe(0);
    } finally {
      setLoopPriming(wasPriming);
      setRaceLoop(wasLoop);
    }
  }, 600_000);
});
