/**
 * Dispatcher memory in the mean field (theory.md §12; Hellemans 2021, PhD thesis, ch. 6): π₀ closed forms against
 * the memory chains solved another way, the reduction theorem against the thesis's own cavity values and against
 * the closed-form tail u_k = (ρπ₀^{1/d})^{(d^k−1)/(d−1)}/π₀^{1/d} (Theorem closed_SQd), the cavity ODE's fixed
 * point against that tail, and the one-line refusals.
 */
import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import {
  bcpPi0,
  cpPi0,
  ipPi0,
  ismPi0,
  memoryReduction,
  probesPerArrival,
  probingChainLaw,
  memoryLwlTransient,
  memoryPhaseTypeTransient,
  solveMemoryTransient,
} from '../../src/meanfield/memory/index.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { lwlTransient } from '../../src/meanfield/lwl/transient.ts';
import { phaseTypeJsqTransient } from '../../src/meanfield/phaseType/transient.ts';
import { solveMeanField, solveMeanFieldTransient } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/model.ts';

describe('π₀ per memory scheme', () => {
  it('IP: 1/(ρ^d + (1 − ρ)d) equals the (d)-state chain of the thesis', () => {
    for (const rho of [0.1, 0.5, 0.8, 0.95])
      for (const d of [2, 3, 5]) expect(ipPi0(rho, d)).toBeCloseTo(probingChainLaw(rho, d, d - 1, false)[0], 12);
    expect(ipPi0(1e-9, 5)).toBeCloseTo(1 / 5, 8); // the thesis's low-load limit 1/d
  });

  it('BCP d = 2: (1 − q²)/(1 − q^{2(A+1)}) equals the (A + 1)-state chain', () => {
    for (const rho of [0.3, 0.5, 0.7, 0.9])
      for (const A of [1, 2, 5, 20]) {
        const chain = probingChainLaw(rho, 2, A, true)[0];
        expect(bcpPi0(rho, 2, A)).toBeCloseTo(chain, 12);
      }
    expect(bcpPi0(0.5, 2, 4)).toBeCloseTo(1 / 5, 12); // q = 1
  });

  it('CP: (1 − d(1 − ρ))/ρ^d is the large-A limit of the BCP chain, 0 once d ≥ 1/(1 − ρ)', () => {
    for (const [rho, d] of [
      [0.8, 3],
      [0.9, 4],
      [0.7, 2],
    ])
      expect(bcpPi0(rho, d, 4000)).toBeCloseTo(cpPi0(rho, d), 9);
    expect(cpPi0(0.5, 3)).toBe(0);
    expect(bcpPi0(0.5, 3, 400)).toBeLessThan(1e-12);
  });

  it('ISM: (1 − (1 − ρ^d)^{1/(A+1)})/ρ^d solves the birth–death self-consistency π₀ = 1/Σ_{i≤A} (1 − π₀ρ^d)^i', () => {
    for (const [rho, d, A] of [
      [0.85, 2, 10],
      [0.5, 1, 3],
      [0.95, 5, 4],
      [0.3, 2, 1],
    ]) {
      const g = (p: number) => {
        const r = 1 - p * rho ** d;
        let s = 0;
        for (let i = 0; i <= A; i++) s += r ** i;
        return p - 1 / s;
      };
      let lo = 1e-12;
      let hi = 1;
      for (let k = 0; k < 200; k++) {
        const mid = (lo + hi) / 2;
        if (g(mid) > 0) hi = mid;
        else lo = mid;
      }
      expect(ismPi0(rho, d, A)).toBeCloseTo(lo, 10);
    }
    expect(ismPi0(1e-7, 3, 4)).toBeCloseTo(1 / 5, 8); // the thesis's low-load limit 1/(A + 1)
    expect(ismPi0(0.9, 1, Infinity)).toBe(0); // classic JIQ
  });

  it('probes per arrival: IP sends π₀d, as Prop. nr_probes gives (1 − π₀ρ^d)/(1 − ρ)', () => {
    const rho = 0.7;
    const d = 3;
    expect(probesPerArrival({ kind: 'ip', capacity: d - 1 }, rho, d)).toBeCloseTo(ipPi0(rho, d) * d, 12);
    expect(probesPerArrival({ kind: 'cp', capacity: Infinity }, rho, d)).toBe(d);
  });
});

/** The thesis's cavity column of its finite-system table (ch. 6, Table fin_acc); the slow LL(3) BCP setup is in scripts/memory-table.ts. */
const THESIS_CAVITY: [string, number, number, string, string, number][] = [
  ['lwl', 4, 0.9, 'exp', 'ip', 1.2583],
  ['lwl', 3, 0.8, 'exp', 'cp', 1.1787],
  ['jsq', 4, 0.9, 'exp', 'ip', 1.7138],
  ['jsq', 3, 0.8, 'exp', 'cp', 1.4256],
  ['jsq', 3, 0.8, 'hyperexp:2', 'bcp:5', 1.566],
  ['jsq', 2, 0.85, 'hyperexp:3', 'ism:10', 1.2056],
];

describe('the reduction theorem (memory at λ ≡ no memory at λπ₀^{1/d})', () => {
  it("reproduces the thesis's cavity values to its four decimals", () => {
    for (const [selection, d, lambda, service, memory, value] of THESIS_CAVITY) {
      const s = solveMeanField(parseModel({ lambda, d, selection, service, memory }));
      expect(Math.abs(s.meanResponseTime - value), `${selection} ${d} ${memory}`).toBeLessThan(6e-5);
      expect(s.kind).toBe('exact');
    }
  });

  it('fixed-point E[T] of every scheme equals the closed-form tail of Theorem closed_SQd through Little', () => {
    for (const memory of ['ip', 'cp', 'bcp:1', 'bcp:4', 'ism:1', 'ism:10']) {
      for (const [lambda, d] of [
        [0.9, 2],
        [0.7, 3],
      ]) {
        const model = parseModel({ lambda, d, memory });
        const { pi0 } = memoryReduction(model);
        let sum = 0;
        for (let k = 1; k < 60; k++) sum += (lambda * pi0 ** (1 / d)) ** ((d ** k - 1) / (d - 1)) / pi0 ** (1 / d);
        const s = solveMeanField(model);
        expect(s.meanResponseTime, `${memory} λ=${lambda} d=${d}`).toBeCloseTo(sum / lambda, 10);
        expect(s.reduction?.pi0).toBe(pi0);
        // the tails scale by π₀^{−1/d}, and u_1 = ρ
        expect(s.tail?.[1]).toBeCloseTo(lambda, 12);
      }
    }
  });

  it('π₀ = 0 (CP with d ≥ 1/(1 − ρ)) gives T = S exactly', () => {
    const s = solveMeanField(parseModel({ lambda: 0.5, d: 3, memory: 'cp' }));
    expect(s.meanResponseTime).toBe(1);
    expect(s.reduction?.pi0).toBe(0);
  });

  it('d = 1 with ISM (JIQ with memory A) is M/G/1 at rate λπ₀ for any discipline', () => {
    const lambda = 0.9;
    const A = 3;
    const pi0 = ismPi0(lambda, 1, A);
    for (const discipline of ['fifo', 'srpt']) {
      const withMemory = solveMeanField(parseModel({ lambda, d: 1, memory: `ism:${A}`, discipline, service: 'hyperexp:4' }));
      const reduced = solveMeanField(parseModel({ lambda: lambda * pi0, d: 1, selection: 'random', discipline, service: 'hyperexp:4' }));
      expect(withMemory.meanResponseTime).toBeCloseTo(reduced.meanResponseTime, 12);
    }
  });

  it('classic JIQ (--selection jiq: unbounded ISM, d = 1) has π₀ = 0 and T = S; jiq with ism:A is M/G/1 at λπ₀', () => {
    const jiq = solveMeanField(parseModel({ lambda: 0.95, d: 1, selection: 'jiq', service: 'hyperexp:4' }));
    expect(jiq.meanResponseTime).toBe(1);
    expect(jiq.reduction?.pi0).toBe(0);
    const pi0 = ismPi0(0.9, 1, 3);
    const finite = solveMeanField(parseModel({ lambda: 0.9, d: 1, selection: 'jiq', memory: 'ism:3' }));
    expect(finite.meanResponseTime).toBeCloseTo(1 / (1 - 0.9 * pi0), 12); // M/M/1 at rate λπ₀
    // jiq samples no servers (samplesD false): d is taken as 1, as for random selection
    expect(solveMeanField(parseModel({ lambda: 0.9, d: 2, selection: 'jiq', memory: 'ism:3' })).meanResponseTime).toBe(
      finite.meanResponseTime,
    );
    expect(() => parseModel({ lambda: 0.9, d: 1, selection: 'jiq', memory: 'ip' })).toThrow(/memory must be none \(unbounded\) or ism:A/);
  });

  it('refuses disciplines other than FIFO at d ≥ 2 in one line', () => {
    expect(() => solveMeanField(parseModel({ lambda: 0.9, d: 2, memory: 'ism:5', discipline: 'srpt' }))).toThrow(
      /no mean-field solver for memory ism:5 with discipline srpt/,
    );
  });
});

describe('the cavity ODE with memory (Prop. trans)', () => {
  it('reaches the reduction fixed point from empty (IP, BCP, ISM)', () => {
    for (const memory of ['ip', 'bcp:3', 'ism:4']) {
      const model = parseModel({ lambda: 0.8, d: 2, memory });
      const { pi0 } = memoryReduction(model);
      const tr = solveMemoryTransient(model, { times: [0, 300] });
      const u = tr.tail[1];
      for (let k = 1; k <= 5; k++) {
        const expected = (0.8 * pi0 ** 0.5) ** (2 ** k - 1) / pi0 ** 0.5;
        expect(Math.abs(u[k] - expected), `${memory} u_${k}`).toBeLessThan(1e-7);
      }
    }
  });

  it('refuses models outside SQ(d) FIFO exponential', () => {
    expect(() => solveMemoryTransient(parseModel({ lambda: 0.8, d: 2, memory: 'ip', selection: 'lwl' }), { times: [0, 1] })).toThrow(
      InvalidModelError,
    );
  });
});

describe('the phase-type ODE with memory (SQ(d), FIFO)', () => {
  it('reaches the reduction fixed point λE[T] from empty (IP, CP, ISM; hyperexponential and Erlang sizes)', () => {
    for (const [memory, service] of [
      ['ip', 'hyperexp:3'],
      ['cp', 'erlang:2'],
      ['ism:5', 'hyperexp:3'],
    ]) {
      const model = parseModel({ lambda: 0.85, d: 3, memory, service });
      const capability = meanFieldCapabilities(model).transient;
      expect(capability.available && capability.id, `${memory} ${service}`).toBe('memory-phase-type-ode');
      const r = solveMeanFieldTransient(model, [0, 50, 400]);
      if (r.solver !== 'memory-phase-type-ode') throw new Error(`expected the phase-type memory ODE, got ${r.solver}`);
      const limit = model.lambda * solveMeanField(model).meanResponseTime;
      expect(Math.abs(r.result.meanQueueLength[2] - limit), `${memory} ${service}`).toBeLessThan(1e-7);
      expect(r.result.meanQueueLength[1]).toBeLessThan(limit); // from empty it rises towards it
      expect(r.result.provenance.model.memory.kind).toBe(memory.replace(/:.*/, ''));
    }
  });

  it('with exponential sizes equals the cavity ODE of Prop. trans', () => {
    const model = parseModel({ lambda: 0.85, d: 3, memory: 'bcp:3' });
    const times = [0, 5, 20, 100];
    const ph = memoryPhaseTypeTransient(model, { times });
    const ode = solveMemoryTransient(model, { times });
    for (let j = 0; j < times.length; j++) expect(ph.meanQueueLength[j]).toBeCloseTo(ode.meanQueueLength[j], 8);
  });

  it('a routing with π₀ ≡ 1 is the phase-type ODE without memory, number for number', () => {
    const model = parseModel({ lambda: 0.85, d: 3, service: 'hyperexp:3' });
    const times = [0, 3, 30];
    const plain = phaseTypeJsqTransient(model, { times });
    const routed = phaseTypeJsqTransient(model, { times, routing: { pi0: () => 1 } });
    expect(routed.tail).toEqual(plain.tail);
    // and meanFieldCapabilities keeps the model without memory on today's solver
    const capability = meanFieldCapabilities(model).transient;
    expect(capability.available && capability.id).toBe('phase-type-ode');
  });

  it('refuses deterministic sizes and non-FIFO SQ(d) through the capability, with the reason', () => {
    for (const input of [
      { lambda: 0.8, d: 2, memory: 'ip', service: 'det' },
      { lambda: 0.8, d: 2, memory: 'ip', discipline: 'ps', service: 'hyperexp:2' },
    ]) {
      const capability = meanFieldCapabilities(parseModel(input)).transient;
      expect(capability.available).toBe(false);
      if (!capability.available) expect(capability.reason).toMatch(/^no transient solver for memory .*: the phase-type memory ODE/);
    }
  });
});

describe('the LL(d) workload PIDE with memory', () => {
  it('reaches the reduction fixed point: busy fraction ρ, E[U] of the reduced rate over π₀^{1/d} (within the O(Δ) scheme error)', () => {
    for (const [memory, service, d] of [
      ['ip', 'exp', 3],
      ['ism:5', 'hyperexp:2', 2],
    ] as const) {
      const model = parseModel({ lambda: 0.8, d, memory, service, selection: 'lwl' });
      const capability = meanFieldCapabilities(model).transient;
      expect(capability.available && capability.id).toBe('memory-lwl-pide');
      const options = { times: [0, 60], includeCcdf: false, step: 0.05, horizon: 60 };
      const tr = memoryLwlTransient(model, options);
      const { reducedLambda, scale } = memoryReduction(model);
      const reduced = lwlTransient(parseModel({ lambda: reducedLambda, d, service, selection: 'lwl' }), options);
      expect(tr.busyFraction[1]).toBeCloseTo(0.8, 6);
      expect(Math.abs(tr.meanWorkload[1] - reduced.meanWorkload[1] / scale), memory).toBeLessThan(0.01);
      expect(tr.provenance.model.memory.kind).toBe(memory.replace(/:.*/, ''));
    }
  });
});

describe('memory settings that mean nothing are refused in one line', () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ memory: 'bcp:0' }, /memory size A must be an integer ≥ 1, got 0/],
    [{ memory: 'ism' }, /ism needs a memory size/],
    [{ memory: 'bcp' }, /bcp needs a memory size/],
    [{ memory: 'ip:3' }, /ip takes no size/],
    [{ memory: 'lru' }, /unknown memory "lru"/],
    [{ memory: 'ip', selection: 'random' }, /with random selection: use --selection jiq/],
    [{ memory: 'ism:3', selection: 'lpw' }, /works with jsq .* or lwl/],
    [{ memory: 'cp', d: 1 }, /has no effect with d = 1/],
  ];
  for (const [input, message] of bad) {
    it(JSON.stringify(input), () => {
      expect(() => parseModel({ lambda: 0.9, d: 2, ...input })).toThrow(message);
      try {
        parseModel({ lambda: 0.9, d: 2, ...input });
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidModelError);
        expect((error as Error).message).not.toContain('\n');
      }
    });
  }
});
