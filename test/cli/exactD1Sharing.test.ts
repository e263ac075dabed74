/**
 * `exact --selection lwl --d 1 --discipline ps` was refused (with the mg1 hint) though at d = 1 every sampling rule is
 * random routing: each server an M/M/1 queue, and PS or LAS with exponential sizes has FIFO's queue lengths, so E[Q],
 * s_i and E[T] = E[Q]/λ = 1/(1 − λ) are exact at every n (the law of T is not FIFO's, and exact does not give it). JSQ
 * at d = 1 was answered; LWL and LPW now are too, through the one twin rule (`sizeBlindFifoTwin`), which the capability
 * query, the refined terms and `solveExact` all read. SRPT (its queue lengths are not FIFO's) stays refused.
 */
import { describe, expect, it } from 'vitest';
import { fifoQueueLengthTwin, parseModel } from '../../src/model/index.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { runCli } from './runCli.ts';

describe('exact at d = 1 with a sharing discipline, whatever the rule', () => {
  it.each([
    ['lwl', 'ps'],
    ['lpw', 'las'],
    ['jsq', 'ps'],
  ])('%s + %s at d = 1: closed form E[T] = 1/(1 − λ), the exact outputs named, the law of T not given', async (selection, discipline) => {
    const args = `exact --n 3 --d 1 --lambda 0.9 --selection ${selection} --discipline ${discipline}`;
    const j = await runCli(`${args} --json`);
    expect(j.status, j.stderr).toBe(0);
    const r = JSON.parse(j.stdout);
    expect(r.method).toBe('closed form');
    expect(r.meanResponseTime).toBeCloseTo(10, 12);
    expect(r.meanQueueLength).toBeCloseTo(9, 12);
    expect(r.policy).toBe(`RANDOM (d = 1) + ${discipline.toUpperCase()}`);
    const text = await runCli(args);
    expect(text.stdout).toContain(
      `E[Q], s_i and E[T] by Little exact; the law of T is ${discipline.toUpperCase()}'s own, not FIFO's, and not given here`,
    );
  });

  it('the twin rule: a sampling rule at d = 1 without memory has FIFO as twin; at d = 2, with a memory, or with SRPT none', () => {
    const m = (input: Record<string, unknown>) => parseModel({ lambda: 0.9, ...input });
    expect(fifoQueueLengthTwin(m({ d: 1, selection: 'lwl', discipline: 'ps' }))?.discipline).toBe('fifo');
    expect(fifoQueueLengthTwin(m({ d: 2, selection: 'lwl', discipline: 'ps' }))).toBeUndefined();
    expect(fifoQueueLengthTwin(m({ d: 1, selection: 'lwl', discipline: 'srpt' }))).toBeUndefined();
    // the capability query answers from the same rule: an exact value at every n
    expect(meanFieldCapabilities(m({ d: 1, selection: 'lwl', discipline: 'ps' })).exactChain.available).toBe(true);
  });

  it("SRPT at d = 1 is still refused: its queue lengths are not FIFO's (mg1 gives its E[T] at every n)", async () => {
    const r = await runCli('exact --n 3 --d 1 --lambda 0.9 --selection lwl --discipline srpt');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/no exact solver for RANDOM \(d = 1\) \+ SRPT here: .*M\/G\/1 value at every n .*supermarket mg1/);
  });
});
