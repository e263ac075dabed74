import { describe, expect, it } from 'vitest';
import { fifoNext, fifoPop, fifoPush } from '../../src/sim/discipline/fifo.ts';
import { JobStore } from '../../src/sim/jobStore.ts';

describe('JobStore with FIFO', () => {
  it('fifoPush/fifoPop keep arrival order per server across wrap-around and growth', () => {
    const store = new JobStore(3, true, 4);
    expect(store.cap).toBe(4);
    // wrap server 1's ring: push 3, pop 2, then push 9 (forces growth twice)
    for (let k = 0; k < 3; k++) fifoPush(store, 1, k, 10 + k);
    expect(fifoPop(store, 1)).toBe(0);
    expect(fifoPop(store, 1)).toBe(1);
    fifoPush(store, 0, 100, 1);
    for (let k = 3; k < 12; k++) fifoPush(store, 1, k, 10 + k);
    expect(store.cap).toBe(16);
    expect(store.len[1]).toBe(10);
    expect(store.size[fifoNext(store, 1)]).toBe(12);
    const order: number[] = [];
    while (store.len[1] > 0) order.push(fifoPop(store, 1));
    expect(order).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(fifoPop(store, 0)).toBe(100);
    expect(store.len[2]).toBe(0);
  });
});
