import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

// conjecture dropped the note simulate and replay print on why a percentile interval is open at an end: a reader saw
// "[…, ∞]" with no word why (2 sections: t_{0.975,1} = 12.7, so p99's sections reach level 1).
describe('conjecture says why a percentile interval is open at an end, as simulate and replay do', () => {
  it('P99 from 2 replications: the text, --json, results.json and report.md carry the note', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-cj-open-'));
    const file = path.join(dir, 'c.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'open',
        claim: 'P99(jsq, srpt) < 1000',
        grid: { lambda: [0.5], d: [2], service: ['pareto:1.5'] },
        evaluation: { prefer: 'simulation', n: 10, replications: 2, jobs: 2000 },
      }),
    );
    const out = path.join(dir, 'out');
    const r = await runCli(['conjecture', file, '--out', out, '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    const q = results.points[0].quantities[0];
    expect(q.interval[1]).toBeNull(); // open above: the case of this test
    // the verdict interval keeps the valid lower end of the percentile's ci95 (it was [0, ∞]: mean ± h with h = ∞)
    expect(q.interval[0]).toBe(q.ci95[0]);
    expect(q.interval[0]).toBeGreaterThan(0);
    expect(q.openEnd).toMatch(/^percentile intervals: p99 has no upper end \(∞\): the 2 sections' fractions/);
    expect(r.stdout).toMatch(/\n {2}note: P99\(jsq, srpt\) at pareto:1\.5, d = 2, λ = 0\.5: percentile intervals: p99 has no upper end/);
    // the explanation once, after the percentile's numbers (it was inside each note)
    expect(q.openEndWhy).toMatch(/^percentile intervals open at an end: .*t_\{0\.975,1\} = 12\.7/);
    expect(r.stdout).toMatch(/\n {2}note: percentile intervals open at an end: /);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/P99\(jsq, srpt\) = [0-9.]+ \[[0-9.]+, ∞\] \(sim; open at an end: see the note below\)/);
    expect(md).toMatch(
      /Percentile intervals open at an end:\n\n- P99\(jsq, srpt\) at pareto:1\.5, d = 2, λ = 0\.5: percentile intervals: p99 has no upper end/,
    );
    // the flat CSV flags the open end beside the empty hi, under JSON's name (it had an empty hi and no word why)
    const [header, row] = readFileSync(path.join(out, 'points.csv'), 'utf8').split('\n');
    expect(header).toContain('"P99(jsq, srpt) openEnd"');
    expect(row).toContain(q.openEnd);
    // source and method in two columns, as in JSON (one column read 'simulation: simulation n = 10 (…)')
    expect(header).toContain('"P99(jsq, srpt) source","P99(jsq, srpt) method"');
    expect(q.source).toBe('simulation');
    expect(q.method).toMatch(/^simulation n = 10 /);
    expect(row).not.toContain('simulation: simulation');
    // --json (resumed from the stored cell: the note is kept with it)
    const j = await runCli(['conjecture', file, '--out', out, '--no-progress', '--json']);
    expect(j.status, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout).points[0].quantities[0].openEnd).toBe(q.openEnd);
  }, 600_000);
});
