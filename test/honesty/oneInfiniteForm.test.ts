/**
 * One JSON form of an infinite mean in every `--json` output and results.json (io/jsonText.ts, README "JSON formats of
 * ∞"): `{ "mean": null, "infinite": true, "reason": "…" }`, a simulated estimate adding `replications` and
 * `sampleMean`, and no interval beside it, not even null (`ci95`, `halfWidth`, `interval`). Simulated estimates wrote
 * `ci95: null, halfWidth: null` and conjecture quantities `interval: null` before. Walks each command on a model whose
 * E[T] is infinite in theory (pareto:1.5 sizes, FIFO: E[S²] = ∞; d = 1 in the limit, so no open mean-field question).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { jsonText, parseJsonText } from '../../src/io/index.ts';
import { runCli } from '../cli/runCli.ts';

const INTERVAL_KEYS = ['ci95', 'halfWidth', 'interval', 'lo', 'hi'];

/** Every object marked `infinite: true` in `value`, with its JSON path; and every path where an interval field is null. */
function walk(value: unknown, at = '$', found: { path: string; object: Record<string, unknown> }[] = [], nullIntervals: string[] = []) {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`, found, nullIntervals));
  else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (o.infinite === true) found.push({ path: at, object: o });
    // nor beside it: a row whose value is the ∞ object (a conjecture quantity) has no interval field either
    const holdsInfinite = Object.values(o).some(
      (v) => v !== null && typeof v === 'object' && (v as { infinite?: unknown }).infinite === true,
    );
    if (holdsInfinite) for (const k of INTERVAL_KEYS) if (k in o) nullIntervals.push(`${at}.${k} beside an ∞ object`);
    for (const [k, v] of Object.entries(o)) {
      // a finite estimate with an interval open at an end (`ci95Infinite`, a percentile) is the other shape: its end null
      if (v === null && INTERVAL_KEYS.includes(k) && 'mean' in o && o.ci95Infinite !== true) nullIntervals.push(`${at}.${k}`);
      walk(v, `${at}.${k}`, found, nullIntervals);
    }
  }
  return { found, nullIntervals };
}

/** Checks the one form over a JSON text; returns how many ∞ objects it holds. */
function expectOneForm(text: string, where: string): number {
  const { found, nullIntervals } = walk(JSON.parse(text));
  expect(nullIntervals, where).toEqual([]);
  for (const { path: p, object } of found) {
    // a flat row (figure data) has no `mean`: its value key is null beside the flag; those are not --json outputs here
    expect(object.mean, `${where} ${p}`).toBeNull();
    expect(typeof object.reason === 'string' && object.reason.length > 0, `${where} ${p} reason`).toBe(true);
    for (const k of INTERVAL_KEYS) expect(object, `${where} ${p}`).not.toHaveProperty(k);
    const extra = Object.keys(object).filter((k) => !['mean', 'infinite', 'reason', 'replications', 'sampleMean'].includes(k));
    expect(extra, `${where} ${p}`).toEqual([]);
  }
  return found.length;
}

describe('one JSON form of an infinite mean', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-one-inf-'));

  it('simulate, fixed-point, mg1 --json', async () => {
    for (const args of [
      'simulate --service pareto:1.5 --lambda 0.5 --d 2 --n 10 --jobs 1000 --replications 2 --threads 1 --json',
      'fixed-point --service pareto:1.5 --lambda 0.5 --d 1 --json',
      'mg1 --service pareto:1.5 --lambda 0.5 --json',
    ]) {
      const r = await runCli(args);
      expect(r.status, r.stderr).toBe(0);
      expect(expectOneForm(r.stdout, args), args).toBeGreaterThan(0);
    }
  });

  it('conjecture --json and its results.json', async () => {
    const file = path.join(tmp, 'c.json');
    writeFileSync(
      file,
      JSON.stringify({ name: 't', claim: 'T(jsq, fifo) < 100', grid: { lambda: [0.5], d: [1], service: ['pareto:1.5'] } }),
    );
    const out = path.join(tmp, 'conj');
    const r = await runCli(['conjecture', file, '--out', out, '--no-progress', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(expectOneForm(r.stdout, 'conjecture --json')).toBeGreaterThan(0);
    expect(expectOneForm(readFileSync(path.join(out, 'results.json'), 'utf8'), 'conjecture results.json')).toBeGreaterThan(0);
  });

  it('run --json and its results.json', async () => {
    const file = path.join(tmp, 'grid.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'inf',
        lambda: [0.5],
        d: [2],
        n: [10],
        selections: ['jsq'],
        disciplines: ['fifo'],
        service: ['pareto:1.5'],
        jobs: 1000,
        replications: 2,
        seed: 1,
        claims: [],
      }),
    );
    const out = path.join(tmp, 'run');
    const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(expectOneForm(r.stdout, 'run --json')).toBeGreaterThan(0);
    expect(expectOneForm(readFileSync(path.join(out, 'results.json'), 'utf8'), 'run results.json')).toBeGreaterThan(0);
  });

  it('replay --json (finite sizes: no ∞, and no null interval anywhere)', async () => {
    const swf = path.join(tmp, 'hand.swf');
    const rest = ' -1'.repeat(14);
    writeFileSync(swf, `; hand-made\n1 0 0 10${rest}\n2 4 6 3${rest}\n3 30 0 2${rest}\n`);
    const r = await runCli(['replay', swf, '--n', '1', '--no-rescale', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expectOneForm(r.stdout, 'replay --json');
  });

  it("the library's simulate() result is what its JSON reads back as: mean +∞ with the flag and the reason", () => {
    const model = parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5' });
    const r = simulate(model, { n: 10, jobs: 500, replications: 2, seed: 1, warmupTime: 5 });
    expect(r.meanResponseTime).toMatchObject({ mean: Infinity, infinite: true, reason: expect.stringMatching(/E\[S²\] = ∞/) });
    expect(parseJsonText(jsonText(r.meanResponseTime))).toEqual(r.meanResponseTime);
    expect(expectOneForm(jsonText({ t: r.meanResponseTime, s: r.meanSlowdown }), 'library')).toBe(2);
  });
});
