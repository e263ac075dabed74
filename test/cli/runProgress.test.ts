/**
 * `run`'s progress is one bar for the whole run (cli/commands/run.ts): simulations, trace replays and the report, its
 * clock from the command's start; 100 % ("done in", the whole run's time) only once the report is written, also when
 * every cell was stored (a resumed run's report was shown as no progress at all).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './runCli.ts';
import { createProgress } from '../../src/cli/progress.ts';

/** The plain progress lines (stderr is no terminal in tests) of a title, as their percentages. */
const percents = (stderr: string, title: string) => [...stderr.matchAll(new RegExp(`^${title}: (\\d+)%`, 'gm'))].map((m) => Number(m[1]));

describe('run progress over the whole run', () => {
  it('counts 10 % … 100 % once each, in order, and says "done in" at the end; a resumed run too', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-run-progress-'));
    const file = path.join(tmp, 'tiny.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'tiny',
        lambda: [0.5],
        d: [2],
        n: [10],
        selections: ['jsq'],
        disciplines: ['fifo'],
        service: ['exp'],
        jobs: 2000,
        replications: 2,
        seed: 3,
        claims: [],
      }),
    );
    const out = path.join(tmp, 'report');
    const first = await runCli(['run', file, '--out', out, '--threads', '1']);
    expect(first.status, first.stderr).toBe(0);
    expect(percents(first.stderr, 'run tiny')).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(first.stderr).toMatch(/run tiny: 100% \(done in \d+s\)/);
    // every cell stored: the report is the run, and its bar still ends at 100 %
    const again = await runCli(['run', file, '--out', out, '--threads', '1']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('1 of 1 cells resumed');
    expect(percents(again.stderr, 'run tiny')).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  });
});

describe('createProgress since', () => {
  afterEach(() => vi.restoreAllMocks());
  it('counts the elapsed time from `since`, not from the first update', () => {
    let text = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      text += String(chunk);
      return true;
    });
    const bar = createProgress('job', true, { since: Date.now() - 2 * 3600_000 });
    bar.update(1, 2, '');
    bar.update(2, 2, '');
    bar.stop();
    expect(text).toMatch(/job: 50% \(2h00m elapsed, ETA 2h00m\)/);
    expect(text).toMatch(/job: 100% \(done in 2h00m\)/);
  });
});
