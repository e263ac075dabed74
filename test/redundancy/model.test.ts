/** Redundancy-d in the model (model/policy/redundancy.ts): the alias, the normalised form, the one-line refusals. */
import { describe, expect, it } from 'vitest';
import { parseModel, policyName, validateModel } from '../../src/model/index.ts';
import { expandGrid } from '../../src/experiments/grid.ts';
import { parseExperiment } from '../../src/experiments/schema.ts';
import { runCli } from '../cli/runCli.ts';

describe('redundancy in the model', () => {
  it('cancel-on-start resolves to selection lwl: the same model as LWL(d), to the field', () => {
    const alias = parseModel({ lambda: 0.7, d: 3, redundancy: 'cancel-on-start', service: 'weibull:0.5' });
    const lwl = parseModel({ lambda: 0.7, d: 3, selection: 'lwl', service: 'weibull:0.5' });
    expect(alias).toEqual(lwl);
    expect(JSON.stringify(alias)).toBe(JSON.stringify(lwl));
  });

  it('none leaves the model as it was (no redundancy field)', () => {
    const plain = parseModel({ lambda: 0.7, d: 2 });
    expect(parseModel({ lambda: 0.7, d: 2, redundancy: 'none' })).toEqual(plain);
    expect('redundancy' in plain).toBe(false);
  });

  it('cancel-on-complete keeps its spec (replicas default independent) and survives a JSON round trip', () => {
    const m = parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-complete' });
    expect(m.redundancy).toEqual({ kind: 'cancel-on-complete', replicas: 'independent' });
    expect(policyName(m)).toBe('RED(2) + FIFO, cancel-on-complete (independent replicas)');
    const identical = parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-complete', replicas: 'identical' });
    expect(parseModel(JSON.parse(JSON.stringify(identical)))).toEqual(identical);
  });

  const refused: [Record<string, unknown>, RegExp][] = [
    [{ replicas: 'identical' }, /^replicas identical has no effect without redundancy cancel-on-complete/],
    [{ redundancy: 'cancel-on-start', replicas: 'identical' }, /has no effect without redundancy cancel-on-complete/],
    [{ redundancy: 'cancel-on-complete', selection: 'lwl' }, /selection lwl has no effect/],
    [{ redundancy: 'cancel-on-start', selection: 'random' }, /selection random has no effect/],
    [{ redundancy: 'cancel-on-start', discipline: 'srpt' }, /LL\(d\) only with FIFO servers.*srpt/],
    [{ redundancy: 'cancel-on-complete', discipline: 'ps' }, /FIFO servers; discipline ps/],
    [{ redundancy: 'cancel-on-complete', memory: 'ip' }, /dispatcher memory/],
    [{ redundancy: 'cancel-on-complete', batch: 2 }, /batches/],
    [{ redundancy: 'cancel-on-complete', servers: { speeds: [1, 2] } }, /server speeds/],
    [
      { redundancy: 'cancel-on-finish' },
      /^unknown redundancy "cancel-on-finish"; expected one of: none, cancel-on-start, cancel-on-complete/,
    ],
    [{ redundancy: { kind: 'cancel-on-complete', replicas: 'identical' }, replicas: 'identical' }, /give replicas once/],
  ];
  for (const [input, pattern] of refused)
    it(`refuses ${JSON.stringify(input)} in one line`, () => {
      expect(() => validateModel({ lambda: 0.5, d: 2, ...input })).toThrow(pattern);
      try {
        validateModel({ lambda: 0.5, d: 2, ...input });
      } catch (e) {
        expect((e as Error).message).not.toContain('\n');
      }
    });

  it('experiment files carry redundancy into every cell, with their own keys', () => {
    const base = {
      name: 'r',
      lambda: [0.5],
      d: [2],
      n: [10],
      selections: ['jsq'],
      disciplines: ['fifo'],
      service: ['exp'],
      jobs: 100,
      replications: 2,
    };
    const cells = expandGrid(parseExperiment({ ...base, redundancy: 'cancel-on-complete', replicas: 'identical' }));
    expect(cells[0].model.redundancy).toEqual({ kind: 'cancel-on-complete', replicas: 'identical' });
    const plain = expandGrid(parseExperiment(base));
    expect(cells[0].key).not.toBe(plain[0].key);
    const start = expandGrid(parseExperiment({ ...base, selections: ['lwl'], redundancy: 'cancel-on-start' }));
    expect(start[0].model.selection).toBe('lwl');
  });

  it('CLI: --redundancy and --replicas teach in --help; --selection with --redundancy is refused in one line', async () => {
    const help = await runCli('simulate --help');
    expect(help.stdout).toMatch(/--redundancy <mode>/);
    expect(help.stdout).toMatch(/--replicas <law>/);
    const r = await runCli('fixed-point --lambda 0.5 --d 2 --redundancy cancel-on-start --selection jsq');
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--selection jsq has no effect with --redundancy cancel-on-start/);
    // a load above λ_max of identical replicas: simulate refuses it in one line too (exit 2), naming λ_max
    const over = await runCli('simulate --lambda 0.85 --d 2 --n 50 --redundancy cancel-on-complete --replicas identical');
    expect(over.status).not.toBe(0);
    expect(over.stderr.trim().split('\n')).toHaveLength(1);
    expect(over.stderr).toMatch(/stable only for λ < λ_max = 0\.8166/);
  });
});
