/**
 * Options of `supermarket table` that did nothing or did the wrong thing: `--fresh` without `--out` (no stored cells
 * to ignore) was accepted silently; `--csv -` wrote a file named "-" instead of stdout.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'table-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const small = ['table', '--d', '2', '--lambda', '0.7', '--n', '4,6', '--runs', '2', '--events-per-run', '1000', '--no-progress'];

describe('table --fresh and --csv -', () => {
  it('refuses --fresh without --out in one line (it has no effect there)', async () => {
    const r = await runCli([...small, '--fresh']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--fresh acts only with --out <dir>');
  });

  it('--csv - writes the CSV on stdout (no file named "-") instead of the text table', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const r = await runCli([...small, '--csv', '-']);
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(path.join(dir, '-'))).toBe(false);
      const lines = r.stdout.trim().split('\n');
      expect(lines).toHaveLength(3); // header and two cells
      expect(lines[0]).toMatch(/^d,lambda,n,/);
      expect(r.stdout).not.toContain('# Finite-n table');
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses --csv - with --json (both would write stdout) in one line', async () => {
    const r = await runCli([...small, '--csv', '-', '--json']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--csv - and --json both write stdout');
  });

  it('--help says what --csv - does', async () => {
    const r = await runCli(['table', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain("'-': the CSV on stdout instead of the text table");
  });
});
