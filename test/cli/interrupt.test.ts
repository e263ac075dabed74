/**
 * Ctrl-C on `compare`: the process ends with 130 and says where the finished cells are kept and how to resume; a rerun
 * of the same command resumes from them (a real child process and a real SIGINT).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const out = path.join(dir, 'report');
const args = ['compare', '--lambda', '0.9', '--d', '2', '--n', '10,20,50,100', '--jobs', '40000', '--replications', '3'];
const rest = ['--no-trajectory', '--exact-n', 'none', '--threads', '1', '--no-progress', '--out', out];

describe('compare interrupted by SIGINT', () => {
  it('exits 130, names where the finished cells are kept, and a rerun resumes them', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args, ...rest], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const cellsDir = path.join(out, 'cells');
    // interrupt once the first cell is stored (the cells are heaviest first, so more remain)
    const stored = () => {
      try {
        return readdirSync(cellsDir, { recursive: true }).filter((f) => String(f).endsWith('.json')).length;
      } catch {
        return 0;
      }
    };
    const code = await new Promise<number | null>((resolve) => {
      const poll = setInterval(() => {
        if (stored() > 0) {
          clearInterval(poll);
          child.kill('SIGINT');
        }
      }, 50);
      child.on('exit', (c) => {
        clearInterval(poll);
        resolve(c);
      });
    });
    expect(code).toBe(130);
    expect(stderr).toContain(`interrupted: finished cells are kept in ${cellsDir}; rerun the same command to resume`);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
    const kept = stored();
    expect(kept).toBeGreaterThan(0);
    const r = await runCli([...args, ...rest]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\b${kept} cells resumed\\b`));
  }, 120_000);
});
