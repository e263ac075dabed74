/**
 * `npm run bench:table -- --help` teaches its arguments and bad arguments are refused in one line (exit 2); before,
 * bench/table.ts read no argument at all, so `-- --help` (or any typo) started the 10-minute benchmark.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const bench = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'bench/table.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });

describe('bench/table.ts arguments', () => {
  it('--help prints the usage and the arguments, exit 0, without running the benchmark', () => {
    const r = bench('--help');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run bench:table -- \[--threads <k>\] \[--out <dir>\] \[--resume\] \[--help\]/);
    for (const option of ['--threads <k>', '--out <dir>', '--resume']) expect(r.stdout).toContain(option);
    expect(r.stdout).not.toContain('load average before:');
  });

  for (const [args, message] of [
    [['--bogus'], /Unknown option '--bogus'/],
    [['--threads', '0'], /--threads: expected an integer ≥ 1, got "0"/],
    [['extra'], /Unexpected argument 'extra'/],
  ] as const)
    it(`refuses ${args.join(' ')} in one line, exit 2`, () => {
      const r = bench(...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('(npm run bench:table -- --help)');
    });
});
