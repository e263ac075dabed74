import { describe, expect, it } from 'vitest';
import { estimandFiniteness, heavyTailed, infiniteOnlyAtFiniteN, serviceMomentFinite, slowdownFinite } from '../../src/model/moments.ts';
import { parseModel } from '../../src/model/model.ts';

const model = (service: string, extra: Record<string, unknown> = {}) => parseModel({ lambda: 0.5, d: 1, service, ...extra });

describe('estimandFiniteness (theory.md §8 heavy tails)', () => {
  it('pareto:1.5 FIFO at d = 1: E[T], E[Q], E[U], E[T/S] infinite with reasons; SRPT keeps E[T] finite but warns of Var[T] = ∞', () => {
    const f = estimandFiniteness(model('pareto:1.5'));
    expect(f.meanResponseTime).toMatchObject({ finite: false, reason: expect.stringMatching(/E\[S²\] = ∞/) });
    expect(f.meanQueueLength.finite).toBe(false);
    expect(f.meanWorkload.finite).toBe(false);
    expect(f.meanSlowdown.finite).toBe(false);
    const srpt = estimandFiniteness(model('pareto:1.5', { discipline: 'srpt' }));
    expect(srpt.meanResponseTime.finite).toBe(true);
    expect(srpt.meanWorkload.finite).toBe(false);
    expect(srpt.warnings.join()).toMatch(/Var\[T\] = ∞/);
  });

  it('pareto:2.5 FIFO: E[T] finite, interval rests on E[S³] = ∞; pareto:3.5: E[S⁴] note; d = 2 without replacement: warning, not ∞', () => {
    const a = estimandFiniteness(model('pareto:2.5'));
    expect(a.meanResponseTime.finite).toBe(true);
    expect(a.warnings.join()).toMatch(/E\[S³\]/);
    expect(estimandFiniteness(model('pareto:3.5')).warnings.join()).toMatch(/E\[S⁴\] = ∞/);
    const b = estimandFiniteness(parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5', sampling: 'without-replacement' }));
    expect(b.meanResponseTime.finite).toBe(true);
    expect(b.warnings.join()).toMatch(/may be infinite/);
    expect(
      estimandFiniteness(parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5', sampling: 'with-replacement' })).meanResponseTime.finite,
    ).toBe(false);
  });

  it('exponential FIFO: slowdown infinite (E[1/S] = ∞), the rest finite, no warnings; bpareto:1.5 warns; moments and heavy tails by family', () => {
    const f = estimandFiniteness(model('exp'));
    expect(f.meanSlowdown).toMatchObject({ finite: false, reason: expect.stringMatching(/E\[1\/S\] = ∞/) });
    expect(f.meanResponseTime.finite).toBe(true);
    expect(f.warnings).toEqual([]);
    expect(slowdownFinite(model('exp', { discipline: 'srpt' }))).toBe(true);
    expect(estimandFiniteness(model('bpareto:1.5:1e6')).warnings.join()).toMatch(/finite only through the upper bound/);
    expect(serviceMomentFinite({ kind: 'pareto', alpha: 2.5, mean: 1 }, 2)).toBe(true);
    expect(serviceMomentFinite({ kind: 'pareto', alpha: 2.5, mean: 1 }, 2.5)).toBe(false);
    expect([
      heavyTailed(model('exp').service),
      heavyTailed(model('hyperexp:8').service),
      heavyTailed(model('weibull:0.5').service),
    ]).toEqual([false, true, true]);
  });

  it('d ≥ 2 with replacement: the ∞ names its path (all d draws on one server) and the way out; batches and d = 1 do not', () => {
    const lwl = parseModel({ lambda: 0.5, d: 3, selection: 'lwl', service: 'pareto:1.5' });
    const f = estimandFiniteness(lwl).meanResponseTime;
    expect(f.finite).toBe(false);
    if (f.finite) return;
    expect(f.reason).toMatch(/with replacement all 3 draws hit one server with probability n\^\{1−d\} > 0/);
    expect(f.reason).toMatch(/--sampling without-replacement draws 3 distinct servers/);
    // LWL(3) needs only E[S^{4/3}] < ∞ in the limit: ∞ at every n beside a finite E[T]∞ (compare must not print E[T]∞ = ∞)
    expect(infiniteOnlyAtFiniteN(lwl)).toBe(true);
    // JSQ(2) FIFO pareto:1.5: the limit is not settled (theory.md §8), so it is called neither finite …
    expect(infiniteOnlyAtFiniteN(parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5' }))).toBe(false);
    // … nor infinite: the reason said "the mean-field limit is infinite too", a claim no theorem makes
    const jsq = estimandFiniteness(parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5' })).meanResponseTime;
    expect(jsq.finite ? '' : jsq.reason).toMatch(/whether the mean-field E\[T\]∞ is finite is not settled/);
    expect(jsq.finite ? '' : jsq.reason).not.toMatch(/infinite too/);
    // JSQ(3) FIFO pareto:1.9: the limit is finite (Bramson, Lu & Prabhakar 2013), ∞ at every n with replacement
    expect(infiniteOnlyAtFiniteN(parseModel({ lambda: 0.5, d: 3, service: 'pareto:1.9' }))).toBe(true);
    // LWL(2) pareto:1.5: ∞ in the limit too, and the reason offers no way out
    const lwl2 = estimandFiniteness(parseModel({ lambda: 0.5, d: 2, selection: 'lwl', service: 'pareto:1.5' })).meanResponseTime;
    expect(lwl2.finite ? '' : lwl2.reason).toMatch(/the mean-field limit is infinite too, so drawing distinct servers .* is no way out/);
    // redundancy: the replicas of a job all on one server (with replacement) occupy it for a whole size
    const red = estimandFiniteness(parseModel({ lambda: 0.3, d: 2, redundancy: 'cancel-on-complete', service: 'pareto:1.5' }));
    expect(red.meanResponseTime).toMatchObject({ finite: false, reason: expect.stringMatching(/all 2 draws hit one server/) });
    const one = estimandFiniteness(model('pareto:1.5')).meanResponseTime;
    expect(one).toMatchObject({ finite: false, reason: expect.not.stringMatching(/draws/) });
    // a batch draws d distinct servers (the model says without-replacement): not settled, a warning, not ∞
    const batch = estimandFiniteness(parseModel({ lambda: 0.5, d: 3, batch: 2, service: 'pareto:1.5' }));
    expect(batch.meanResponseTime.finite).toBe(true);
    expect(batch.warnings.join()).toMatch(/may be infinite/);
  });
});

describe('estimandFiniteness: slowdownWarnings (Var[T/S] = ∞ where an arrival waits the residual and E[S³] = ∞)', () => {
  const of = (discipline: string, service: string, d = 1) =>
    estimandFiniteness(parseModel({ lambda: 0.5, d, discipline, service } as never)).slowdownWarnings;
  it('FIFO and non-preemptive SJF with pareto:2.5 (E[S²] < ∞ = E[S³]): one warning, not a 95 % interval', () => {
    for (const disc of ['fifo', 'sjf'])
      for (const d of [1, 2]) {
        const w = of(disc, 'pareto:2.5', d);
        expect(w).toHaveLength(1);
        expect(w[0]).toMatch(/^the interval of E\[T\/S\] rests on Var\[T\/S\] = ∞ .*pareto α = 2\.5 ≤ 3.*it is not a 95 % interval$/);
      }
  });
  it('none where E[S³] < ∞, where E[T/S] or E[T] is ∞, or under PS and SRPT (no residual waited)', () => {
    expect(of('fifo', 'pareto:3.5')).toEqual([]);
    expect(of('fifo', 'pareto:1.5')).toEqual([]); // E[T] = ∞: said as ∞, not as a warning on a number
    expect(of('fifo', 'exp')).toEqual([]); // E[T/S] = ∞ (E[1/S] = ∞ and small jobs wait)
    expect(of('ps', 'pareto:2.5')).toEqual([]);
    expect(of('srpt', 'pareto:2.5')).toEqual([]);
  });
});
