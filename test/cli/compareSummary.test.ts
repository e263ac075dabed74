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
