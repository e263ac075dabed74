import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumedNote, resumedText } from '../../src/report/index.ts';
import { keptText } from '../../src/cli/commands/compare.ts';
import { runCli } from './runCli.ts';

// A resumed compare of 2 cells said "4 cells resumed": the store also holds the transient figure's trajectories, and
// they were counted as cells. Each kind is now counted and named, in compare and conjecture alike (run and table store
// cells only, and say "cells").
describe('a resumed run counts and names what it read back', () => {
  it('resumedText and resumedNote name each kind, singular and plural, and say nothing when nothing was resumed', () => {
    expect(
      resumedText([
        [2, 'cell', 'cells'],
        [2, 'trajectory', 'trajectories'],
      ]),
    ).toBe('2 cells and 2 trajectories resumed');
    expect(
      resumedText([
        [1, 'cell', 'cells'],
        [0, 'trajectory', 'trajectories'],
      ]),
    ).toBe('1 cell resumed');
    expect(resumedText([[0, 'cell', 'cells']])).toBe('');
    expect(resumedNote({ resumedSimulations: 3, resumedSolves: 1 })).toBe(', 3 resumed; 1 mean-field solve (cavity estimate) resumed');
    expect(resumedNote({ resumedSimulations: 0, resumedSolves: 0 })).toBe('');
  });

  it('compare: "2 cells and 2 trajectories (transients from empty) resumed", and metadata.json counts them apart', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-resumed-')), 'r');
    const args = ['compare', '--d', '1', '--lambda', '0.7', '--n', '10,20', '--jobs', '1000', '--replications', '2'];
    const rest = ['--exact-n', 'none', '--threads', '1', '--no-progress', '--out', out];
    expect((await runCli([...args, ...rest])).status).toBe(0);
    const again = await runCli([...args, ...rest]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/, 2 cells and 2 trajectories \(transients from empty\) resumed\)/);
    const meta = JSON.parse(readFileSync(path.join(out, 'metadata.json'), 'utf8'));
    expect(meta).toMatchObject({ resumedCells: 2, resumedTrajectories: 2 });
  }, 600_000);

  // Ctrl-C on a compare said "14 finished cells are kept" of a store holding 8 cells and 6 trajectories, while the
  // resumed run then said "8 cells and 6 trajectories (transients from empty) resumed": one store, two counts
  it('an interrupted compare counts its kept cells and trajectories apart, as the resumed run will', () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-kept-')), 'cells');
    expect(keptText(dir)).toBe('no cell had finished, nothing was stored');
    mkdirSync(dir);
    for (const f of ['d2-lambda0.9-n10-aa.json', 'd2-lambda0.9-n50-bb.json', 'trajectory-d2-lambda0.9-n10-cc.json']) {
      writeFileSync(path.join(dir, f), '{}');
    }
    expect(keptText(dir)).toBe(
      `2 finished cells and 1 trajectory (transient from empty) are kept in ${dir}; rerun the same command to resume`,
    );
    writeFileSync(path.join(dir, 'trajectory-d2-lambda0.9-n50-dd.json'), '{}');
    expect(keptText(dir)).toMatch(/^2 finished cells and 2 trajectories \(transients from empty\) are kept in /);
  });
});
