/**
 * `mg1 --json` and `fixed-point --json` write an infinite mean as the ∞ object `{ mean: null, infinite: true, reason }`
 * (io/jsonText.ts), never a number and never a bare null; `mg1 --all` keeps every row. Before: E[T] = ∞ was a bare
 * null (the reason only in `infiniteReason`), E[T/S] and E[U] bare nulls with no reason at all.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../src/io/index.ts';
import { runCli } from './runCli.ts';

const INF = { mean: null, infinite: true, reason: expect.stringMatching(/\S/) };

describe('mg1 and fixed-point --json: ∞ as one object with its reason', () => {
  it('mg1 --help no longer says "meanSlowdown null when infinite" (it is the ∞ object, as the test below checks)', async () => {
    const r = await runCli('mg1 --help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--json +print one JSON object on stdout\n/);
    expect(r.stdout).not.toMatch(/null when infinite/);
  });

  it('mg1 --json, SPRPT with exp predictions over pareto:1.5: E[T], E[T] − E[S], E[Q], E[T/S], E[U] are ∞ objects', async () => {
    const r = await runCli('mg1 --lambda 0.5 --service pareto:1.5 --discipline sprpt --prediction exp --json');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    for (const key of ['meanResponseTime', 'meanWaitingTime', 'meanQueueLength', 'meanSlowdown', 'meanWorkload'])
      expect(j[key], key).toEqual(INF);
    expect(j.meanResponseTime.reason).toMatch(/SPRPT with exponential predictions runs a job past its prediction/);
    expect(j.meanWorkload.reason).toMatch(/λE\[S²\]\/2/);
    expect(j.responseTimeFinite).toBe(false);
    // read back as +∞ by the project's reader
    expect((parseJsonText(r.stdout) as { meanResponseTime: { mean: number } }).meanResponseTime.mean).toBe(Infinity);
  });

  it('mg1 --all --json: finite rows keep numbers, ∞ rows the object, and every discipline has its row', async () => {
    const r = await runCli('mg1 --lambda 0.5 --service pareto:1.5 --prediction exp --all --json');
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout).results as { provenance: { model: { discipline: string } }; meanResponseTime: unknown }[];
    expect(rows.map((x) => x.provenance.model.discipline)).toEqual(['fifo', 'sjf', 'psjf', 'srpt', 'spjf', 'pspjf', 'sprpt', 'ps', 'las']);
    const at = (d: string) => rows.find((x) => x.provenance.model.discipline === d)!.meanResponseTime;
    for (const d of ['fifo', 'sjf', 'spjf', 'sprpt']) expect(at(d), d).toEqual(INF);
    for (const d of ['psjf', 'srpt', 'pspjf', 'ps', 'las']) expect(typeof at(d), d).toBe('number');
  });

  it('mg1 --all (text): the ∞ rows are followed by their reasons', async () => {
    const r = await runCli('mg1 --lambda 0.5 --service pareto:1.5 --prediction exp --all');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/sprpt\s+∞/);
    expect(r.stdout).toMatch(/∞ \(sprpt\): E\[S²\] = ∞ \(pareto α = 1\.5 ≤ 2\): SPRPT with exponential predictions/);
    expect(r.stdout).toMatch(/∞ \(fifo\): E\[S²\] = ∞ .*FIFO waits the residual/);
    expect(r.stdout).not.toMatch(/NaN|Infinity|null/);
  });

  it('fixed-point --json at d = 1 with SPRPT exp predictions and pareto:1.5: the ∞ object, responseTimeFinite false', async () => {
    const r = await runCli(
      'fixed-point --lambda 0.5 --d 1 --selection random --discipline sprpt --prediction exp --service pareto:1.5 --json',
    );
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.meanResponseTime).toEqual(INF);
    expect(j.meanResponseTime.reason).toBe(j.infiniteReason);
    expect(j.responseTimeFinite).toBe(false);
    // LWL(2) FIFO pareto:1.5: infinite in the limit (E[S^{3/2}] = ∞), the same form, E[Q] too
    const lwl = JSON.parse((await runCli('fixed-point --lambda 0.5 --d 2 --selection lwl --service pareto:1.5 --json')).stdout);
    expect(lwl.meanResponseTime).toEqual(INF);
    expect(lwl.meanQueueLength).toEqual(INF);
    // JSQ(2) FIFO pareto:1.5: E[T]∞ not settled (theory.md §8), so neither ∞ nor a number: one line, exit 2, and
    // stdout the refusal as JSON (cli/errors.ts refusalsAsJson), no value
    const jsq = await runCli('fixed-point --lambda 0.5 --d 2 --service pareto:1.5 --json');
    expect(jsq.status).toBe(2);
    expect(JSON.parse(jsq.stdout)).toEqual({ failed: expect.stringMatching(/^E\[T\]∞ not settled/), exitCode: 2 });
    expect(jsq.stderr).toMatch(/E\[T\]∞ not settled/);
  });
});
