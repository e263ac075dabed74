import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../../src/errors.ts';
import {
  parsePopulationModel,
  populationDrift,
  populationFixedPoint,
  requireSmoothModel,
} from '../../../src/meanfield/population/index.ts';
import { modelJson, shipped } from './helpers.ts';

const FILE = 'models/jsq-d.json';

/** The message of the InvalidModelError that `run` throws. */
function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidModelError);
    return (error as Error).message;
  }
  throw new Error('expected an InvalidModelError');
}

function mutated(change: (m: any) => void): unknown {
  const m = structuredClone(modelJson('jsq-d.json'));
  change(m);
  return m;
}

describe('parsePopulationModel', () => {
  it('parsePopulationModel(jsq-d.json) instantiates the templates: 20 variables, 40 transitions, s0 and s21 constants', () => {
    const m = shipped('jsq-d.json');
    expect(m.variables).toEqual(Array.from({ length: 20 }, (_, i) => `s${i + 1}`));
    expect(m.transitions.length).toBe(40);
    expect(m.constants).toEqual({ s0: 1, s21: 0 });
    expect(m.transitions[0]).toEqual({ label: 'transitions[0] (arrival) (i = 1)', change: { s1: 1 }, rate: 'lambda * (s0^d - s1^d)' });
    expect(m.transitions[39].rate).toBe('s20 - s21');
    expect(m.observables.meanQueueLength).toBe('sum(s)');
    expect(Object.isFrozen(m) && Object.isFrozen(m.transitions[0].change)).toBe(true);
  });

  it('parsePopulationModel(json, overrides) replaces parameters, including the size K of generators and loops', () => {
    const m = shipped('jsq-d.json', { lambda: 0.95, K: 7 });
    expect(m.parameters).toEqual({ lambda: 0.95, d: 2, K: 7 });
    expect(m.variables.length).toBe(7);
    expect(m.constants.s8).toBe(0);
  });

  it('parsePopulationModel(json) leaves its input unmodified', () => {
    const json = Object.freeze(modelJson('threshold-probe.json'));
    const copy = structuredClone(json);
    parsePopulationModel(json);
    expect(json).toEqual(copy);
  });

  it('parsePopulationModel(json) reports a misspelt key with its JSON path', () => {
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.transitons = m.transitions;
          }),
          {},
          { file: FILE },
        ),
      ),
    ).toBe(
      `${FILE}: (top level): unknown key "transitons" (did you mean "transitions"?); allowed keys: name, description, source, parameters, constants, variables, transitions, initial, observables`,
    );
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.transitions[0].rate = 3;
          }),
          {},
          { file: FILE },
        ),
      ),
    ).toMatch(/^models\/jsq-d\.json: transitions\[0\]\.rate: .*expected string/);
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            delete m.transitions[1].to;
          }),
          {},
          { file: FILE },
        ),
      ),
    ).toBe(`${FILE}: transitions[1]: "for" needs "from" and "to"`);
  });

  it('parsePopulationModel(json) names the transition and the unknown variable of a jump', () => {
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.transitions[0].change = { 'x{i}': 1 };
          }),
          {},
          { file: FILE },
        ),
      ),
    ).toBe(`${FILE}: transitions[0] (arrival) (i = 1): change names unknown variable "x1"; variables are s1, …, s20`);
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.transitions[1].change = { 's{i+1}': -1 };
          }),
          {},
          { file: FILE },
        ),
      ),
    ).toContain('transitions[1] (departure) (i = 20): change names unknown variable "s21" (it is a constant)');
  });

  it('parsePopulationModel(json) gives mathjs parse errors with the character position', () => {
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.transitions[0].rate = 'lambda * (s{i-1}^d - s{i}^d';
          }),
          {},
          { file: FILE },
        ),
      ),
    ).toMatch(
      /^models\/jsq-d\.json: transitions\[0\] \(arrival\) \(i = 1\)\.rate: cannot parse "lambda \* \(s0\^d - s1\^d": .*\(char \d+\)/,
    );
  });

  it('parsePopulationModel(json) names an unknown symbol and lists the valid names', () => {
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.transitions[0].rate = 'lamda * (s{i-1}^d - s{i}^d)';
          }),
          {},
          { file: FILE },
        ),
      ),
    ).toContain(
      'unknown name "lamda" in "lamda * (s0^d - s1^d)" (variables: s1, s2, s3, …, s20; parameters and constants: lambda, d, K, s0, s21)',
    );
  });

  it('parsePopulationModel(json) rejects non-integer templates, reserved or duplicate names, and misused vectors', () => {
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.transitions[0].rate = 'lambda * s{i/2}';
          }),
        ),
      ),
    ).toContain('"i/2" must evaluate to an integer, got 0.5');
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.parameters.e = 1;
          }),
        ),
      ),
    ).toContain('parameter name "e" is reserved');
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.parameters.s3 = 1;
          }),
        ),
      ),
    ).toContain('variable name "s3" is already used as a parameter');
    expect(
      failure(() =>
        parsePopulationModel(
          mutated((m) => {
            m.observables.bad = 's + 1';
          }),
        ),
      ),
    ).toContain('vector "s" can only be used as sum(s)');
  });

  it('parsePopulationModel(json, overrides) rejects an override that is not a parameter', () => {
    expect(failure(() => parsePopulationModel(modelJson('jsq-d.json'), { mu: 2 }, { file: FILE }))).toBe(
      `${FILE}: cannot set "mu": not a parameter of the model (parameters: lambda, d, K)`,
    );
  });

  it('requireSmoothModel(model) names a rate that is not differentiable (max), which populationDrift itself accepts', () => {
    const m = parsePopulationModel(
      mutated((m) => {
        m.transitions[1].rate = 'max(s{i} - s{i+1}, 0)';
      }),
      {},
      { file: FILE },
    );
    expect(failure(() => requireSmoothModel(m))).toMatch(
      /^models\/jsq-d\.json: transitions\[1\] \(departure\) \(i = 1\)\.rate uses max, which is not differentiable everywhere/,
    );
    // ∂f_1/∂s1 at s = 0.5: arrivals −λd·s1 = −0.9, departures −∂max(s1 − s2, 0)/∂s1 = −1 (the first argument at the tie)
    expect(populationDrift(m).jacobian(new Array(20).fill(0.5))[0][0]).toBeCloseTo(-1.9, 14);
  });

  it('populationFixedPoint(model) throws when a rate is negative at the fixed point, naming the transition', () => {
    const m = parsePopulationModel(
      {
        name: 'negative',
        variables: ['x'],
        transitions: [
          { change: { x: 1 }, rate: '2 - x' },
          { name: 'bad', change: { x: -1 }, rate: 'x - 3' },
        ],
      },
      {},
      { file: 'neg.json' },
    );
    expect(failure(() => populationFixedPoint(m))).toBe(
      'neg.json: transitions[0]: rate -5.000e-1 < 0 at the fixed point (rates of a population process must be ≥ 0; check the rate expression and the parameters)',
    );
  });
});
