import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { parseModel } from '../../src/model/model.ts';

const SMALL = ['table', '--d', '2', '--lambda', '0.7', '--n', '3,6,12', '--runs', '3', '--events-per-run', '20000', '--no-progress'];

describe('supermarket table', () => {
  it('prints the table: simulated E[Q] with CIs, mean field, refined values, the exact chain at n ≤ 5, the fits', async () => {
    const r = await runCli([...SMALL, '--threads', '1']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('### d = 2, λ = 0.7: mean field E[Q] = 1.13012'); // Σπ of SQ(2) at ρ = 0.7
    expect(r.stdout).toMatch(/\| 3 \| [\d.]+ \(\d+\) \| 1\.\d+ ± 0\.\d+ \|.*\| 1\.\d+ \(/); // n = 3 has an exact value
    expect(r.stdout).toMatch(/\| 12 \| .*\| — \|/); // n = 12 has none
    // n = 3, 6, 12 are all outside the trusted range (ΣV/(nΣπ) ≤ 5 % from n = 16 here): no fit is read from them; before,
    // the fits over them read "agrees"/"disagrees" against ΣV, ΣA: the 1/n³ remainder, not the theory
    const fits = r.stdout.split('\n').filter((l) => l.startsWith('- fit '));
    expect(fits).toEqual([
      '- fit E[Q_n] − Σπ = c₁/n: not judged: fewer than 2 n in the trusted range (|ΣV|/(nΣπ) ≤ 5 %; here n ≥ 16); ' +
        'n = 3, 6, 12 outside the trusted range (|ΣV|/(nΣπ) > 5 %), left out',
      '- fit E[Q_n] − Σπ = c₁/n + c₂/n²: not judged: fewer than 3 n in the trusted range (|ΣV|/(nΣπ) ≤ 5 % and ' +
        '|ΣA|/(n|ΣV|) ≤ 0.5; here n ≥ 16); n = 3, 6, 12 outside the trusted range (|ΣV|/(nΣπ) > 5 %), left out',
    ]);
    // the refined 1st column is flagged there too, and a note names the cells
    expect(r.stdout).toMatch(/^\| 12 \|.*\| outside range \(1\.\d+, not trusted\) \|/m);
    expect(r.stdout).toContain('refined 1st "outside range" at d = 2, λ = 0.7, n = 3, 6, 12: there |ΣV|/(nΣπ) > 5 %');
  });

  it('fits and reads c₁, c₂ from the n in the trusted range only, names those left out; JSON and CSV carry them', async () => {
    // d = 2, λ = 0.5: ΣV/(nΣπ) ≤ 5 % from n = 10; n = 4 is left out
    const args = ['table', '--d', '2', '--lambda', '0.5', '--n', '4,10,20,40', '--runs', '3', '--events-per-run', '20000'];
    const r = await runCli([...args, '--no-progress', '--threads', '1', '--exact-max-n', '0', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    const fit = j.fits[0];
    expect(fit.nUsed).toEqual([10, 20, 40]);
    expect(fit.nUsedSquare).toEqual([10, 20, 40]);
    expect(fit.leftOut).toEqual([{ n: 4, why: 'outside-first-order-range' }]);
    expect(fit.inverseN.nUsed).toEqual([10, 20, 40]);
    expect(fit.inverseNSquare.nUsed).toEqual([10, 20, 40]);
    // the fits carry each coefficient's calibrated 95% half-width and its Welch ν, not only the s.e.
    expect(fit.inverseNSquare.weights).toBe('fixed');
    expect(fit.inverseNSquare.c1HalfWidth).toBeGreaterThan(fit.inverseNSquare.c1StandardError);
    expect(fit.inverseNSquare.c1DegreesOfFreedom).toBeGreaterThanOrEqual(2);
    expect(j.cells.map((c: { refinedFirstTrusted: boolean }) => c.refinedFirstTrusted)).toEqual([false, true, true, true]);
    const text = await runCli([...args, '--no-progress', '--threads', '1', '--exact-max-n', '0']);
    const line = text.stdout.split('\n').find((l) => l.startsWith('- fit E[Q_n] − Σπ = c₁/n + c₂/n²'))!;
    expect(line).toMatch(/over n = 10, 20, 40: c₁ = -?[\d.]+ ± [\d.]+ \(ΣV = [\d.]+: (agrees|disagrees|not resolvable within budget)\)/);
    expect(line).toMatch(/; n = 4 outside the trusted range \(\|ΣV\|\/\(nΣπ\) > 5 %\), left out$/);
    expect(text.stdout).toMatch(/^\| 4 \|.*\| outside range \(0\.\d+, not trusted\) \|/m);
    const csv = (await runCli([...args, '--no-progress', '--threads', '1', '--exact-max-n', '0', '--csv', '-'])).stdout.trim().split('\n');
    const header = csv[0].split(',');
    // appended at the end: the columns before it keep their places
    expect(header.slice(-2)).toEqual(['refined_second_trusted', 'refined_first_trusted']);
    expect(csv.slice(1).map((l) => l.split(',').at(-1))).toEqual(['false', 'true', 'true', 'true']);
  });

  it('--json on one thread and on two gives the same cells; --out and --csv write the files', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'table-'));
    const one = await runCli([...SMALL, '--threads', '1', '--json', '--exact-max-n', '0']);
    const two = await runCli([
      ...SMALL,
      '--threads',
      '2',
      '--json',
      '--exact-max-n',
      '0',
      '--out',
      path.join(dir, 'out'),
      '--csv',
      path.join(dir, 't.csv'),
    ]);
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    const a = JSON.parse(one.stdout);
    const b = JSON.parse(two.stdout);
    expect(b.cells).toEqual(a.cells);
    expect(a.cells).toHaveLength(3);
    expect(a.cells[0].meanResponseTime.mean).toBeCloseTo(a.cells[0].meanQueueLength.mean / 0.7, 12);
    // n = 3, 6, 12 outside the trusted range: no fit, and JSON says which n were left out (and none used)
    expect(a.fits[0]).toMatchObject({ inverseN: null, inverseNSquare: null, nUsed: [], nUsedSquare: [] });
    expect(a.fits[0].leftOut.map((l: { n: number }) => l.n)).toEqual([3, 6, 12]);
    expect(JSON.parse(readFileSync(path.join(dir, 'out', 'results.json'), 'utf8')).cells).toEqual(a.cells);
    expect(readFileSync(path.join(dir, 'out', 'table.md'), 'utf8')).toContain('### d = 2, λ = 0.7');
    const csv = readFileSync(path.join(dir, 't.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(/^d,lambda,n,mean_queue_length,/);
    expect(csv).toHaveLength(4);
  });

  it('the exact chains (pool tasks beside the simulation on two threads) give the same cells on one thread and two, resumed too', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'table-exact-'));
    const grid = [
      'table',
      '--d',
      '2',
      '--lambda',
      '0.7,0.9',
      '--n',
      '2,3,6',
      '--runs',
      '3',
      '--events-per-run',
      '5000',
      '--no-progress',
      '--json',
    ];
    const one = await runCli([...grid, '--threads', '1']);
    const two = await runCli([...grid, '--threads', '2', '--out', path.join(dir, 'out')]);
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    const a = JSON.parse(one.stdout);
    expect(JSON.parse(two.stdout).cells).toEqual(a.cells);
    // exact values at n = 2, 3 (n ≤ --exact-max-n 5), none at n = 6, each beside its own cell
    expect(a.cells.map((c: { n: number; exact: unknown }) => [c.n, c.exact === null])).toEqual([
      [2, false],
      [3, false],
      [6, true],
      [2, false],
      [3, false],
      [6, true],
    ]);
    expect(a.cells[0].exact.meanQueueLength).toBeLessThan(a.cells[3].exact.meanQueueLength); // λ 0.7 below λ 0.9
    // the exact chains' CPU is told apart from the simulation's (its events per CPU second stay the engine's)
    for (const r of [a, JSON.parse(two.stdout)]) {
      expect(r.run.exactCpuSeconds).toBeGreaterThanOrEqual(0);
      expect(r.run.cpuSeconds).toBeGreaterThan(0);
    }
    // every cell read back from the store: the exact chains run alone on the threads
    const resumed = await runCli([...grid, '--threads', '2', '--out', path.join(dir, 'out')]);
    expect(resumed.status, resumed.stderr).toBe(0);
    const c = JSON.parse(resumed.stdout);
    expect(c.run.resumedCells).toBe(6);
    expect(c.cells).toEqual(a.cells);
    // the exact values were stored beside the cells and read back, not solved again (before: resumedExact absent and
    // every chain solved anew on each resume)
    expect(JSON.parse(two.stdout).run.resumedExact).toBe(0);
    expect(c.run.resumedExact).toBe(4);
    // a lower --exact-max-n on resume: the stored n = 3 values are not shown (a fresh table with it shows none there)
    const narrower = await runCli([...grid, '--threads', '2', '--out', path.join(dir, 'out'), '--exact-max-n', '2']);
    expect(narrower.status, narrower.stderr).toBe(0);
    const e = JSON.parse(narrower.stdout);
    expect(e.cells.map((x: { n: number; exact: unknown }) => [x.n, x.exact === null])).toEqual([
      [2, false],
      [3, true],
      [6, true],
      [2, false],
      [3, true],
      [6, true],
    ]);
    expect(e.run.resumedExact).toBe(2);
    // a stored exact value of other code is refused in one line, as a stored cell is (cellStore `get`)
    const cellsDir = path.join(dir, 'out', 'cells');
    const exactFile = path.join(
      cellsDir,
      readdirSync(cellsDir).find((f) => f.startsWith('exact_'))!,
    );
    const stored = JSON.parse(readFileSync(exactFile, 'utf8'));
    expect(stored.value.exact.meanQueueLength).toBeGreaterThan(0);
    writeFileSync(exactFile, JSON.stringify({ ...stored, code: 'dist:0000000000000000' }));
    const mixed = await runCli([...grid, '--threads', '2', '--out', path.join(dir, 'out')]);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr.trim().split('\n')).toHaveLength(1);
    expect(mixed.stderr).toMatch(/was computed by other code/);
  });

  it('--start (default auto) is recorded in the settings, in every cell and the CSV, and in the settings a resume checks', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'table-start-'));
    const out = path.join(dir, 'out');
    const args = [...SMALL, '--threads', '1', '--json', '--exact-max-n', '0', '--out', out];
    const empty = JSON.parse((await runCli([...args, '--start', 'empty'])).stdout);
    expect(empty.settings.start).toBe('empty');
    expect(empty.cells.map((c: { start: string }) => c.start)).toEqual(['empty', 'empty', 'empty']);
    // at the fixed point the warm-up is the rule read from there at each n: shorter than from empty but at the smallest n
    const fixed = JSON.parse((await runCli([...args, '--start', 'fixed-point'])).stdout);
    expect(fixed.settings.start).toBe('fixed-point');
    expect(fixed.run.resumedCells).toBe(0); // the cells stored from empty are not reused for another start
    fixed.cells.forEach((c: { start: string; warmupEvents: number }, i: number) => {
      expect(c.start).toBe('fixed-point');
      if (i > 0) expect(c.warmupEvents).toBeLessThan(empty.cells[i].warmupEvents); // n = 6, 12 (at n = 3: 235 against 229)
    });
    const again = JSON.parse((await runCli([...args, '--start', 'fixed-point'])).stdout);
    expect(again.run.resumedCells).toBe(3);
    expect(again.cells).toEqual(fixed.cells);
    const auto = JSON.parse((await runCli([...SMALL, '--threads', '1', '--json', '--exact-max-n', '0'])).stdout);
    expect(auto.settings.start).toBe('auto');
    for (const c of auto.cells) expect(['empty', 'fixed-point']).toContain(c.start);
    const csv = readFileSync(path.join(out, 'table.csv'), 'utf8').trim().split('\n');
    const column = csv[0].split(',').indexOf('start');
    expect(column).toBeGreaterThan(0);
    expect(csv.slice(1).map((l) => l.split(',')[column])).toEqual(['fixed-point', 'fixed-point', 'fixed-point']);
    expect(readFileSync(path.join(out, 'table.md'), 'utf8')).toContain(
      'Runs start at the fixed point (round(n·s_i*) servers with ≥ i jobs) at n = 3, 6, 12',
    );
  });

  it('the warm-up is the rule uncapped, as simulate and compare read it (d = 1, λ = 0.99: τ = 1/(1 − √λ)² ≈ 39 800 > 5000)', async () => {
    const r = await runCli([
      'table',
      '--d',
      '1',
      '--lambda',
      '0.99',
      '--n',
      '2',
      '--runs',
      '2',
      '--events-per-run',
      '2000',
      '--no-progress',
      '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const cell = JSON.parse(r.stdout).cells[0] as { warmupTime: number; warmupEvents: number };
    const rule = simulationWarmup(parseModel({ lambda: 0.99, d: 1 }), { start: 'auto', n: 2, cap: Number.POSITIVE_INFINITY });
    expect(rule.time).toBeGreaterThan(5000); // the old default cap (5000) would have bitten here
    expect(cell.warmupTime).toBe(rule.time);
    expect(cell.warmupEvents).toBe(Math.ceil(rule.time * 2 * 1.99)); // n(λ + 1) events per time unit
  });

  it('refuses bad input with one line', async () => {
    for (const [args, pattern] of [
      [['table', '--lambda', '1.2'], /each load must lie in \(0, 1\)/],
      [['table', '--d', '3', '--n', '2'], /each n must be ≥ the largest d/],
      [['table', '--runs', '1'], /at least 2 runs/],
      [['table', '--max-runs', '10'], /--max-runs acts only with --precision/],
      [['table', '--precision', '2'], /relative half-width in \(0, 1\)/],
    ] as const) {
      const r = await runCli([...args]);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
      expect(r.stdout).toBe('');
    }
  });

  it('--help teaches: the chain, the columns and the cost', async () => {
    const r = await runCli(['table', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('uniformised at rate n(λ + 1)');
    expect(r.stdout).toContain('--precision <rel>');
    expect(r.stdout).toContain('Cost:');
  });
});

describe('supermarket table --shard and merge', () => {
  it('two shards merged give the cells of one run', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'table-shards-'));
    const grid = [
      'table',
      '--d',
      '2',
      '--lambda',
      '0.7,0.9',
      '--n',
      '4,8',
      '--runs',
      '3',
      '--events-per-run',
      '10000',
      '--exact-max-n',
      '0',
      // not the default: the shards' --start must reach the merge, which reruns their command over the grid
      '--start',
      'empty',
    ];
    const whole = await runCli([...grid, '--no-progress', '--threads', '1', '--json']);
    expect(whole.status, whole.stderr).toBe(0);
    for (const shard of ['1/2', '2/2']) {
      const r = await runCli([...grid, '--no-progress', '--threads', '1', '--shard', shard, '--out', path.join(dir, 'r')]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^shard ${shard}: 2 of 4 cells`));
    }
    const merged = await runCli(['merge', path.join(dir, 'r'), '--json', '--no-progress']);
    expect(merged.status, merged.stderr).toBe(0);
    const a = JSON.parse(whole.stdout);
    const b = JSON.parse(merged.stdout);
    expect(b.cells).toEqual(a.cells);
    expect(b.settings.start).toBe('empty');
    expect(new Set(b.cells.map((c: { start: string }) => c.start))).toEqual(new Set(['empty']));
    expect(b.run.resumedCells).toBe(4);
    expect(b.run.events).toBe(0);
    // trial M4: the merged table rests on the shards' events; its footer said "0 events in 0.1 s (0.0 M events/s)"
    expect(b.run.storedEvents).toBe(a.run.events);
    const text = await runCli(['merge', path.join(dir, 'r'), '--no-progress']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/no events simulated in this run: all 4 cells read from stored runs \([\d.e]+ events behind them\)/);
    expect(text.stdout).not.toMatch(/^0 events in/m);
  });
});
