import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

// issue 20 §3: `fixed-point --quantiles` gives the mean field's response-time quantiles, text and JSON
describe('supermarket fixed-point --quantiles', () => {
  it('SQ(d): p50/p95/p99 of the Poisson mixture, in text and JSON', async () => {
    const t = await runCli('fixed-point --lambda 0.5 --d 1 --quantiles 0.5,0.95,0.99');
    expect(t.status).toBe(0);
    expect(t.stdout).toMatch(/response time \(.*exact\): p50 = 1\.386294 {2}p95 = 5\.991465 {2}p99 = 9\.210340/);
    const j = JSON.parse((await runCli('fixed-point --lambda 0.9 --d 2 --quantiles 0.99 --json')).stdout);
    expect(j.responseTime.kind).toBe('exact');
    expect(Object.keys(j.responseTime.quantiles)).toEqual(['p99']);
    expect(j.responseTime.quantiles.p99.p).toBe(0.99);
    expect(j.responseTime.quantiles.p99.value).toBeCloseTo(8.79097, 4);
  });

  it('labels each level exactly: 0.999999999 is p99.9999999, not p100, and levels 1e-10 apart get distinct names', async () => {
    // M/M/1 (d = 1, λ = 0.5): t_p = −ln(1 − p)/(1 − λ); the old 6-digit label wrote p100 for both high levels
    const t = await runCli('fixed-point --lambda 0.5 --d 1 --quantiles 0.001,0.999999999,0.9999999999');
    expect(t.status).toBe(0);
    const line = t.stdout.split('\n').find((l) => l.includes('response time'))!;
    expect(line).toMatch(/p0\.1 = 0\.002001 {2}p99\.9999999 = 41\.4465\d\d {2}p99\.99999999 = 46\.0517\d\d/);
    expect(line).not.toContain('p100');
  });

  it('other solvers: the phase-type law with --ccdf in JSON; M/M/1 mean 2 in text', async () => {
    const j = JSON.parse(
      (await runCli('fixed-point --lambda 0.9 --d 2 --service erlang:2 --quantiles 0.5,0.95 --ccdf --ccdf-t-end 2 --ccdf-dt 1 --json'))
        .stdout,
    );
    expect(j.responseTime.solver).toMatch(/phase-type/);
    expect(Object.values(j.responseTime.quantiles).map((q) => (q as { p: number }).p)).toEqual([0.5, 0.95]);
    expect(j.responseTime.ccdf.times).toEqual([0, 1, 2]);
    expect(j.responseTime.ccdf.ccdf[0]).toBe(1);
    const t = await runCli(['fixed-point', '--lambda', '0.25', '--d', '1', '--service', 'exp@2', '--quantiles', '0.5']);
    expect(t.status).toBe(0);
    expect(t.stdout).toMatch(new RegExp(`p50 = ${((2 * Math.log(2)) / 0.5).toFixed(6)}`));
  });

  it('--ph-fit --quantiles: the quantiles of the fitted law (not the cavity’s), each with its error measured in the run', async () => {
    const t = await runCli('fixed-point --lambda 0.5 --d 2 --service weibull:2 --ph-fit --quantiles 0.5,0.99');
    expect(t.status).toBe(0);
    expect(t.stdout).toMatch(/E\[T\] = 1\.170687/); // the fit's mean
    expect(t.stdout).toMatch(
      /response time \(.*PH fit.*approximation\): p50 = [0-9.]+ \(error [−+][0-9.]+ % to [−+][0-9.]+ %; reference [0-9.]+ \[/,
    );
    expect(t.stdout).toMatch(/p99 = [0-9.]+ \(error [−+][0-9.]+ % to [−+][0-9.]+ %; reference/);
    expect(t.stdout).toMatch(/quantile errors measured in this run against JSQ cavity/);
  });

  it('a probability outside (0, 1), or a model without a law, is refused in one line with a non-zero status', async () => {
    for (const bad of ['0.5,1.2', '0', '1', 'abc', '0.5,,0.9']) {
      const r = await runCli(['fixed-point', '--lambda', '0.9', '--d', '2', '--quantiles', bad]);
      expect(r.status).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
    const m = await runCli('fixed-point --lambda 0.9 --d 2 --memory ism:3 --discipline ps --quantiles 0.5');
    expect(m.status).not.toBe(0);
    expect(m.stderr.trim().split('\n')).toHaveLength(1);
    expect(m.stderr).toMatch(/no response-time law for memory ism:3 with PS at d = 2/);
  });
  it('memory: the quantiles of the reduced model (theory.md §12), classic JIQ T = S', async () => {
    const m = await runCli('fixed-point --lambda 0.9 --d 2 --memory ism:5 --quantiles 0.5,0.95,0.99');
    expect(m.status).toBe(0);
    expect(m.stdout).toMatch(/p50 = 0\.89334/);
    expect(m.stdout).toMatch(/p99 = 5\.5449/);
    expect(m.stdout).toMatch(/reduced rate/);
    const jiq = await runCli('fixed-point --lambda 0.9 --d 1 --selection jiq --quantiles 0.5 --json');
    expect(jiq.status).toBe(0);
    expect(JSON.stringify(JSON.parse(jiq.stdout))).toMatch(/0\.69314718/);
  });
  it('--ccdf-t-end / --ccdf-dt without --ccdf are refused where the ccdf is not printed by default; SQ(d) keeps them', async () => {
    for (const flag of ['--ccdf-t-end', '--ccdf-dt']) {
      const r = await runCli(['fixed-point', '--lambda', '0.8', '--d', '2', '--service', 'erlang:2', flag, '2']);
      expect(r.status).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`${flag} acts only with --ccdf`);
    }
    const ok = await runCli('fixed-point --lambda 0.8 --d 2 --service erlang:2 --ccdf --ccdf-t-end 2 --ccdf-dt 1 --json');
    expect(JSON.parse(ok.stdout).responseTime.ccdf.times).toEqual([0, 1, 2]);
    const sqd = await runCli('fixed-point --lambda 0.8 --d 2 --ccdf-t-end 2 --ccdf-dt 1');
    expect(sqd.status).toBe(0);
    expect(sqd.stdout).toMatch(/P\(T > t\): t=0: 1\.00 {2}t=1: .* {2}t=2: [0-9.]+\n/);
  });
});
