/**
 * Cancel-on-start redundancy-d with FIFO servers is LL(d) (theory.md §16): the first replica to start is the one at the
 * sampled server with the least work, so the alias resolves to selection lwl and every answer is LWL(d)'s to the bit.
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/index.ts';
import { solveMeanField } from '../../src/meanfield/index.ts';
import { runCli } from '../cli/runCli.ts';

/** A result without its wall-clock fields and code identity. */
function data(x: unknown): string {
  return JSON.stringify(x, (k, v) => (k === 'wallSeconds' || k === 'eventsPerSecond' || k === 'code' ? undefined : v));
}

describe('cancel-on-start = LWL(d) for FIFO', () => {
  for (const service of ['exp', 'hyperexp:4'])
    it(`simulate and the fixed point give bit-identical results to selection lwl (${service})`, () => {
      const alias = parseModel({ lambda: 0.8, d: 2, redundancy: 'cancel-on-start', service });
      const lwl = parseModel({ lambda: 0.8, d: 2, selection: 'lwl', service });
      const opts = { n: 20, jobs: 2000, replications: 2, seed: 7, warmupTime: 20 };
      const a = simulate(alias, opts);
      const b = simulate(lwl, opts);
      expect(a.meanResponseTime.mean).toBe(b.meanResponseTime.mean);
      expect(data(a)).toBe(data(b));
      // the LWL(d) fixed point of a non-exponential law is a numerical solve (seconds): exponential sizes here
      if (service === 'exp') expect(data(solveMeanField(alias))).toBe(data(solveMeanField(lwl)));
    });

  it('the CLI flags give the same fixed point as --selection lwl', async () => {
    const a = await runCli('fixed-point --lambda 0.9 --d 3 --redundancy cancel-on-start --json');
    const b = await runCli('fixed-point --lambda 0.9 --d 3 --selection lwl --json');
    expect(a.status).toBe(0);
    expect(data(JSON.parse(a.stdout))).toBe(data(JSON.parse(b.stdout)));
  });

  it('other disciplines are refused in one line (the first replica to start is not at the least-loaded server)', () => {
    expect(() => parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-start', discipline: 'sjf' })).toThrow(/only with FIFO servers/);
  });
});
