/**
 * compare's summary of the busy-fraction check (ŝ₁ = ρ): with fewer than two judged cells there is no SD of t
 * statistics, and the text and JSON say so instead of printing NaN.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'compare-summary-'));
const oneCell = ['compare', '--lambda', '0.5', '--d', '2', '--n', '10', '--jobs', '1000', '--replications', '3', '--no-progress'];

describe('compare busy-fraction check with one judged cell', () => {
  it('text: says the check needs ≥ 2 judged cells, no NaN', async () => {
    const r = await runCli([...oneCell, '--out', path.join(dir, 'text')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/busy-fraction check: needs ≥ 2 judged cells, got 1\n/);
    expect(r.stdout).not.toMatch(/NaN/);
    // one n: no slope, in the report's words ("not resolved"), not 'n/a'
    expect(r.stdout).toMatch(/slope not resolved/);
  });

  it('JSON: sd and expectedSd are null with the reason', async () => {
    const r = await runCli([...oneCell, '--out', path.join(dir, 'json'), '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).busyCheck).toMatchObject({ sd: null, expectedSd: null, cells: 1, reason: 'needs ≥ 2 judged cells, got 1' });
  });
});

describe('compare busy-fraction check with R = 3 replications (ν = 2)', () => {
  const twoCells = ['compare', '--lambda', '0.5', '--d', '2', '--n', '10,20', '--jobs', '1000', '--replications', '3', '--no-progress'];
  it('text and JSON: the SD of t is shown, the expected SD is not (t with ν ≤ 2 has none), no NaN', async () => {
    const reason = 'no expected value: t with ν = R − 1 ≤ 2 has no finite SD; needs ≥ 4 replications';
    const r = await runCli([...twoCells, '--out', path.join(dir, 'r3')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`busy-fraction check: SD of t = \\d+\\.\\d\\d \\(${reason}\\)\n`));
    expect(r.stdout).not.toMatch(/NaN/);
    const j = await runCli([...twoCells, '--out', path.join(dir, 'r3'), '--json']);
    const busy = JSON.parse(j.stdout).busyCheck;
    expect(busy.expectedSd).toBeNull();
    expect(busy.reason).toBe(reason);
    expect(busy.sd).toBeGreaterThan(0);
    const md = readFileSync(path.join(dir, 'r3', 'report.md'), 'utf8');
    expect(md).toContain('Student t with ν = R − 1 ≤ 2 has no finite SD');
    expect(md).not.toMatch(/give about n\/a/);
  });
});

describe('compare says the same as its report and JSON whether a refined term judged the cells (result.judgedBy)', () => {
  const sweep = ['--lambda', '0.6', '--d', '2', '--n', '10', '--jobs', '1000', '--replications', '3', '--threads', '1', '--no-progress'];
  for (const [name, flags, judgedBy] of [
    // server speeds are judged by the per-class ODE's refined term (heteroRefined): the text said "no refined term"
    ['server speeds', ['--speeds', '1,2', '--fractions', '0.5,0.5'], 'refined-mean-field'],
    ['LWL(d) (no V)', ['--selection', 'lwl'], 'without-v'],
  ] as const) {
    it(`${name}: text, report.md and --json agree (${judgedBy})`, async () => {
      const out = path.join(dir, name.replace(/\W+/g, '-'));
      const text = await runCli(['compare', ...sweep, ...flags, '--out', out]);
      expect(text.status, text.stderr).toBe(0);
      const json = await runCli(['compare', ...sweep, ...flags, '--out', out, '--json']);
      expect(JSON.parse(json.stdout).judgedBy).toBe(judgedBy);
      const md = readFileSync(path.join(out, 'report.md'), 'utf8');
      const refined = judgedBy === 'refined-mean-field';
      expect(/no refined term/i.test(text.stdout)).toBe(!refined);
      expect(/\*\*No refined term\*\*/.test(md)).toBe(!refined);
      expect(md.includes('with the refined mean field;')).toBe(refined);
    });
  }
});

describe('compare says where its intervals of E[T] are not 95 % intervals, as simulate does', () => {
  // trial: JSQ(2) SRPT with pareto:1.5 (Var[T] = ∞) judged its limit "agrees" with no word of it; simulate warns
  it('SRPT with pareto:1.5: a note in the summary, report.md and results.json; exponential sizes: none', async () => {
    const base = [
      'compare',
      '--lambda',
      '0.7',
      '--d',
      '2',
      '--n',
      '20,50',
      '--jobs',
      '1000',
      '--replications',
      '3',
      '--no-trajectory',
      '--no-progress',
    ];
    const out = path.join(dir, 'heavy');
    const r = await runCli([...base, '--discipline', 'srpt', '--service', 'pareto:1.5', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const note =
      /the interval of E\[T\] rests on Var\[T\] = ∞ \(T ≥ S and E\[S²\] = ∞, pareto α = 1\.5\): it is not a 95 % interval; the verdicts of its cells and fits rest on these intervals/;
    expect(r.stdout).toMatch(note);
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(note);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { notes: string[] };
    expect(results.notes.some((n) => note.test(n))).toBe(true);
    const light = await runCli([...base, '--discipline', 'srpt', '--out', path.join(dir, 'light')]);
    expect(light.status, light.stderr).toBe(0);
    expect(light.stdout).not.toMatch(/rests on Var\[T\]/);
  }, 600_000);
});
