import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

// fixed-point called E[T] "mean service times" with --service exp@2 (E[S] = 2: the number is in time units, two of
// them per mean service time) and named the law by its kind alone ("service pareto", no α).
describe('fixed-point names the time unit and the law in full', () => {
  it('exp@2: E[T] in time units with E[S] = 2; the number is 2 × the E[S] = 1 value at the same ρ', async () => {
    const scaled = await runCli('fixed-point --lambda 0.4 --d 2 --service exp@2');
    const unit = await runCli('fixed-point --lambda 0.8 --d 2');
    expect(scaled.status).toBe(0);
    expect(scaled.stdout).toMatch(/^Mean field \(n → ∞\): JSQ\(2\) \+ FIFO, service exp@2, λ = 0\.4, fixed point closed-form/);
    const value = (text: string) => Number(/E\[T\] = ([0-9.]+)/.exec(text)![1]);
    expect(scaled.stdout).toMatch(/E\[T\] = [0-9.]+ time units \(E\[S\] = 2\)/);
    expect(scaled.stdout).not.toMatch(/mean service times/);
    expect(unit.stdout).toMatch(/E\[T\] = [0-9.]+ mean service times/);
    expect(Math.abs(value(scaled.stdout) - 2 * value(unit.stdout))).toBeLessThan(2e-6);
  });

  it('other solvers: the header prints the law as given (pareto:2.5, weibull:0.5@3) and E[T] its unit', async () => {
    const r = await runCli('fixed-point --lambda 0.3 --d 2 --service erlang:2@3');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Mean field \(n → ∞\): JSQ\(2\) \+ FIFO, service erlang:2@3, λ = 0\.3/);
    expect(r.stdout).toMatch(/E\[T\] = [0-9.]+ time units \(E\[S\] = 3\)/);
    const p = await runCli('fixed-point --lambda 0.5 --d 1 --service pareto:2.5');
    expect(p.stdout).toMatch(/service pareto:2\.5, λ = 0\.5/);
  });
});
