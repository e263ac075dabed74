import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqdClosedFormTail, warmupTime } from '../../src/meanfield/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { runCli } from './runCli.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'ode-init-'));
const sqd = ['--lambda', '0.9', '--d', '2'];

describe('supermarket ode --init / --until-steady', () => {
  it("ode --until-steady --tol 1e-3 from empty stops at the first grid time past the warm-up rule's time to 1e-3 (odex + bisection)", async () => {
    const r = await runCli(['ode', ...sqd, '--dt', '0.5', '--until-steady', '--tol', '1e-3', '--json']);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    const exact = warmupTime(parseModel({ lambda: 0.9, d: 2 }), { tolerance: 1e-3 }).timeToTolerance; // ≈ 75.2
    expect(out.steady.time).toBeGreaterThanOrEqual(exact - 1e-6);
    expect(out.steady.time).toBeLessThan(exact + 0.5 + 1e-6);
    expect(out.steady.distance).toBeLessThanOrEqual(1e-3);
  });

  it('ode --init fixed-point --until-steady returns at once (t = 0) with the closed-form state s_i = λ^(2^i − 1)', async () => {
    const r = await runCli(['ode', ...sqd, '--dt', '1', '--until-steady', '--init', 'fixed-point', '--json']);
    const out = JSON.parse(r.stdout);
    expect(out.steady.time).toBe(0);
    expect(out.times).toEqual([0]);
    expect(out.tail[0].slice(0, 5)).toEqual(sqdClosedFormTail(0.9, 2, 4));
  });

  it('ode --init FILE.csv resumes from the last row of an earlier ode --csv: 0→3 then 3 more equals 0→6', async () => {
    const first = await runCli(['ode', ...sqd, '--t-end', '3', '--dt', '1', '--csv']);
    const csv = path.join(dir, 'first.csv');
    writeFileSync(csv, first.stdout);
    const resumed = JSON.parse((await runCli(['ode', ...sqd, '--t-end', '3', '--dt', '1', '--init', csv, '--json'])).stdout);
    const direct = JSON.parse((await runCli(['ode', ...sqd, '--t-end', '6', '--dt', '1', '--json'])).stdout);
    for (let i = 1; i <= 5; i++) expect(resumed.tail[3][i]).toBeCloseTo(direct.tail[6][i], 8);
  });

  it('ode --init FILE validates the tail: s_0 = 1, values in [0, 1], non-increasing', async () => {
    const cases: [string, RegExp][] = [
      ['[0.9, 0.5]', /s_0 must be 1/],
      ['[1, 1.5]', /s_1 must be a number in \[0, 1\], got 1\.5/],
      ['[1, 0.5, 0.6]', /non-increasing, but s_2 = 0\.6 > s_1 = 0\.5/],
      ['1, 0.5, abc', /s_2 must be a number in \[0, 1\], got "abc"/],
    ];
    for (const [text, pattern] of cases) {
      const file = path.join(dir, 'init.txt');
      writeFileSync(file, text);
      const r = await runCli(['ode', ...sqd, '--t-end', '1', '--dt', '1', '--init', file]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
    }
  });

  it('ode --init FILE that is broken JSON says so, with where JSON.parse stopped (not "s_0 must be a number")', async () => {
    for (const [name, text] of [
      ['bad.json', '{"lambda":'],
      ['bad.txt', '[1, 0.5'],
    ]) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const r = await runCli(['ode', ...sqd, '--t-end', '1', '--dt', '1', '--init', file]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/--init .*: not valid JSON \((Unexpected end|.*position \d+).*\); expected an array of tail fractions/),
      ]);
    }
  });
  it('ode with --speeds names the per-class occupancy transient when refusing --init or --from (not "phase-type")', async () => {
    for (const flags of [
      ['--init', 'fixed-point'],
      ['--from', '0.5,0.1'],
    ]) {
      const r = await runCli(['ode', '--speeds', '1,2', '--d', '2', '--lambda', '0.6', '--t-end', '2', '--dt', '1', ...flags]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/per-class occupancy/);
      expect(r.stderr).not.toMatch(/phase-type/);
    }
  });

  it('ode --arrivals det names the Poisson fluid limit on stderr (as fixed-point does), JSON on stdout unchanged', async () => {
    const det = await runCli(['ode', ...sqd, '--t-end', '2', '--dt', '1', '--arrivals', 'det', '--json']);
    const poisson = await runCli(['ode', ...sqd, '--t-end', '2', '--dt', '1', '--json']);
    expect(det.status).toBe(0);
    expect(det.stderr).toMatch(/^note: arrivals det: .*Poisson fluid limit/);
    expect(poisson.stderr).toBe('');
    expect(JSON.parse(det.stdout).tail).toEqual(JSON.parse(poisson.stdout).tail);
  });
});
