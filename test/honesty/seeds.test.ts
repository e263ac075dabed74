/**
 * Issue 21 item 7: cell seeds never alias. The 32-bit FNV-1a of "master|key" used before is a bijection per step, so
 * masters 40189 and 797186 gave every cell the same seed and `run`/`compare` bit-identical results.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellSeed } from '../../src/stats/index.ts';
import { expandGrid, parseExperiment } from '../../src/experiments/index.ts';
import { runCli } from '../cli/runCli.ts';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';

/** The four cell keys of the tiny experiment plus a compare-style and a confirm key: a fixed key set. */
const KEYS = [
  ...expandGrid(
    parseExperiment(
      JSON.parse(
        JSON.stringify({
          name: 'k',
          lambda: [0.5, 0.8],
          d: [2],
          n: [10, 20],
          selections: ['jsq'],
          disciplines: ['fifo'],
          service: ['exp'],
          jobs: 10,
          replications: 2,
        }),
      ),
    ),
  ).map((c) => c.key),
  'd2-lambda0.9-n100',
  'd2-lambda0.9-n100/confirm',
];

describe('cell seeds (issue 21 item 7)', () => {
  it('masters 40189 and 797186 give different seeds in every cell, and different `run` results', async () => {
    for (const key of KEYS) expect(cellSeed(40189, key), key).not.toBe(cellSeed(797186, key));
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-seeds-'));
    const cells = [];
    for (const seed of [40189, 797186]) {
      const file = writeTinyExperiment(tmp, { jobs: 200, seed }, `tiny-${seed}.json`);
      const out = path.join(tmp, `out-${seed}`);
      const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
      expect(r.status, r.stderr).toBe(0);
      cells.push(
        JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')).cells.map(
          (c: { result: { meanResponseTime: { mean: number } } }) => c.result.meanResponseTime.mean,
        ),
      );
    }
    for (let i = 0; i < cells[0].length; i++) expect(cells[0][i]).not.toBe(cells[1][i]);
  }, 600_000);

  it('no two of 10⁶ masters alias on a fixed key set (for each key, master → seed is one-to-one)', () => {
    // two masters alias when they give equal seeds in every cell; distinct seeds in the first key already exclude it,
    // and we check every key of the set over the first 10⁵ masters as well
    const first = new Set<number>();
    const M = 1_000_000;
    for (let m = 0; m < M; m++) first.add(cellSeed(m, KEYS[0]));
    expect(first.size).toBe(M);
    for (const key of KEYS.slice(1)) {
      const seen = new Set<number>();
      for (let m = 0; m < 100_000; m++) seen.add(cellSeed(m, key));
      expect(seen.size, key).toBe(100_000);
    }
  }, 600_000);

  it('cellSeed refuses a master above 2^53 − 1 or below 0 in one line; 2^53 − 1 itself is taken exactly', () => {
    expect(() => cellSeed(2 ** 53, 'k')).toThrow(/^master seed must be an integer in \[0, 2\^53 − 1/);
    expect(() => cellSeed(-1, 'k')).toThrow(/master seed/);
    expect(cellSeed(2 ** 53 - 1, 'k')).not.toBe(cellSeed(2 ** 53 - 2, 'k'));
  });
});
