import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGeneralComparison } from '../../src/compare/index.ts';
import { writeReport } from '../../src/report/index.ts';

describe('writeReport (general comparison)', () => {
  it('writeReport(dir, LWL result, meta) names the solver and its kind, and writes convergence, workload-ccdf and transient figures', async () => {
    const result = runGeneralComparison({
      lambdas: [0.5], ds: [2], ns: [10, 50], sampling: 'with-replacement', jobs: 5_000, replications: 3, seed: 2,
      warmupTolerance: 1e-2, warmupSafetyFactor: 2, maxLevel: 8, model: { selection: 'lwl' },
      trajectory: { ns: [50], tEnd: 5, dt: 1, replications: 2 },
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-general-report-'));
    const files = await writeReport(dir, result, {
      command: 'test', startedAt: new Date(0).toISOString(), wallSeconds: 1, versions: { node: process.version },
      machine: { cpu: 'test', cores: 2, platform: 'test' },
    });
    for (const name of ['convergence', 'workload-ccdf', 'transient']) {
      for (const ext of ['png', 'svg', 'vl.json', 'csv', 'json']) {
        expect(files).toContain(`figures/${name}.${ext}`);
        expect(existsSync(path.join(dir, 'figures', `${name}.${ext}`))).toBe(true);
      }
      const png = readFileSync(path.join(dir, 'figures', `${name}.png`));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      const csv = readFileSync(path.join(dir, 'figures', `${name}.csv`), 'utf8').trim().split('\n');
      expect(csv.length - 1).toBe(JSON.parse(readFileSync(path.join(dir, 'figures', `${name}.json`), 'utf8')).length);
    }
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('LWL(d) closed form');
    expect(md).toContain('(exact)');
    expect(md).toMatch(/Without V/);
    expect(md).toContain('| d | λ | n |');
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).not.toMatch(/src="https?:/);
    expect(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')).kind).toBe('without-v');
  });
});
