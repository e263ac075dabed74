/**
 * Issue 21 leftovers: every per-replication value of `simulate --json` follows the finiteness rule (a unit's sample
 * average of a quantity infinite in theory is encoded as infinite, its value kept as sampleMean), and library results
 * carry the code identity that cells and shards record (runs/codeIdentity.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseJsonText, jsonText } from '../../src/io/index.ts';
import {
  mg1,
  refine,
  refineSecondOrder,
  solveExact,
  solveMeanField,
  solveMeanFieldTransient,
  solveSqdFixedPoint,
} from '../../src/meanfield/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { codeIdentity } from '../../src/runs/codeIdentity.ts';
import { simulate, simulateTrajectory, simulationJson } from '../../src/sim/index.ts';
import { runCli } from '../cli/runCli.ts';

const options = { n: 10, jobs: 400, replications: 2, seed: 5, warmupTime: 5 };

describe('per-replication values follow the finiteness rule', () => {
  it('simulationJson: E[T/S] of JSQ+FIFO (E[1/S] = ∞) is infinite in every unit too; E[T] stays a number', () => {
    const r = simulate(parseModel({ lambda: 0.7, d: 2 }), options);
    const json = parseJsonText(jsonText(simulationJson(r))) as { perReplication: Record<string, unknown>[] };
    expect(json.perReplication).toHaveLength(2);
    json.perReplication.forEach((unit, i) => {
      expect(unit.meanSlowdown).toMatchObject({ infinite: true, mean: Infinity, sampleMean: r.perReplication[i].meanSlowdown });
      expect(unit.meanResponseTime).toBe(r.perReplication[i].meanResponseTime);
    });
  });

  it('FIFO with pareto:1.5 sizes: E[T], E[Q] and E[U] are infinite per unit; SRPT keeps finite units', () => {
    const fifo = simulationJson(simulate(parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5' }), options));
    for (const unit of fifo.perReplication as Record<string, { infinite?: boolean }>[]) {
      expect(unit.meanResponseTime.infinite).toBe(true);
      expect(unit.meanQueueLength.infinite).toBe(true);
    }
    const srpt = simulationJson(simulate(parseModel({ lambda: 0.5, d: 2, discipline: 'srpt', service: 'exp' }), options));
    for (const unit of srpt.perReplication as Record<string, unknown>[]) expect(typeof unit.meanResponseTime).toBe('number');
  });

  it('E[T] not settled (pareto:1.9, d = 3 without replacement): each unit and `finiteness` say so, no number, no finite: true', () => {
    const model = parseModel({ lambda: 0.5, d: 3, service: 'pareto:1.9', sampling: 'without-replacement' });
    const r = simulate(model, options);
    const json = parseJsonText(jsonText(simulationJson(r))) as {
      perReplication: Record<string, { unsettled?: boolean; sampleMean?: number }>[];
      finiteness: Record<string, { finite?: unknown; unsettled?: boolean }>;
    };
    json.perReplication.forEach((unit, i) => {
      for (const key of ['meanResponseTime', 'meanQueueLength', 'meanSlowdown'])
        expect(unit[key], key).toMatchObject({
          unsettled: true,
          sampleMean: (r.perReplication[i] as unknown as Record<string, number>)[key],
        });
      expect(unit.meanWorkload).toMatchObject({ infinite: true });
    });
    for (const key of ['meanResponseTime', 'meanQueueLength', 'meanSlowdown'])
      expect(json.finiteness[key], key).toMatchObject({ finite: null, unsettled: true });
    expect(json.finiteness.meanWorkload).toMatchObject({ finite: false });
  });

  it('simulate --json prints infinite per-replication slowdowns in the one encoding (mean null, infinite true)', async () => {
    const r = await runCli('simulate --lambda 0.7 --d 2 --n 10 --jobs 400 --replications 2 --warmup 5 --json --no-progress --threads 1');
    expect(r.status, r.stderr).toBe(0);
    const unit = JSON.parse(r.stdout).perReplication[0];
    expect(unit.meanSlowdown).toMatchObject({ mean: null, infinite: true });
    expect(typeof unit.meanSlowdown.sampleMean).toBe('number');
  });
});

describe('library results know their code', () => {
  it('simulate, simulateTrajectory and the SQ(d) fixed point carry provenance.code = codeIdentity()', () => {
    const model = parseModel({ lambda: 0.7, d: 2 });
    const code = codeIdentity();
    expect(code).toMatch(/^(git|dist|src):/);
    expect(simulate(model, options).provenance.code).toBe(code);
    expect(simulateTrajectory(model, { n: 10, times: [0, 1], replications: 2, seed: 1 }).provenance.code).toBe(code);
    expect(solveSqdFixedPoint(model).provenance.code).toBe(code);
  });

  it('every mean-field result carries provenance.code: solveMeanField (each solver kind), transients, refined terms, exact chains, M/G/1', () => {
    const code = codeIdentity();
    const models = [
      parseModel({ lambda: 0.7, d: 2 }), // SQ(d) closed form
      parseModel({ lambda: 0.7, d: 2, discipline: 'srpt' }), // priority fixed point
      parseModel({ lambda: 0.7, d: 2, selection: 'lwl' }), // LWL closed form
      parseModel({ lambda: 0.7, d: 1, selection: 'random', service: 'weibull:0.5' }), // M/G/1
      parseModel({ lambda: 0.7, d: 2, memory: 'bcp:3' }), // through the memory reduction
      parseModel({ lambda: 0.7, d: 2, batch: 2 }), // SQ(d,K)
    ];
    for (const m of models) expect(solveMeanField(m).provenance.code, m.selection).toBe(code);
    const sqd = models[0];
    expect(solveMeanFieldTransient(sqd, [0, 1]).result.provenance.code).toBe(code);
    expect(refine(sqd).provenance.code).toBe(code);
    expect(refineSecondOrder(sqd).provenance.code).toBe(code);
    expect(solveExact(sqd, { n: 3 }).provenance.code).toBe(code);
    expect(mg1(models[3]).provenance.code).toBe(code);
  });

  it('fixed-point --json and simulate --json name the code', async () => {
    const fp = await runCli('fixed-point --lambda 0.7 --d 2 --discipline srpt --json');
    expect(JSON.parse(fp.stdout).provenance.code).toBe(codeIdentity());
    const sim = await runCli('simulate --lambda 0.7 --d 2 --n 10 --jobs 200 --replications 2 --warmup 1 --json --no-progress --threads 1');
    expect(JSON.parse(sim.stdout).provenance.code).toBe(codeIdentity());
  });
});
