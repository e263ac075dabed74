import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { meanFieldCapabilities } from '../../src/meanfield/index.ts';
import { parseModel } from '../../src/model/index.ts';

// `fixed-point --service pareto:1.9 --d 3 --lambda 0.7` refused citing "JSQ(3) pareto:1.6, λ = 0.9: 1.90 ± 0.03, …",
// the numbers of another model; `--order 2` at d ≥ 4 cited d = 4, λ = 0.9's ΣA whatever λ was asked.
describe('a refusal speaks of the model asked about', () => {
  it('fixed-point on JSQ(3) FIFO pareto:1.9 at λ 0.7 names that model and no other numbers', async () => {
    const r = await runCli('fixed-point --service pareto:1.9 --d 3 --lambda 0.7');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/E\[T\]∞ is finite .*here JSQ\(3\) FIFO, pareto α = 1\.9, λ = 0\.7\)/);
    expect(r.stderr).not.toMatch(/1\.6|0\.9:|1\.90/);
  });

  it('every refusal of the capability query for other settings carries their own λ, not a measured model', () => {
    for (const [d, lambda] of [
      [4, 0.5],
      [3, 0.95],
    ] as const) {
      const cap = meanFieldCapabilities(parseModel({ lambda, d, service: 'pareto:1.9' })).fixedPoint;
      expect(cap.available).toBe(false);
      if (cap.available) continue;
      expect(cap.reason).toContain(`λ = ${lambda}`);
      expect(cap.reason).not.toMatch(/pareto:1\.6|λ = 0\.9:/);
    }
  });

  it('the second-order refusal at d = 5 cites no measured numbers of d = 4', () => {
    const cap = meanFieldCapabilities(parseModel({ lambda: 0.7, d: 5 })).refined.secondOrder;
    expect(cap.available).toBe(false);
    if (!cap.available) expect(cap.reason).not.toMatch(/λ = 0\.9|−119|8\.2/);
  });
});
