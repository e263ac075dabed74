/**
 * `--threads k` above the machine's cores: one rule for every command that takes it (compare, run, conjecture, table,
 * simulate, model, merge): it runs, and says so in one line on stderr. `compare --threads 3` on a 2-core machine ran
 * without a word.
 */
import os from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseThreads, threadsNote } from '../../src/cli/options.ts';
import { runCli } from './runCli.ts';

describe('--threads above the cores says so, in one line', () => {
  afterEach(() => vi.restoreAllMocks());

  it('threadsNote: a line for k > cores, nothing for k ≤ cores', () => {
    expect(threadsNote(3, 2)).toBe(
      '3 threads on 2 cores: the threads share the cores, so the run is no faster than with 2 (the numbers do not depend on --threads)',
    );
    expect(threadsNote(2, 1)).toMatch(/^2 threads on 1 core:/);
    expect(threadsNote(2, 2)).toBeUndefined();
  });

  it('parseThreads writes it on stderr (every command with --threads parses it so) and keeps k', () => {
    vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(parseThreads('2')).toBe(2);
    expect(err).not.toHaveBeenCalled();
    expect(parseThreads('3')).toBe(3);
    expect(err).toHaveBeenCalledTimes(1);
    expect(String(err.mock.calls[0][0])).toBe(`supermarket: note: ${threadsNote(3, 2)}\n`);
  });

  it.each(['compare', 'run', 'conjecture', 'table', 'simulate'])('%s --threads 3 on 2 cores: the line on stderr', async (command) => {
    vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    // --help after the option: parsed (the note), then nothing runs
    const r = await runCli([command, '--threads', '3', '--help']);
    expect(r.stderr).toContain(`supermarket: note: ${threadsNote(3, 2)}`);
  });
});
