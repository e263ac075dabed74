/**
 * Issue 21 §11: a stiff population model failed in the fixed-point step before the requested transient, and the
 * suggested maxSteps / tolerance could not be set from the CLI. `model --max-steps` sets the odex budget of the
 * transient and of the fixed point's ODE relaxation, `--tolerance` (given) both tolerances, and a transient runs
 * without a fixed point whose ODE relaxation ran out of steps.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SolverError } from '../../src/errors.ts';
import { populationFixedPoint } from '../../src/meanfield/population/index.ts';
import { parsePopulationModel } from '../../src/model/population/parse.ts';
import { runCli } from './runCli.ts';

const file = path.resolve(import.meta.dirname, '../../models/jsq-d.json');

describe('model --max-steps', () => {
  it('populationFixedPoint(maxSteps) bounds the ODE relaxation (ρ = 2: Newton fails from the start, the ODE runs out)', () => {
    const model = parsePopulationModel(JSON.parse(readFileSync(file, 'utf8')), { lambda: 2 }, { file });
    expect(() => populationFixedPoint(model, { maxSteps: 7 })).toThrow(SolverError);
    expect(() => populationFixedPoint(model, { maxSteps: 7 })).toThrow(/maxSteps = 7/);
  });

  it('the fixed point out of steps does not stop --transient; --max-steps reaches the transient too', async () => {
    const r = await runCli(['model', file, '--set', 'lambda=2', '--transient', '--t-end', '4', '--dt', '1', '--max-steps', '7', '--json']);
    // the transient to t = 4 needs more than 7 steps: its error names the budget given, not the fixed point's
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/maxSteps = 7\) integrating the population model \(K = \d+\) on \[0, 4\]/);
    const ok = await runCli([
      'model',
      file,
      '--set',
      'lambda=2',
      '--transient',
      '--t-end',
      '4',
      '--dt',
      '1',
      '--max-steps',
      '400',
      '--json',
    ]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).transient.times).toEqual([0, 1, 2, 3, 4]);
  });
});
