/**
 * `supermarket table` keeps every cell as soon as it is final: Ctrl-C (a real SIGINT to a child process) ends with 130
 * and one line saying how many cells are kept where and how to resume; a rerun with the same --out resumes them.
 * Before: the cells were stored only once the whole table was done, so Ctrl-C kept nothing and said nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-table-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The cell files under `folder`, [] if it does not exist yet. */
function cellFiles(folder: string): string[] {
  try {
    return readdirSync(folder).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
}

/** Runs the CLI in a child and sends SIGINT once `ready()` holds (polled every 50 ms); resolves with exit code and stderr. */
async function interruptWhen(
  args: string[],
  ready: () => boolean,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: root, env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const poll = setInterval(() => {
      if (ready()) {
        clearInterval(poll);
        child.kill('SIGINT');
      }
    }, 50);
    child.on('exit', (c) => {
      clearInterval(poll);
      resolve(c);
    });
  });
  return { code, stderr };
}

describe('table interrupted by SIGINT', () => {
  it('exits 130, says how many cells are kept where, and a rerun with the same --out resumes them', async () => {
    const out = path.join(dir, 'table');
    const cells = path.join(out, 'cells');
    // 10 cells of 2 runs of 1e7 events: seconds of work, the first cell final long before the last
    const args = ['table', '--d', '2', '--lambda', '0.5,0.6,0.7,0.8,0.9', '--n', '10,20', '--runs', '2'];
    const rest = ['--events-per-run', '10000000', '--exact-max-n', '0', '--threads', '1', '--no-progress', '--out', out];
    const r = await interruptWhen([...args, ...rest], () => cellFiles(cells).length > 0);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const kept = cellFiles(cells);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(10);
    // a kept cell is whole: all its runs
    for (const f of kept) expect(JSON.parse(readFileSync(path.join(cells, f), 'utf8')).value.values).toHaveLength(2);
    const said = /interrupted: (\d+) of 10 cells are kept in (.*); rerun the same command to resume/.exec(r.stderr);
    expect(said, r.stderr).not.toBeNull();
    expect(said![2]).toBe(cells);
    expect(Number(said![1])).toBeGreaterThan(0);
    expect(Number(said![1])).toBeLessThanOrEqual(kept.length);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const again = await runCli([...args, ...rest, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).run.resumedCells).toBe(kept.length);
  });

  it('without --out says that nothing was stored and how to keep cells', async () => {
    const args = ['table', '--d', '2', '--lambda', '0.9', '--n', '10', '--runs', '2', '--events-per-run', '100000000'];
    // once the simulation has started (the timeline's phase line): the Ctrl-C handler is in place
    const timelineFile = path.join(dir, 'timeline.jsonl');
    const r = await interruptWhen(
      [...args, '--exact-max-n', '0', '--threads', '1', '--no-progress'],
      () => existsSync(timelineFile) && readFileSync(timelineFile, 'utf8').includes('"phase"'),
      { SUPERMARKET_TIMELINE: timelineFile },
    );
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr.trim()).toBe(
      'interrupted: nothing was stored (without --out the table keeps its cells in memory); rerun with --out <dir> to keep finished cells',
    );
  });
});
