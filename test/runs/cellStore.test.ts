import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CellStore, cellFileName, settingsHash } from '../../src/runs/cellStore.ts';
import { parseExperiment } from '../../src/experiments/index.ts';
import { loadJsonFile } from '../../src/io/index.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'cells-'));

describe('CellStore', () => {
  it('get(key, settings) returns what put stored only for the same settings, and counts resumed and written cells', () => {
    const dir = tmp();
    const a = new CellStore<{ x: number }>(dir);
    expect(a.get('exp|d2|lambda0.9', { jobs: 10 })).toBeUndefined();
    a.put('exp|d2|lambda0.9', { jobs: 10 }, { x: 1.5 });
    a.put('exp|d2|lambda0.5', { jobs: 10 }, { x: 0.5 });
    expect(a.written).toBe(2);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]); // atomic: no temporary file left
    const b = new CellStore<{ x: number }>(dir);
    expect(b.get('exp|d2|lambda0.9', { jobs: 10 })).toEqual({ x: 1.5 });
    expect(b.get('exp|d2|lambda0.5', { jobs: 20 })).toBeUndefined(); // other settings: stale
    expect(b.resumed).toBe(1);
    expect(b.saved).toBe(1);
    expect(new CellStore(dir, { fresh: true }).get('exp|d2|lambda0.9', { jobs: 10 })).toBeUndefined();
  });

  it('a damaged cell file is recomputed, and keys that differ only in punctuation get different files', () => {
    const dir = tmp();
    const store = new CellStore<number>(dir);
    store.put('a|b', {}, 1);
    writeFileSync(store.fileOf('a|b'), '{"key": "a|b", "sett');
    expect(new CellStore<number>(dir).get('a|b', {})).toBeUndefined();
    expect(cellFileName('a|b')).not.toBe(cellFileName('a:b'));
    expect(settingsHash({ a: 1 })).not.toBe(settingsHash({ a: 2 }));
  });
});

describe('loadJsonFile', () => {
  it('names the file for a missing file and bad JSON, and the JSON path for a schema problem', () => {
    const dir = tmp();
    expect(() => loadJsonFile(path.join(dir, 'none.json'), 'experiment', parseExperiment)).toThrow(
      /^experiment file not found: .*none\.json$/,
    );
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{ "name": ');
    expect(() => loadJsonFile(bad, 'experiment', parseExperiment)).toThrow(/bad\.json: not valid JSON/);
    const wrong = path.join(dir, 'wrong.json');
    writeFileSync(
      wrong,
      JSON.stringify({
        name: 'x',
        lambda: [0.5, 2],
        d: [2],
        n: [10],
        selections: ['jsq'],
        disciplines: ['fifo'],
        service: ['exp'],
        jobs: 10,
        replications: 2,
      }),
    );
    expect(() => loadJsonFile(wrong, 'experiment', parseExperiment)).toThrow(/wrong\.json: lambda\[1\]: Too big/);
  });
});
