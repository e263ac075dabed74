/**
 * `run` on an experiment with server speeds (theory.md §13): the cells keep their per-class results, the report has
 * the per-class table, and the server-classes figure's CSV holds every class's busy fraction, E[T] and jobs served.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { heteroRefined } from '../../src/meanfield/hetero/refined.ts';
import { parseModel } from '../../src/model/model.ts';

describe('run with server speeds', () => {
  it('stores per-class results and writes the per-class table and CSV (λ = 1.2 > 1 allowed: ρ = 0.8)', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-run-speeds-'));
    const file = path.join(tmp, 'speeds.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'speeds',
        lambda: [1.2],
        d: [2],
        n: [20],
        selections: ['jsq', 'sed'],
        disciplines: ['fifo', 'srpt'],
        service: ['exp'],
        servers: { speeds: [1, 2], fractions: [0.5, 0.5] },
        jobs: 1000,
        replications: 2,
        seed: 4,
        claims: [],
      }),
    );
    const out = path.join(tmp, 'report');
    const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const cells = JSON.parse(r.stdout).cells as {
      policy: string;
      classes: { busyFraction: { mean: number } }[];
      workRate: { mean: number; halfWidth: number };
    }[];
    expect(cells).toHaveLength(4);
    for (const c of cells) {
      expect(c.classes).toHaveLength(2);
      expect(Math.abs(c.workRate.mean - 1.2)).toBeLessThan(c.workRate.halfWidth + 0.05); // λE[S], work conservation
    }
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toContain('## Per server class');
    // the report's header names the server classes, not only the per-class section further down
    expect(md.split('## ')[0]).toContain('Model settings: server speeds 1,2 fractions 0.5,0.5.');
    expect(md).toMatch(/\| SED\+SRPT \| 1\.2 \| 2 \(2, 0\.5\) \| 0\.\d+ ± /);
    const csv = readFileSync(path.join(out, 'figures', 'server-classes.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toMatch(/serverClass,speed,fraction,busyFraction,busyFractionHalfWidth,jobsServed,workRate/);
    expect(csv).toHaveLength(1 + 4 * 2);
  });

  it('fixed-point --refined --n with speeds gives E[T]∞ + c₁/n of heteroRefined; --order 2 is refused in one line', async () => {
    const r = await runCli('fixed-point --speeds 1,2 --d 2 --lambda 0.9 --selection sed --refined --n 20 --json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const h = heteroRefined(parseModel({ lambda: 0.9, d: 2, selection: 'sed', servers: { speeds: [1, 2] } }));
    expect(out.refined.coefficient).toBe(h.meanResponseTimeCoefficient);
    expect(out.refined.meanResponseTime).toBeCloseTo(h.meanResponseTime + h.meanResponseTimeCoefficient / 20, 12);
    const two = await runCli('fixed-point --speeds 1,2 --d 2 --lambda 0.9 --refined --n 20 --order 2');
    expect(two.status).not.toBe(0);
    expect(two.stderr.trim().split('\n')).toHaveLength(1);
  });
});
