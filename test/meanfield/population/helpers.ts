import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parsePopulationModel, type PopulationModel } from '../../../src/meanfield/population/index.ts';

/** The parsed JSON of a shipped model file (models/<name>). */
export function modelJson(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../../models/${name}`, import.meta.url)), 'utf8'));
}

/** A shipped model parsed with overrides. */
export function shipped(name: string, overrides: Record<string, number> = {}): PopulationModel {
  return parsePopulationModel(modelJson(name), overrides, { file: `models/${name}` });
}

/**
 * Independent fixed point of the threshold model (models/threshold-probe.json, untruncated), written for probe
 * limit L (the file has L = 1): for a guess x = s_T, s_i = λ[(s_{i−1} − x)G + x^{L+1}] for 1 ≤ i ≤ T
 * (G = 1 + x + … + x^L), and s_i = λx^L s_{i−1} for i > T (level-crossing balance: s_i = λ·P(an arrival joins a
 * server with ≥ i − 1 jobs)); x solves s_T(x) = x, found by bisection on [0, 1].
 */
export function thresholdFixedPoint(lambda: number, T: number, K: number, L = 1): number[] {
  const levels = (x: number): number[] => {
    let G = 0;
    for (let m = 0; m <= L; m++) G += x ** m;
    const s = [1];
    for (let i = 1; i <= K; i++) s.push(i <= T ? lambda * ((s[i - 1] - x) * G + x ** (L + 1)) : lambda * x ** L * s[i - 1]);
    return s;
  };
  let lo = 0;
  let hi = 1;
  const h = (x: number) => levels(x)[T] - x;
  if (!(h(lo) > 0 && h(hi) <= 0)) throw new Error('threshold oracle: no sign change on [0, λ]');
  for (let k = 0; k < 200; k++) {
    const mid = 0.5 * (lo + hi);
    if (h(mid) > 0) lo = mid;
    else hi = mid;
  }
  return levels(0.5 * (lo + hi)).slice(1);
}

/** Central finite difference of a scalar function along coordinate j. */
export function centralDifference(g: (x: number[]) => number, x: number[], j: number, h: number): number {
  const up = [...x];
  const down = [...x];
  up[j] += h;
  down[j] -= h;
  return (g(up) - g(down)) / (2 * h);
}
