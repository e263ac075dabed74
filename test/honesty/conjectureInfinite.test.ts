/**
 * conjecture over a quantity infinite in theory (JSQ(2) FIFO, pareto:1.5: E[T]∞ = ∞ by the finiteness rule):
 * points.csv had "Infinity" in the value, lo and hi columns; results.json and --json bare nulls. Now the CSV cells are
 * empty with a `<key> infinite` flag column and the row's reason, the JSON the ∞ object (io/jsonText.ts).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.ts';

/** RFC 4180 rows (quoted fields may hold commas and doubled quotes) as objects keyed by the header. */
function parseCsv(text: string): Record<string, string>[] {
  const lines = text
    .trim()
    .split('\n')
    .map((line) => {
      const cells: string[] = [];
      for (const m of line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
        cells.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
        if (m[2] === '') break;
      }
      return cells;
    });
  return lines.slice(1).map((cells) => Object.fromEntries(lines[0].map((h, i) => [h, cells[i] ?? ''])));
}

describe('conjecture: ∞ in points.csv, results.json and --json', () => {
  it('T(jsq, fifo) < 100 over pareto:1.5 and exp: the ∞ point is empty + flag in the CSV, the ∞ object in JSON', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-conj-inf-'));
    const file = path.join(tmp, 'c.json');
    writeFileSync(
      file,
      JSON.stringify({ name: 't-bounded', claim: 'T(jsq, fifo) < 100', grid: { lambda: [0.5], d: [2], service: ['pareto:1.5', 'exp'] } }),
    );
    const out = path.join(tmp, 'out');
    const r = await runCli(['conjecture', file, '--out', out, '--no-progress', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const text = readFileSync(path.join(out, 'points.csv'), 'utf8');
    expect(text).not.toMatch(/Infinity|NaN/);
    const rows = parseCsv(text);
    const inf = rows.find((x) => x.service === 'pareto:1.5')!;
    expect(inf['T(jsq, fifo)']).toBe('');
    expect(inf['T(jsq, fifo) lo']).toBe('');
    expect(inf['T(jsq, fifo) hi']).toBe('');
    expect(inf['T(jsq, fifo) infinite']).toBe('true');
    expect(inf.infinite).toMatch(/T\(jsq, fifo\) = ∞/);
    expect(inf.verdict).toBe('undefined');
    const fin = rows.find((x) => x.service === 'exp')!;
    expect(Number(fin['T(jsq, fifo)'])).toBeCloseTo(1.26569, 4);
    expect(fin['T(jsq, fifo) infinite']).toBe('');

    const infObject = { mean: null, infinite: true, reason: expect.stringMatching(/T\(jsq, fifo\) = ∞/) };
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    const q = results.points.find((p: { point: { service: string } }) => p.point.service === 'pareto:1.5').quantities[0];
    expect(q.value).toEqual(infObject);
    expect(q).not.toHaveProperty('interval'); // the one ∞ object: no interval beside it, not even null
    expect(q).not.toHaveProperty('ci95');
    const printed = JSON.parse(r.stdout).points.find((p: { service: string }) => p.service === 'pareto:1.5').quantities[0];
    expect(printed.value).toEqual(infObject);
  }, 600_000);
});
