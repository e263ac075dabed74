/**
 * Issue 21 item 1: a mean that is infinite in theory (model/moments.ts, `estimandFiniteness`) is ∞ in every room —
 * the library result, the `run` tables, figures and results.json, claims (undefined, never holds or fails), merge, mg1.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimandFiniteness, parseModel } from '../../src/model/index.ts';
import { mg1 } from '../../src/meanfield/mg1/index.ts';
import { simulate } from '../../src/sim/index.ts';
import { jsonText, parseJsonText } from '../../src/io/index.ts';
import { parseConjecture } from '../../src/claims/index.ts';
import { judgeExperimentClaims, type CellOutcome } from '../../src/experiments/index.ts';
import { runCli } from '../cli/runCli.ts';

const jsqFifo = parseModel({ lambda: 0.7, d: 2, selection: 'jsq', discipline: 'fifo', service: 'exp' });

describe('infinite means (issue 21 item 1)', () => {
  it('simulate(JSQ(2) + FIFO, exponential sizes).meanSlowdown is +∞ with its reason; E[T] stays finite', () => {
    const r = simulate(jsqFifo, { n: 10, jobs: 500, replications: 2, seed: 1, warmupTime: 5 });
    expect(r.meanSlowdown.mean).toBe(Infinity);
    expect(r.meanSlowdown.infinite).toBe(true);
    expect(r.meanSlowdown.reason).toMatch(/E\[1\/S\] = ∞/);
    expect(Number.isFinite(r.meanSlowdown.sampleMean)).toBe(true);
    expect(Number.isFinite(r.meanResponseTime.mean)).toBe(true);
    // SRPT lets small jobs pass: finite
    const srpt = simulate(parseModel({ ...jsqFifo, discipline: 'srpt' }), { n: 10, jobs: 500, replications: 2, seed: 1, warmupTime: 5 });
    expect(Number.isFinite(srpt.meanSlowdown.mean)).toBe(true);
  });

  it('the paper-synthetic cells JSQ+FIFO, LWL+FIFO, LPW+SPRPT (exp predictions) have E[T/S] = ∞ by the one rule; JSQ+SRPT not', () => {
    const at = (selection: string, discipline: string, service: string) =>
      estimandFiniteness(parseModel({ lambda: 0.9, d: 2, selection, discipline, service, prediction: 'exp' })).meanSlowdown.finite;
    for (const service of ['exp', 'weibull:0.5']) {
      expect(at('jsq', 'fifo', service)).toBe(false);
      expect(at('lwl', 'fifo', service)).toBe(false);
      expect(at('lpw', 'sprpt', service)).toBe(false);
      expect(at('jsq', 'srpt', service)).toBe(true);
    }
  });

  it('jsonText / parseJsonText: one encoding of ∞ (mean null, infinite: true), read back as +∞', () => {
    const r = simulate(jsqFifo, { n: 10, jobs: 300, replications: 2, seed: 2, warmupTime: 5 });
    const text = jsonText({ s: r.meanSlowdown });
    const raw = JSON.parse(text).s;
    expect(raw).toMatchObject({ mean: null, infinite: true, replications: 2 });
    expect(raw).not.toHaveProperty('ci95'); // the one ∞ object: no interval fields, not even null ones
    expect(raw).not.toHaveProperty('halfWidth');
    expect(typeof raw.sampleMean).toBe('number');
    const back = (parseJsonText(text) as { s: typeof r.meanSlowdown }).s;
    expect(back.mean).toBe(Infinity);
    expect(back.infinite).toBe(true);
  });

  it('a claim over an infinite quantity is "undefined", never holds or fails: S(jsq, fifo) < 100 on a JSQ+FIFO cell', () => {
    const r = simulate(jsqFifo, { n: 10, jobs: 300, replications: 2, seed: 3, warmupTime: 5 });
    const outcome = {
      cell: {
        selection: 'jsq',
        discipline: 'fifo',
        service: 'exp',
        prediction: 'none',
        memory: 'none',
        lambda: 0.7,
        d: 2,
        n: 10,
        replications: 2,
        jobs: 300,
      },
      result: { meanResponseTime: r.meanResponseTime, meanQueueLength: r.meanQueueLength, meanSlowdown: r.meanSlowdown },
    } as unknown as CellOutcome;
    const claim = parseConjecture(
      { name: 's-bounded', claim: 'S(jsq, fifo) < 100', grid: { lambda: [0.7], d: [2], service: ['exp'] } },
      'claim',
    );
    const [finding] = judgeExperimentClaims([claim], [outcome]);
    expect(finding.verdict).toBe('undefined');
    expect(finding.evidence).toMatch(/infinite in theory/);
  });

  it('mg1 with pareto α = 1.5: E[T] = ∞ for FIFO, SJF, SPJF; finite for SRPT, PSJF; `mg1 --all` prints the table, exit 0', async () => {
    const at = (discipline: string) => mg1(parseModel({ lambda: 0.5, d: 1, selection: 'random', discipline, service: 'pareto:1.5' }));
    for (const d of ['fifo', 'sjf', 'spjf']) expect(at(d).meanResponseTime, d).toBe(Infinity);
    for (const d of ['srpt', 'psjf']) expect(Number.isFinite(at(d).meanResponseTime), d).toBe(true);
    const cli = await runCli('mg1 --all --service pareto:1.5 --lambda 0.5');
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/fifo\s+∞/);
    expect(cli.stdout).toMatch(/srpt\s+1\.40/);
    const json = await runCli('mg1 --service pareto:1.5 --lambda 0.5 --json');
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      meanResponseTime: { mean: null, infinite: true, reason: expect.stringMatching(/^E\[S²\] = ∞/) },
      responseTimeFinite: false,
    });
  });

  it('fixed-point for M/G/1 FIFO with pareto α = 1.5 prints E[T] = ∞ (reason), JSON the ∞ object + responseTimeFinite: false, as mg1', async () => {
    const args = ['fixed-point', '--d', '1', '--selection', 'random', '--lambda', '0.7', '--service', 'pareto:1.5'];
    const text = await runCli(args);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/E\[T\] = ∞ \(E\[S²\] = ∞ \(pareto α = 1\.5 ≤ 2\)/);
    expect(text.stdout).not.toMatch(/Infinity|NaN/);
    const json = await runCli([...args, '--json']);
    const out = JSON.parse(json.stdout);
    expect(out.meanResponseTime).toEqual({ mean: null, infinite: true, reason: out.infiniteReason });
    expect(out.responseTimeFinite).toBe(false);
    expect(out.infiniteReason).toMatch(/E\[S²\] = ∞/);
    // a finite mean carries no such field
    const finite = JSON.parse((await runCli(['fixed-point', '--d', '1', '--selection', 'random', '--lambda', '0.7', '--json'])).stdout);
    expect(finite.responseTimeFinite).toBeUndefined();
  });

  it('run (tables, figure rows, results.json, findings) and merge show ∞ for JSQ+FIFO slowdown, never a finite number', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-inf-'));
    writeFileSync(
      path.join(tmp, 's.json'),
      JSON.stringify({ name: 's-bounded', claim: 'S(jsq, fifo) < 100', grid: { lambda: [0.5], d: [2], service: ['exp'] } }),
    );
    const file = path.join(tmp, 'inf.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'inf',
        lambda: [0.5],
        d: [2],
        n: [10],
        policies: [
          { selection: 'jsq', discipline: 'fifo' },
          { selection: 'jsq', discipline: 'srpt' },
        ],
        service: ['exp'],
        jobs: 300,
        replications: 2,
        seed: 1,
        warmup: 5,
        claims: ['s.json'],
      }),
    );
    const check = (out: string) => {
      const md = readFileSync(path.join(out, 'report.md'), 'utf8');
      const slowdown = md.slice(md.indexOf('## Mean slowdown'));
      // ∞ cites its reason by mark, said once under the tables (it was repeated in a footnote)
      expect(slowdown).toMatch(/\| JSQ\+FIFO \| ∞ \[1\] \|/);
      expect(slowdown).toMatch(/∞ \[k\]: the mean is infinite in theory.*because:\n\n- \[1\] E\[1\/S\] = ∞/);
      expect(slowdown.split('E[1/S] = ∞').length - 1).toBe(1);
      expect(md).toMatch(/undefined \(infinite\)/);
      const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
      const fifo = results.cells.find((c: CellOutcome) => c.cell.discipline === 'fifo');
      expect(fifo.result.meanSlowdown).toMatchObject({ mean: null, infinite: true });
      expect(results.findings[0].verdict).toBe('undefined');
      // the ∞ row stays in the figure's data (was dropped): value, lo, hi null, infinite true, the reason; not drawn
      const rows = JSON.parse(readFileSync(path.join(out, 'figures', 'slowdown.json'), 'utf8')) as Record<string, unknown>[];
      const inf = rows.find((r) => String(r.policy).toLowerCase() === 'jsq+fifo');
      expect(inf).toMatchObject({ value: null, lo: null, hi: null, infinite: true, reason: expect.stringMatching(/E\[1\/S\] = ∞/) });
      expect(rows.find((r) => String(r.policy).toLowerCase() === 'jsq+srpt')?.value).toEqual(expect.any(Number));
      const csv = readFileSync(path.join(out, 'figures', 'slowdown.csv'), 'utf8').split('\n');
      const header = csv[0].split(',');
      const line = csv.find((l) => /jsq\+fifo/i.test(l))!;
      expect(line).toBeDefined();
      expect(line).not.toMatch(/NaN|Infinity/);
      expect(header).toContain('infinite');
      const spec = JSON.parse(readFileSync(path.join(out, 'figures', 'slowdown.vl.json'), 'utf8'));
      expect(spec.transform).toEqual([{ filter: 'datum.infinite !== true && datum.unsettled !== true' }]);
    };
    const out = path.join(tmp, 'out');
    const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    check(out);
    const shards = [1, 2].map((i) => path.join(tmp, `s${i}`));
    for (const [i, dir] of shards.entries()) {
      const s = await runCli(['run', file, '--shard', `${i + 1}/2`, '--out', dir, '--threads', '1', '--no-progress']);
      expect(s.status, s.stderr).toBe(0);
    }
    const merged = path.join(tmp, 'merged');
    const m = await runCli(['merge', ...shards, '--out', merged, '--no-progress']);
    expect(m.status, m.stderr).toBe(0);
    check(merged);
    expect(readdirSync(merged)).toContain('results.json');
  }, 600_000);
});
