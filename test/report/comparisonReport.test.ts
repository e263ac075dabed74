import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison, type ComparisonConfig } from '../../src/compare/index.ts';
import { writeComparisonReport } from '../../src/report/index.ts';

const meta = { command: 'test', startedAt: new Date(0).toISOString(), wallSeconds: 1, versions: { node: process.version },
  machine: { cpu: 'test', cores: 2, platform: 'test' } };
const tiny: ComparisonConfig = {
  lambdas: [0.5], ds: [2], ns: [10, 50], sampling: 'with-replacement', jobs: 5_000, replications: 3, seed: 2,
  warmupTolerance: 1e-2, warmupSafetyFactor: 2, maxLevel: 8, trajectory: { ns: [50], tEnd: 5, dt: 1, replications: 2 },
};

/** Checks that every figure was written in every format, the PNG is a PNG, and the CSV holds exactly the plotted rows. */
function expectFigures(dir: string, files: string[], names: string[]): void {
  for (const name of names) {
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
    expect(csv.length - 1).toBe(JSON.parse(readFileSync(path.join(dir, 'figures', `${name}.json`), 'utf8')).length);
  }
}

describe('writeComparisonReport', () => {
  it('writeComparisonReport(dir, classic result, meta) writes html, markdown, and PNG/SVG/spec/CSV/JSON for each figure', async () => {
    const result = runComparison(tiny);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-report-'));
    const files = await writeComparisonReport(dir, result, meta);
    expectFigures(dir, files, ['tail-fractions', 'convergence', 'transient']);
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<table>');
    expect(html).toContain('figures/convergence.svg');
    expect(html).not.toMatch(/src="https?:/); // opens offline
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('| d | λ | n |');
    expect(md).toContain('Validation report: SQ(d) mean field');
    expect(md).toContain('| t (ν) | p | p Holm | verdict | confirmatory rerun |');
    expect(md).toMatch(/Holm's step-down adjustment over all judged cells/);
    expect(md).toMatch(/Calibration check/);
    const saved = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
    expect(saved.cells[0].seed).toBe(result.cells[0].seed);
    expect(saved.family.rule).toMatch(/Holm/);
  });

  it('writeComparisonReport(dir, LWL result, meta) names the solver and its kind, and writes convergence, workload-ccdf and transient figures', async () => {
    const result = runComparison({ ...tiny, model: { selection: 'lwl' } });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-general-report-'));
    const files = await writeComparisonReport(dir, result, meta);
    expectFigures(dir, files, ['convergence', 'workload-ccdf', 'transient']);
    expect(files).not.toContain('figures/tail-fractions.svg'); // the LWL solver gives no occupancy tails
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('LWL(d) closed form');
    expect(md).toContain('(exact)');
    expect(md).toMatch(/Without V/);
    expect(md).toContain('| d | λ | n |');
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).not.toMatch(/src="https?:/);
    expect(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')).judgedBy).toBe('without-v');
  });
});
