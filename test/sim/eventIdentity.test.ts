/**
 * The FIFO event engine's and the priority engine's loops pinned bit for bit (issue 23): their loops were rewritten for
 * speed (values in fixed representations; the FIFO engine's JSQ(2) arrivals read the Rng's buffer in place, with
 * jsqPair and both nextExp written out), and these hashes were recorded from the loops before that (main at 51ce9a6)
 * by running this file there with RECORD=1. Each case runs one replication's engine alone (no summaries, so a change to
 * the percentile intervals or the warm-up check does not touch the pins) and hashes its final state: time, event and
 * arrival counts, queue lengths, occupancy counts/areas/last times of the levels in use, the measured sums, the stored
 * response times, and the Rng's next 600 outputs (so a stream read one output too far or too short shows). Cases: the
 * bench model (JSQ(2) without replacement, n = 1000: the in-place path, ziggurat tails and wedges), n = 50 000 with
 * replacement (the pair rule's rejection redraws ~58 % of pairs), n = 3 (queues past the ring's first capacity), JSQ(3)
 * (the general selection entry), and SRPT and SPRPT on the priority engine.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseModel, type ModelInput } from '../../src/model/model.ts';
import { createEngine, planSimulation } from '../../src/sim/simulate.ts';
import { initialState } from '../../src/sim/initialState.ts';
import { Measurement } from '../../src/sim/measurement.ts';
import type { EngineKind } from '../../src/sim/core.ts';
import { Rng, streamSeed } from '../../src/stats/rng.ts';

/** sha256 (16 hex digits) of one replication's final engine state after `run(∞)`. */
function loopHash(input: ModelInput, n: number, engine: EngineKind, jobs: number, warmupTime: number, seed: number): string {
  const plan = planSimulation(parseModel(input), { n, engine, seed, replications: 2, jobs, warmupTime });
  const rng = new Rng(streamSeed(plan.master, 0));
  const state = initialState(plan.config, plan.kind, rng, new Measurement(plan.warmupTime, plan.jobs));
  const e = createEngine(plan.kind, plan.config, state);
  e.run(Infinity);
  const m = state.measurement;
  const o = state.occupancy;
  let top = 0;
  for (let i = 0; i < o.count.length; i++) if (o.count[i] !== 0 || o.area[i] !== 0) top = i;
  const next = new Int32Array(600).map(() => rng.nextInt32());
  const parts: (number | ArrayBufferView)[] = [
    state.t,
    e.events,
    e.arrivals,
    state.store.len,
    Float64Array.from(o.count.subarray(0, top + 1)),
    o.area.subarray(0, top + 1),
    o.last.subarray(0, top + 1),
    m.measuredArrivals,
    m.measuredInSystem,
    m.sumResponse,
    m.completed,
    m.sumSlowdown,
    m.slowdownJobs,
    state.workload.area,
    m.responses.subarray(0, m.sampled),
    next,
  ];
  const h = createHash('sha256');
  for (const p of parts) {
    if (typeof p === 'number') h.update(new Float64Array([p]));
    else h.update(new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
  }
  return h.digest('hex').slice(0, 16);
}

const weibull = { kind: 'weibull', shape: 0.5, mean: 1 } as const;
const cases: [string, () => string, string][] = [
  [
    'bench model: JSQ(2) without replacement, n = 1000',
    () => loopHash({ lambda: 0.9, d: 2, sampling: 'without-replacement' }, 1000, 'event', 100_000, 20, 1),
    '24df12617bb3e4a4',
  ],
  [
    'JSQ(2) with replacement, n = 50 000 (pair rejection)',
    () => loopHash({ lambda: 0.9, d: 2 }, 50_000, 'event', 100_000, 2, 3),
    'ba47eb5b82275121',
  ],
  ['JSQ(2), n = 3, λ = 0.95 (long queues)', () => loopHash({ lambda: 0.95, d: 2 }, 3, 'event', 50_000, 10, 5), 'aa83a1b9829a4df9'],
  ['JSQ(3), n = 100 (general selection)', () => loopHash({ lambda: 0.9, d: 3 }, 100, 'event', 50_000, 10, 7), 'abf9575bdb6ddbee'],
  [
    'SRPT, exponential, n = 1000',
    () => loopHash({ lambda: 0.9, d: 2, discipline: 'srpt' }, 1000, 'priority', 100_000, 20, 1),
    'cfdf366e48ded130',
  ],
  [
    'SPRPT, Weibull k = 1/2, exponential predictions, n = 200',
    () =>
      loopHash(
        { lambda: 0.9, d: 2, discipline: 'sprpt', service: weibull, prediction: { kind: 'exponential' } },
        200,
        'priority',
        50_000,
        20,
        2,
      ),
    'aecd28b63327276d',
  ],
];

describe('event and priority engine loops: bit for bit what they gave before issue 23', () => {
  if (process.env.RECORD) {
    it('records', () => {
      for (const [name, run] of cases) console.log(JSON.stringify([name, run()]));
    });
    return;
  }
  for (const [name, run, pin] of cases) {
    it(
      name,
      () => {
        expect(run()).toBe(pin);
      },
      600_000,
    );
  }
});
