/**
 * Progress of the LWL cavities (cavityQueue's onProgress): `fixed-point --quantiles` on an LWL model that is not FIFO
 * (or with speeds) runs one long cavity queue that said nothing; the fractions are reported and change no number.
 */
import { describe, expect, it } from 'vitest';
import { lwlCavity } from '../../src/meanfield/cavity/index.ts';
import { heteroLwlCavity } from '../../src/meanfield/hetero/cavity.ts';
import { solveResponseTime } from '../../src/meanfield/responseTime.ts';
import { parseModel } from '../../src/model/model.ts';

const rising = (seen: readonly number[]) => seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1]));

describe('LWL cavity progress', () => {
  it('lwlCavity: fractions in [0, 1], non-decreasing, ending at 1; the same numbers without it', () => {
    const model = parseModel({ lambda: 0.9, d: 2, selection: 'lwl', discipline: 'srpt' });
    const seen: number[] = [];
    const r = lwlCavity(model, { horizon: 2e4, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(1);
    expect(rising(seen)).toBe(true);
    expect(seen[seen.length - 1]).toBe(1);
    expect(lwlCavity(model, { horizon: 2e4 }).meanResponseTime).toEqual(r.meanResponseTime);
  });

  it('heteroLwlCavity: one pass over the classes, ending at 1; the same numbers without it', () => {
    const model = parseModel({ lambda: 0.7, d: 2, selection: 'lwl', discipline: 'ps', servers: { speeds: [1, 2], fractions: [0.5, 0.5] } });
    const seen: number[] = [];
    const r = heteroLwlCavity(model, { horizon: 2e4, onProgress: (f) => seen.push(f) });
    expect(rising(seen)).toBe(true);
    expect(seen.some((f) => f > 0 && f < 0.5)).toBe(true);
    expect(seen.some((f) => f > 0.5 && f < 1)).toBe(true);
    expect(seen[seen.length - 1]).toBe(1);
    expect(heteroLwlCavity(model, { horizon: 2e4 }).meanResponseTime).toEqual(r.meanResponseTime);
  });

  it('solveResponseTime (fixed-point --quantiles) passes the LWL cavity stage on', () => {
    const model = parseModel({ lambda: 0.8, d: 2, selection: 'lwl', discipline: 'srpt', service: 'erlang:2' });
    const stages = new Set<string>();
    let last = 0;
    solveResponseTime(model, {
      quantiles: [0.5],
      cavityHorizon: 2e4,
      onProgress: (f, stage) => {
        stages.add(stage);
        last = f;
      },
    });
    expect([...stages]).toEqual(['LWL cavity']);
    expect(last).toBe(1);
  });
});
