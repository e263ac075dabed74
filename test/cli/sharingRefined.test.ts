/**
 * The CLI on PS and LAS with exponential sizes (theory.md §5 "Sharing disciplines"): `fixed-point --refined` and
 * `exact` give FIFO's refined terms and chain (the same queue lengths), and never FIFO's law of T (the SQ(d) branch's
 * P(T > t) line); other laws stay refused with the capability's reason.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

describe('supermarket fixed-point --refined and exact with PS or LAS (they refused)', () => {
  it("fixed-point --refined --n 20 --order 2: E[T]∞ + c₁/n (+ c₂/n²) as FIFO's, in text and JSON, no FIFO ccdf", async () => {
    const fifo = JSON.parse((await runCli('fixed-point --lambda 0.9 --d 2 --refined --n 20 --order 2 --json')).stdout);
    for (const discipline of ['ps', 'las']) {
      const args = `fixed-point --lambda 0.9 --d 2 --discipline ${discipline} --refined --n 20 --order 2`;
      const j = JSON.parse((await runCli(`${args} --json`)).stdout);
      expect(j.refined.meanResponseTime).toBe(fifo.refined.meanResponseTime);
      expect(j.refined.coefficient).toBeCloseTo(fifo.refined.sumV / 0.9, 12);
      expect(j.refined.secondOrder.meanResponseTime).toBe(fifo.refined.secondOrder.meanResponseTime);
      const t = await runCli(args);
      expect(t.status).toBe(0);
      expect(t.stdout).toMatch(/refined \(n = 20\): E\[T\]_n ≈ E\[T\]∞ \+ c₁\/n = 2\.835526/);
      expect(t.stdout).toMatch(/order 2: E\[T\]_n ≈ E\[T\]∞ \+ c₁\/n \+ c₂\/n² = 2\.850311/);
      expect(t.stdout).not.toMatch(/P\(T > t\)/);
    }
    const weibull = await runCli('fixed-point --lambda 0.9 --d 2 --discipline ps --service weibull:0.5 --refined --n 20');
    expect(weibull.status).not.toBe(0);
    expect(weibull.stderr).toMatch(/--refined: the refined mean field is derived for .* not JSQ\(d\) \+ PS with weibull sizes/);
  });
  it('exact --n 3: the occupancy chain of FIFO, named as such', async () => {
    const fifo = JSON.parse((await runCli('exact --n 3 --d 2 --lambda 0.7 --json')).stdout);
    const r = await runCli('exact --n 3 --d 2 --lambda 0.7 --discipline las --json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.meanResponseTime).toBe(fifo.meanResponseTime);
    expect(j.provenance.model.discipline).toBe('las');
    expect((await runCli('exact --n 3 --d 2 --lambda 0.7 --discipline ps')).stdout).toMatch(/\+ PS \(FIFO's occupancy chain/);
  });
});
