/**
 * Batches through the CLI's mean-field commands (theory.md §15): `ode` integrates the LL(d,K) workload PIDE from
 * empty (its busy fraction and E[U] at t = 1 equal `solveMeanFieldTransient`'s).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { solveMeanFieldTransient } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/index.ts';
import { solveMeanField } from '../../src/meanfield/index.ts';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

describe('ode with batches', () => {
  it('ode --selection lwl --batch 2 --d 3: the LL(d,K) workload PIDE (was refused: no LL(d,K) transient)', async () => {
    const r = await runCli('ode --selection lwl --batch 2 --d 3 --lambda 0.8 --t-end 1 --dt 0.5 --json --no-progress');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as {
      times: number[];
      busyFraction: number[];
      meanWorkload: number[];
      provenance: { equation: string };
    };
    expect(out.times).toEqual([0, 0.5, 1]);
    expect(out.provenance.equation).toMatch(/T₁\(S_j\)/);
    const direct = solveMeanFieldTransient(parseModel({ lambda: 0.8, d: 3, selection: 'lwl', batch: 2 }), [0, 0.5, 1]);
    if (direct.solver !== 'lwl-pide') throw new Error(direct.solver);
    expect(out.busyFraction).toEqual(direct.result.busyFraction);
    expect(out.meanWorkload).toEqual(direct.result.meanWorkload);
    expect(out.busyFraction[2]).toBeGreaterThan(0.4);
  });

  it('compare --batch 2 --discipline ps runs against the FIFO twin (JSQ reads counts); LL(d,K) + PS is refused saying why', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-batch-ps-')), 'r');
    const r = await runCli(
      `compare --batch 2 --d 3 --lambda 0.8 --n 10,50 --discipline ps --jobs 2000 --replications 3 --no-trajectory --no-progress --out ${out}`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /E\[T\]∞ = 2\.2346 \(SQ\(d,K\) batch-sampling recursion \(K = 2\), through FIFO \(PS with exponential sizes: FIFO's queue-length process\)/,
    );
    const fifo = solveMeanField(parseModel({ lambda: 0.8, d: 3, batch: 2 })).meanResponseTime;
    expect(solveMeanField(parseModel({ lambda: 0.8, d: 3, batch: 2, discipline: 'las' })).meanResponseTime).toBe(fifo);
    const lwl = await runCli('fixed-point --batch 2 --d 3 --lambda 0.8 --selection lwl --discipline ps');
    expect(lwl.status).toBe(2);
    expect(lwl.stderr.trim().split('\n')).toHaveLength(1);
    expect(lwl.stderr).toMatch(/LL\(d,K\) reads the work left, whose draining order PS and LAS change, so the job counts are not FIFO's/);
  }, 600_000);

  it('fixed-point --refined names what the model lacks (batches, memory), not a list the model satisfies', async () => {
    // a fresh-user trial: SQ(3,2) is JSQ(d), FIFO, exponential, no memory, yet the refusal read "available for JSQ(d),
    // FIFO, exponential service without memory only"
    const batch = await runCli('fixed-point --batch 2 --d 3 --lambda 0.9 --refined --n 20');
    expect(batch.status).toBe(2);
    expect(batch.stderr.trim().split('\n')).toHaveLength(1);
    expect(batch.stderr).toMatch(/--refined: no refined term or exact chain for batches yet/);
    const memory = await runCli('fixed-point --d 3 --lambda 0.9 --memory ip --refined --n 20');
    expect(memory.status).toBe(2);
    expect(memory.stderr).toMatch(/--refined: the refined mean field is derived for .* without memory .*, memory ip$/m);
  }, 600_000);
});
