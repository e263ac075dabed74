/**
 * `--start` of run and conjecture (one option, `startOption`; one rule, `simulationWarmup`): by default ('auto') a
 * simulated SQ(d) cell starts at the mean-field fixed point with that start's warm-up at its n, any other model empty,
 * and every cell or simulation names its start; `--start empty` keeps the empty start everywhere.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { parseModel } from '../../src/model/model.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-start-'));
const sqd = parseModel({ lambda: 0.9, d: 2 });
const fixedPointWarmup = (n: number) => simulationWarmup(sqd, { start: 'fixed-point', n }).time;
const emptyWarmup = simulationWarmup(sqd).time;

describe('run --start', () => {
  const file = path.join(tmp, 'grid.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'start-grid',
      lambda: [0.9],
      d: [2],
      n: [50],
      selections: ['jsq', 'lwl'],
      disciplines: ['fifo'],
      service: ['exp'],
      jobs: 500,
      replications: 2,
      seed: 4,
      claims: [],
    }),
  );
  type Cell = { policy: string; start: string; warmupTime: number };
  const cells = async (...extra: string[]) => {
    const r = await runCli([
      'run',
      file,
      '--out',
      path.join(tmp, `run${extra.join('')}`),
      '--threads',
      '1',
      '--no-progress',
      '--json',
      ...extra,
    ]);
    expect(r.status, r.stderr).toBe(0);
    return new Map((JSON.parse(r.stdout).cells as Cell[]).map((c) => [c.policy, c]));
  };

  it('default auto: the SQ(d) cell starts at the fixed point after its rule at n, LWL(2) empty; both named', async () => {
    const c = await cells();
    expect(c.get('JSQ+FIFO')).toMatchObject({ start: 'fixed-point', warmupTime: fixedPointWarmup(50) });
    expect(c.get('LWL+FIFO')!.start).toBe('empty');
    const md = readFileSync(path.join(tmp, 'run', 'report.md'), 'utf8');
    expect(md).toContain('1 of 2 cells start each replication at the mean-field fixed point');
  });

  it('--start empty: every cell from empty, with the empty rule', async () => {
    const c = await cells('--start', 'empty');
    expect(c.get('JSQ+FIFO')).toMatchObject({ start: 'empty', warmupTime: emptyWarmup });
    expect(c.get('LWL+FIFO')!.start).toBe('empty');
  });

  it('--start fixed-point on a grid with a model without that start is refused in one line', async () => {
    const r = await runCli(['run', file, '--out', path.join(tmp, 'runfp'), '--threads', '1', '--no-progress', '--start', 'fixed-point']);
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/fixed-point start needs the SQ\(d\) model/);
  });
});

describe('conjecture --start', () => {
  const file = path.join(tmp, 'claim.json');
  const write = (evaluation: Record<string, unknown>) =>
    writeFileSync(
      file,
      JSON.stringify({
        name: 'start-claim',
        description: 'JSQ(2) beats random at n = 40 (simulated)',
        claim: 'T(jsq, fifo) < T(random, fifo)',
        grid: { lambda: [0.9], d: [2], service: ['exp'] },
        evaluation: { n: 40, jobs: 500, replications: 2, seed: 3, prefer: 'simulation', ...evaluation },
      }),
    );
  let runs = 0;
  type Sim = { model: { selection: string }; start: string; options: { warmupTime: number; start?: { name: string } } };
  const sims = async (...extra: string[]) => {
    const out = path.join(tmp, `conj${extra.join('')}${++runs}`);
    const r = await runCli(['conjecture', file, '--out', out, '--threads', '1', '--no-progress', ...extra]);
    expect(r.status, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    return new Map((results.simulations as Sim[]).map((s) => [s.model.selection, s]));
  };

  it('default auto: the SQ(d) side starts at the fixed point (n = 40), random as JSQ(1) too; each names its start', async () => {
    write({});
    const s = await sims();
    // random routing is JSQ(1) (randomRoutingTwin): its start and warm-up are JSQ(1)'s (it started empty, as LWL(1) did)
    expect(s.get('random')!.start).toBe('fixed-point');
    expect(s.get('random')!.options.warmupTime).toBe(
      simulationWarmup(parseModel({ lambda: 0.9, d: 1 }), { start: 'fixed-point', n: 40 }).time,
    );
    const jsq = s.get('jsq')!;
    expect(jsq.start).toBe('fixed-point');
    expect(jsq.options.start?.name).toBe('fixed-point');
    expect(jsq.options.warmupTime).toBe(simulationWarmup(sqd, { start: 'fixed-point', n: 40 }).time);
  });

  it("--start empty overrides the file's start; the file's start holds where --start is not given", async () => {
    write({ start: 'fixed-point' });
    const empty = await sims('--start', 'empty');
    expect(empty.get('jsq')).toMatchObject({ start: 'empty', options: { warmupTime: emptyWarmup } });
    expect(empty.get('jsq')!.options.start).toBeUndefined();
    write({ start: 'empty' });
    expect((await sims()).get('jsq')!.start).toBe('empty');
  });
});

describe('simulate names its start in the text, as every result does', () => {
  // a fresh-user trial: `simulate --lambda 0.9 --d 2 --n 100` (default --start empty) printed "after a warm-up of
  // 150.3 time units; seed 1" with no start, while --start fixed-point printed "… from the fixed point"
  it('--start empty says "from empty", fixed-point says "from the fixed point", each with its warm-up', async () => {
    const run = (...extra: string[]) =>
      runCli(['simulate', '--lambda', '0.9', '--d', '2', '--n', '40', '--jobs', '500', '--replications', '2', '--no-progress', ...extra]);
    const empty = await run('--start', 'empty');
    expect(empty.status, empty.stderr).toBe(0);
    expect(empty.stdout).toContain(`after a warm-up of ${emptyWarmup.toFixed(1)} time units from empty; seed 1`);
    const fixed = await run('--start', 'fixed-point');
    expect(fixed.stdout).toContain(`after a warm-up of ${fixedPointWarmup(40).toFixed(1)} time units from the fixed point; seed 1`);
  }, 600_000);
});

describe('simulate starts where compare, run and table start: one default, auto (it started empty)', () => {
  // fresh-user report 2026-12-03: simulate --n 1000 warmed up 150.3 time units from empty where compare took 18.5
  // from the fixed point; the guide has one warm-up rule, so one default start
  it('every command that simulates defaults --start to auto, and simulate without --start runs the auto rule at its n', async () => {
    for (const command of ['simulate', 'compare', 'run', 'table', 'conjecture']) {
      const help = (await runCli([command, '--help'])).stdout.replace(/\s+/g, ' ');
      expect(help, command).toMatch(/--start <start> .*\(choices: "auto", "empty", "fixed-point", default: "auto"\)/);
    }
    for (const n of [40, 1000]) {
      const auto = simulationWarmup(sqd, { start: 'auto', n, cap: Number.POSITIVE_INFINITY });
      const r = await runCli(`simulate --lambda 0.9 --d 2 --n ${n} --jobs 200 --replications 2 --no-progress --json`);
      expect(r.status, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(j.warmupTime).toBe(auto.time);
      expect(auto.start).toBe('fixed-point');
      expect(j.warmupTime).toBeLessThan(emptyWarmup); // 18.5 against 150.3 at n = 1000
    }
  }, 600_000);

  it('auto starts empty where the fixed point needs more levels than a state holds (d = 1, ρ = 0.9999: K = 276297)', async () => {
    const m11 = parseModel({ lambda: 0.9999, d: 1 });
    const w = simulationWarmup(m11, { start: 'auto', n: 10, cap: Number.POSITIVE_INFINITY });
    expect(w.start ?? 'empty').toBe('empty');
    expect(w.time).toBe(simulationWarmup(m11, { start: 'empty', n: 10, cap: Number.POSITIVE_INFINITY }).time);
    // so simulate refuses the run for its size, not for the fixed point's truncation level
    const r = await runCli('simulate --lambda 0.9999 --d 1 --n 10 --jobs 1e4');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^supermarket: error: this run needs about .* events/);
  }, 600_000);

  it('with --per-server and no --start, simulate starts empty (the records rerun replication 1 from empty) and says so', async () => {
    const r = await runCli('simulate --lambda 0.9 --d 2 --n 10 --jobs 200 --replications 2 --no-progress --per-server');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`after a warm-up of ${emptyWarmup.toFixed(1)} time units from empty; seed 1`);
    const help = (await runCli('simulate --help')).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/With --per-job or --per-server and no --start: empty/);
    const refused = await runCli('simulate --lambda 0.9 --d 2 --n 10 --jobs 200 --replications 2 --per-server --start fixed-point');
    expect(refused.status).toBe(2);
  }, 600_000);
});

describe('--warmup-tolerance help states the rule of each start, with its floor', () => {
  // a fresh-user trial: the help said "(≥ 3τ)" only, the empty start's floor, while compare starts at the fixed point by
  // default, whose rule reads V(t)/n and whose floor is FIXED_POINT_FLOOR_TAUS = 1τ
  it('compare and simulate --help name both rules and both floors', async () => {
    for (const command of ['compare', 'simulate']) {
      const r = await runCli([command, '--help']);
      const help = r.stdout.replace(/\s+/g, ' ');
      expect(help, command).toMatch(/--warmup-tolerance <ε> tolerance ε of the warm-up rule .*from empty, .*\(≥ 3τ\)/);
      expect(help, command).toMatch(
        /from the fixed point, 2 × the time for the refined transient V\(t\)\/n to come within ε of V\/n \(≥ 1τ\)/,
      );
    }
  }, 600_000);
});
