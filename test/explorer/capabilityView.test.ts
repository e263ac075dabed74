/**
 * The explorer asks the capability query the CLI asks (meanFieldCapabilities): what it shows for a model is what
 * `supermarket fixed-point` computes — the fixed point, the refined term, the transient and the response-time law
 * exactly where the query names them, and the query's reason as a note where it does not; the heading is the CLI's
 * policy name; E[Q] has the CLI's unit (replicas per server for redundancy-d, from `meanQueueLengthUnit`); speed classes,
 * π₀ and probes get rows; no SQ(d) relaxation time is shown for servers with speeds.
 */
import { describe, expect, it } from 'vitest';
import { parseModel, policyName, type ModelInput } from '../../src/model/index.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { meanQueueLengthUnit, solveMeanField } from '../../src/meanfield/solve.ts';
import { exploreView, solutionRows } from '../../src/explorer/view.ts';
import { explorerFigures } from '../../src/explorer/figures.ts';
import { runCli } from '../cli/runCli.ts';

const speeds = { speeds: [1, 4], fractions: [0.8, 0.2], sampling: 'speed' } as const;

describe('explorer and CLI: one capability query', () => {
  it('each part is present exactly where the query names it, else a note with its reason', () => {
    const inputs: ModelInput[] = [
      { lambda: 0.9, d: 2 },
      { lambda: 0.5, d: 2, redundancy: 'cancel-on-complete' },
      { lambda: 0.7, d: 1, selection: 'random', servers: speeds },
      { lambda: 0.7, d: 1, selection: 'random', servers: speeds, service: 'erlang:2' },
      { lambda: 0.9, d: 1, service: 'pareto:1.5' },
      { lambda: 0.8, d: 2, memory: 'ip' },
      { lambda: 0.6, d: 2, batch: 2 },
    ];
    for (const input of inputs) {
      const model = parseModel(input);
      const caps = meanFieldCapabilities(model);
      const view = exploreView(input, 20);
      const what = JSON.stringify(input);
      expect(view.capabilities, what).toEqual(caps);
      expect(view.title, what).toContain(policyName(model));
      expect(Boolean(view.solution), what).toBe(caps.fixedPoint.available);
      // where the query names a law, the law, or the solver's own refusal as a note (a cavity that did not settle)
      if (caps.responseTime.available)
        expect(Boolean(view.law) || view.notes.some((n) => n.startsWith('response-time law: ')), what).toBe(true);
      else expect(view.law, what).toBeUndefined();
      if (!caps.responseTime.available) expect(view.notes, what).toContain(`response-time law: ${caps.responseTime.reason}`);
      const heteroRefinable = model.servers !== undefined && caps.fixedPoint.available && caps.fixedPoint.id === 'hetero-occupancy';
      expect(Boolean(view.refined), what).toBe(caps.refined.firstOrder.available || heteroRefinable);
      if (!caps.refined.firstOrder.available && !heteroRefinable)
        expect(view.notes, what).toContain(`refined mean field: ${caps.refined.firstOrder.reason}`);
      expect(Boolean(view.transient) || view.notes.some((n) => n.startsWith('transient: ')), what).toBe(true);
      if (!caps.transient.available) expect(view.notes, what).toContain(`transient: ${caps.transient.reason}`);
    }
  });

  it('redundancy-d: E[Q] is replicas per server (λ·d·E[T]) in the explorer and the CLI alike, and the law gives the quantiles', async () => {
    const input = { lambda: 0.5, d: 2, redundancy: 'cancel-on-complete' } as const;
    const view = exploreView(input, 20);
    const s = solveMeanField(parseModel(input));
    const unit = meanQueueLengthUnit(s);
    expect(unit).toBe('replicas per server (λ·d·E[T])');
    const rows = solutionRows(view);
    const eq = rows.find((r) => r[0] === 'E[Q]')!;
    expect(eq[1]).toBe(`mean ${unit}, n → ∞`);
    expect(Number(eq[2])).toBeCloseTo(0.5 * 2 * s.meanResponseTime, 5);
    const cli = await runCli('fixed-point --lambda 0.5 --d 2 --redundancy cancel-on-complete');
    expect(cli.stdout).toContain(`E[Q] = ${s.meanQueueLength!.toFixed(6)} ${unit}`);
    // quantiles of the closed form at d = 2, λ = 1/2: t_p = ln(2(1 − p)^{−1/2} − 1)
    const q = view.law!.quantiles;
    q.forEach((x) => expect(x.value).toBeCloseTo(Math.log(2 * (1 - x.p) ** -0.5 - 1), 9));
    expect(view.title).toMatch(/^RED\(2\) \+ FIFO/);
    // a homogeneous model keeps "jobs per server"
    expect(solutionRows(exploreView({ lambda: 0.9, d: 2 }, 20)).find((r) => r[0] === 'E[Q]')![1]).toBe('mean jobs per server, n → ∞');
  });

  it('server speeds: one row per class, the CLI policy name, and no SQ(d) relaxation time τ', () => {
    const view = exploreView({ lambda: 0.7, d: 1, selection: 'random', servers: speeds }, 20);
    expect(view.title).toContain('speeds 1,4 fractions 0.8,0.2 (speed sampling)');
    const rows = solutionRows(view);
    expect(rows.filter((r) => r[0].startsWith('class ')).map((r) => r[3])).toEqual(['mf-class-1', 'mf-class-2']);
    expect(view.transient?.relaxationTime).toBeUndefined();
    const transient = explorerFigures(view).find((f) => f.name === 'transient');
    expect(JSON.stringify(transient?.spec ?? {})).not.toContain('τ');
    // identical servers keep their τ
    expect(exploreView({ lambda: 0.9, d: 2 }, 20).transient?.relaxationTime).toBeGreaterThan(0);
  });

  it('a dispatcher memory: π₀ and probes per arrival rows, as fixed-point prints them', () => {
    const view = exploreView({ lambda: 0.8, d: 2, memory: 'ip' }, 20);
    const rows = solutionRows(view);
    const pi0 = rows.find((r) => r[3] === 'mf-pi0')!;
    expect(Number(pi0[2])).toBeCloseTo(view.solution!.reduction!.pi0, 5);
    expect(rows.find((r) => r[3] === 'mf-probes')).toBeDefined();
  });
});
