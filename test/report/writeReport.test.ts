import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { writeReport } from '../../src/report/index.ts';

describe('writeReport', () => {
  it('writeReport(dir, result, meta) writes html, markdown, and PNG/SVG/spec/CSV/JSON for each figure', async () => {
    const result = runComparison({
      lambdas: [0.5], ds: [2], ns: [10, 50], sampling: 'with-replacement', jobs: 5_000, replications: 3, seed: 2,
      warmupTolerance: 1e-2, warmupSafetyFactor: 2, maxLevel: 8, trajectory: { ns: [50], tEnd: 5, dt: 1, replications: 2 },
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-report-'));
    const files = await writeReport(dir, result, {
      command: 'test', startedAt: new Date(0).toISOString(), wallSeconds: 1, versions: { node: process.version },
      machine: { cpu: 'test', cores: 2, platform: 'test' },
    });
    for (const name of ['tail-fractions', 'convergence', 'transient']) {
      for (const ext of ['png', 'svg', 'vl.json', 'csv', 'json']) {
        expect(files).toContain(`figures/${name}.${ext}`);
        expect(existsSync(path.join(dir, 'figures', `${name}.${ext}`))).toBe(true);
      }
      const png = readFileSync(path.join(dir, 'figures', `${name}.png`));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.length).toBeGreaterThan(5_000);
      const svg = readFileSync(path.join(dir, 'figures', `${name}.svg`), 'utf8');
      expect(svg).toContain('<svg');
      expect(svg).toContain('<text'); // axis labels survive
      const csv = readFileSync(path.join(dir, 'figures', `${name}.csv`), 'utf8').trim().split('\n');
      const rows = JSON.parse(readFileSync(path.join(dir, 'figures', `${name}.json`), 'utf8'));
      expect(csv.length - 1).toBe(rows.length);
    }
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<table>');
    expect(html).toContain('figures/convergence.svg');
    expect(html).not.toMatch(/src="https?:/); // opens offline
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('| d | λ | n |');
    const saved = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
    expect(saved.cells[0].seed).toBe(result.cells[0].seed);
  });
});
