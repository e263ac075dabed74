import { describe, expect, it } from 'vitest';
import { parseConjecture } from '../../src/claims/index.ts';
import { parseExperiment } from '../../src/experiments/index.ts';
import { runCli } from './runCli.ts';

// A value listed twice was merged silently (`--n 10,10,20` ran n = 10, 20), and the same merge shortened a vector:
// `ode --from 0.5,0.5,0.2` started from s = (1, 0.5, 0.2). A sweep's list now refuses a repeat, experiment and conjecture
// grids refuse it with its JSON path (bad input, exit 2 either way), and a vector keeps it.
describe('a value listed twice is refused, never merged', () => {
  it.each([
    ['compare --n', 'compare --n 10,10,20 --out /tmp/never-honest', /10 is given twice in "10,10,20": give each value once/],
    ['compare --lambda', 'compare --lambda 0.9,0.90 --out /tmp/never-honest', /0\.9 is given twice in "0\.9,0\.90"/],
    ['compare --d', 'compare --d 2,2 --out /tmp/never-honest', /2 is given twice/],
    ['table --n', 'table --n 10,1e1 --out /tmp/never-honest', /10 is given twice in "10,1e1"/],
    ['fixed-point --quantiles', 'fixed-point --lambda 0.9 --d 2 --quantiles 0.5,0.5', /0\.5 is given twice/],
    ['model --n', 'model models/jsq-d.json --n 10,10', /10 is given twice/],
  ])('%s: exit 2 in one line', async (_, args, message) => {
    const r = await runCli(args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it('ode --from keeps a repeated tail fraction: 0.5,0.5,0.2 is s_1 = s_2 = 0.5, s_3 = 0.2', async () => {
    const r = await runCli('ode --lambda 0.5 --d 2 --from 0.5,0.5,0.2 --t-end 1 --dt 1 --csv');
    expect(r.status).toBe(0);
    const [header, first] = r.stdout.trim().split('\n');
    const row = Object.fromEntries(header.split(',').map((k, i) => [k, Number(first.split(',')[i])]));
    expect([row.s_1, row.s_2, row.s_3, row.s_4]).toEqual([0.5, 0.5, 0.2, 0]);
  });

  it('experiment and conjecture grids name the repeated entry by its JSON path', () => {
    const experiment = {
      name: 'e',
      d: [2],
      n: [10],
      selections: ['jsq'],
      disciplines: ['fifo'],
      service: ['exp'],
      jobs: 10,
      replications: 2,
    };
    expect(() => parseExperiment({ ...experiment, lambda: [0.5, 0.5] }, 'e.json')).toThrow(/e\.json: lambda\[1\]: 0\.5 repeats entry 0/);
    expect(() => parseExperiment({ ...experiment, lambda: [0.5], service: ['exp', 'weibull:0.5', 'exp'] }, 'e.json')).toThrow(
      /service\[2\]: "exp" repeats entry 0/,
    );
    expect(parseExperiment({ ...experiment, lambda: [0.5, 0.7] }).lambda).toEqual([0.5, 0.7]);
    const conjecture = { name: 'c', claim: 'T(jsq, fifo) < T(random, fifo)' };
    expect(() => parseConjecture({ ...conjecture, grid: { lambda: [0.5], d: [2, 3, 2] } }, 'c.json')).toThrow(
      /c\.json: grid\.d\[2\]: 2 repeats entry 0/,
    );
  });
});
