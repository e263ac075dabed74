/**
 * compare's summary line printed "c₁ = 9.16 (ΣV/λ = 4.43)", the c₁ fitted through E[T]∞ with nothing saying it was
 * fitted, beside "trusted-n ĉ₁ = …" and "c₂ = ΣA/λ = …" (theory): each coefficient now says whether it is fitted (ĉ)
 * or the refined mean field's theory (c = ΣV/λ, ΣA/λ).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

describe('compare summary: fitted ĉ₁ and theory c₁ = ΣV/λ named apart', () => {
  const out = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-cmp-labels-')), 'r');

  it('JSQ(2): fitted ĉ₁ (through E[T]∞) vs theory c₁ = ΣV/λ; theory c₂ = ΣA/λ; no bare "c₁ ="', async () => {
    const r = await runCli(
      `compare --lambda 0.9 --d 2 --n 10,20,50 --jobs 5000 --replications 2 --no-trajectory --threads 1 --out ${out()}`,
    );
    expect(r.status, r.stderr).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('  d = 2, λ = 0.9:'))!;
    // ĉ₁ ± h (95 %), decimals fitting h: a fitted coefficient is never printed without its interval
    expect(line).toMatch(/fitted ĉ₁ = -?\d+(\.\d+)? ± \d+(\.\d+)? \(through E\[T\]∞, 95 %\) vs theory c₁ = ΣV\/λ = 4\.43/);
    expect(line).toMatch(/theory c₂ = ΣA\/λ = \d+\.\d\d/);
    expect(line).not.toMatch(/[,;] c[₁₂] = /);
  }, 600_000);

  it('LWL(2), no refined term: the fitted ĉ₁ says there is no theory value', async () => {
    const r = await runCli(
      `compare --selection lwl --lambda 0.9 --d 2 --n 10,20 --jobs 2000 --replications 2 --no-trajectory --threads 1 --out ${out()}`,
    );
    expect(r.status, r.stderr).toBe(0);
    // ĉ₁ ± h with decimals fitting h (2 significant digits: "10 ± 181", "0.61 ± 0.36")
    expect(r.stdout).toMatch(/fitted ĉ₁ = (-?\d+(\.\d+)? ± \d+(\.\d+)? \(95 %\)|n\/a) \(no theory c₁ here\)/);
  }, 600_000);
});
