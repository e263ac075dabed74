/**
 * One name per concept in every output (issue 18, fresh-user trial): a memory the JSON names is one `--memory` (or
 * `--selection jiq`) takes; every engine a header prints is an `--engine` choice; a solver's source names the checks
 * it makes on that model; event counts are formatted by one formatter.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { DISCIPLINES, SELECTIONS, parseMemoryShort, parseModel, validateModel } from '../../src/model/index.ts';
import { ENGINE_CHOICES, simulate } from '../../src/sim/index.ts';
import { formatCount } from '../../src/stats/index.ts';
import { runCli } from './runCli.ts';

describe('names the user can type back', () => {
  it('fixed-point --json names the memory as --memory takes it (jiq: none, capacity unbounded; bcp:2 as bcp:2)', async () => {
    for (const [flags, memory, capacity] of [
      ['--selection jiq --d 1', 'none', 'unbounded'],
      ['--d 2 --memory bcp:2', 'bcp:2', 2],
    ] as const) {
      const r = await runCli(`fixed-point --lambda 0.8 ${flags} --json`);
      expect(r.status, r.stderr).toBe(0);
      const reduction = JSON.parse(r.stdout).reduction;
      expect(reduction.memory).toBe(memory);
      expect(reduction.capacity).toBe(capacity);
      expect(() => parseMemoryShort(reduction.memory)).not.toThrow();
    }
  });

  it('every engine a simulation result names is an --engine choice, and choosing it runs that engine', () => {
    const options = { n: 6, jobs: 300, replications: 2, seed: 1, warmupTime: 1 };
    for (const discipline of ['fifo', 'srpt', 'ps', 'las'] as const) {
      const model = parseModel({ lambda: 0.5, d: 2, discipline, service: 'hyperexp:2' });
      const named = simulate(model, options).engine;
      expect(Object.keys(ENGINE_CHOICES), discipline).toContain(named);
      expect(simulate(model, { ...options, engine: named }).engine).toBe(named);
    }
    expect(() => simulate(parseModel({ lambda: 0.5, d: 2 }), { ...options, engine: 'sharing' })).toThrow(
      /engine "sharing" runs the sharing servers \(PS, LAS\), not discipline fifo/,
    );
  });

  it('a cavity solver’s source names only the checks it makes on that model (no FIFO phase-type ODE for LAS, SRPT …)', () => {
    let cavities = 0;
    for (const selection of SELECTIONS)
      for (const discipline of DISCIPLINES) {
        let model;
        try {
          model = validateModel({ lambda: 0.7, d: selection === 'random' || selection === 'jiq' ? 1 : 2, selection, discipline });
        } catch {
          continue; // a combination the model room refuses
        }
        const fp = meanFieldCapabilities(model).fixedPoint;
        if (!fp.available || !fp.id.endsWith('cavity')) continue;
        cavities++;
        if (discipline !== 'fifo') expect(fp.source, `${selection}+${discipline}`).not.toMatch(/FIFO phase-type ODE/);
      }
    expect(cavities).toBeGreaterThan(5);
    expect(meanFieldCapabilities(parseModel({ lambda: 0.7, d: 2, discipline: 'las', service: 'weibull:0.5' })).fixedPoint).toMatchObject({
      source: expect.stringMatching(/LAS server .*checked \(work conservation, busy fraction, Little/),
    });
  });

  it('formatCount: one formatter for event counts (no "0.04e9")', () => {
    expect(formatCount(42)).toBe('42');
    expect(formatCount(4e7)).toBe('4.00e7');
    expect(formatCount(0.04e9)).toBe('4.00e7');
    expect(formatCount(1.52e10)).toBe('1.52e10');
    expect(formatCount(123456, 2)).toBe('1.2e5');
  });
});

describe('a sampling rule at d = 1 is random routing in every output (fixed-point --d 1 said "JSQ(1)")', () => {
  it.each([
    ['--d 1', /^Mean field \(n → ∞\): RANDOM \(d = 1\) \+ FIFO, λ = 0\.9, fixed point closed-form/m],
    ['--d 1 --service erlang:2', /^Mean field \(n → ∞\): RANDOM \(d = 1\) \+ FIFO, service erlang:2, λ = 0\.9$/m],
    // LWL(1) is JSQ(1) (randomRoutingTwin): the same header and solver (it said "service exp" and took the M/G/1 formula)
    ['--d 1 --selection lwl', /^Mean field \(n → ∞\): RANDOM \(d = 1\) \+ FIFO, λ = 0\.9, fixed point closed-form/m],
  ])('fixed-point %s names RANDOM (d = 1) in text and in --json `policy`, never JSQ(1) or LWL(1)', async (flags, header) => {
    const text = await runCli(`fixed-point --lambda 0.9 ${flags}`);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(header);
    expect(text.stdout).not.toMatch(/(JSQ|LWL)\(1\)/);
    const json = await runCli(`fixed-point --lambda 0.9 ${flags} --json`);
    expect(JSON.parse(json.stdout).policy).toBe('RANDOM (d = 1) + FIFO');
  });
});

// compare --selection lwl --d 1 titled its report "Convergence report: LWL(d) FIFO" and "LWL(d) selection" while the
// cells of that grid are random routing: the convergence heading names the rule by its grid's d, as the validation one
describe('compare names a sampling rule whose grid is d = 1 as random routing in its report heading', () => {
  it('compare --selection lwl --d 1: "RANDOM (d = 1: random routing) FIFO", never LWL(d)', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-lwl1-')), 'r');
    const r = await runCli(
      `compare --selection lwl --lambda 0.9 --d 1 --n 10 --jobs 2000 --replications 2 --exact-n none --threads 1 --no-progress --out ${out}`,
    );
    expect(r.status, r.stderr).toBe(0);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    const heading = md.split('\n').slice(0, 3).join('\n');
    // compared as JSQ(1) (randomRoutingTwin): the validation report of SQ(1), refined term V = 0 and ODE transient included
    expect(heading).toMatch(/^# Validation report: SQ\(d\) mean field/);
    expect(heading).toMatch(/^RANDOM \(d = 1: random routing\) selection, FIFO, exponential service/m);
    expect(heading).not.toMatch(/LWL/);
  }, 600_000);
});
