import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConjecture } from '../../src/claims/index.ts';
import { runCli } from './runCli.ts';

// n and d bounds, one rule in every command that takes them (model.ts checkServers: n integer ≥ 1, d ≤ n whatever the
// sampling): a model the schema refuses and an option conflict the parser refuses both exit 2 (README "Exit codes").
describe('every command refuses d > n in one line', () => {
  it.each([
    ['exact with replacement', 'exact --n 3 --d 4 --lambda 0.9'],
    ['exact without replacement', 'exact --n 3 --d 4 --lambda 0.9 --sampling without-replacement'],
    ['ode --refined', 'ode --lambda 0.5 --d 4 --refined --n 3 --t-end 1 --dt 1'],
  ])('%s: exit 2, "d = 4 exceeds n = 3"', async (_, args) => {
    const r = await runCli(args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/d = 4 exceeds n = 3/);
  });

  it('conjecture: evaluation.n below the grid’s largest d is refused before anything runs (file and --n)', async () => {
    const base = { name: 'c', claim: 'T(jsq, fifo) < T(random, fifo)', grid: { lambda: [0.5], d: [2, 3] } };
    expect(() => parseConjecture({ ...base, evaluation: { n: 2 } }, 'c.json')).toThrow(
      /c\.json: d = 3 exceeds n = 2 \(entries "grid.d" and "evaluation.n"\)/,
    );
    expect(parseConjecture({ ...base, evaluation: { n: 3 } }).spec.evaluation.n).toBe(3);
    const dir = mkdtempSync(path.join(tmpdir(), 'conjecture-n-'));
    const file = path.join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ ...base, evaluation: { n: 10, jobs: 1000, replications: 2 } }));
    const r = await runCli(['conjecture', file, '--n', '1', '--out', path.join(dir, 'out'), '--no-progress']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/d = 3 exceeds n = 1/);
  });

  it('compare --preset thesis-memory:6 takes --n among the thesis’s columns only (exit 2, as other preset conflicts)', async () => {
    const r = await runCli('compare --preset thesis-memory:6 --n 7,20 --out /tmp/never-honest --no-progress');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--n 7: --preset thesis-memory:6 covers the thesis's n = 10, 20, 50, 100, 200, 500, 1000, 3000 only/);
  });
});
