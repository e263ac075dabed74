/**
 * Issue 21 §3: order 2 outside its trusted range says so in the CLI (`fixed-point`, `model --order 2`); so does order 1
 * where its 1/n term exceeds compare's range ΣV/(nΣπ) ≤ 5 % (compare/verdict.ts `MAX_RELATIVE_CORRECTION`).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

describe('order 2 outside its trusted range', () => {
  it('fixed-point --refined --order 2 at d = 3, λ = 0.95, n = 3 prints a caveat (JSON: trusted false); at n = 20 none', async () => {
    const r = await runCli('fixed-point --lambda 0.95 --d 3 --refined --order 2 --n 3');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/E\[T_n\] ≈ 10\.97/);
    expect(r.stdout).toMatch(/caveat: order 2 is outside its trusted range at n = 3: \|ΣA\|\/\(n\|ΣV\|\) = 1\.67 > 0\.5/);
    const j = JSON.parse((await runCli('fixed-point --lambda 0.95 --d 3 --refined --order 2 --n 3 --json')).stdout);
    expect(j.refined.secondOrder).toMatchObject({ trusted: false, caveat: expect.stringMatching(/outside its trusted range/) });
    const ok = await runCli('fixed-point --lambda 0.95 --d 3 --refined --order 2 --n 20');
    expect(ok.stdout).not.toMatch(/caveat: order 2/);
  });

  it('model FILE --order 2 names each observable outside the range at each n', async () => {
    const r = await runCli('model models/jsq-d.json --set lambda=0.95 --set d=3 --set K=7 --refined --order 2 --n 3,40');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/caveat: \w+: order 2 is outside its trusted range at n = 3: \|c₂\|\/\(n\|c₁\|\)/);
    expect(r.stdout).not.toMatch(/caveat: .* at n = 40:/);
  });
});

describe('order 1 outside its trusted range (ΣV/(nΣπ) > 5 %, where compare judges no cell)', () => {
  it('fixed-point --refined at λ = 0.9999, d = 2, n = 100 (the 1/n term 4.2 × the limit) says so; JSON: trusted false', async () => {
    const r = await runCli('fixed-point --lambda 0.9999 --d 2 --refined --n 100');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/E\[T_n\] ≈ 61\.9396/);
    expect(r.stdout).toMatch(/caveat: order 1 is outside its trusted range at n = 100: the 1\/n term is 418 % of the limit/);
    const j = JSON.parse((await runCli('fixed-point --lambda 0.9999 --d 2 --refined --n 100 --json')).stdout);
    expect(j.refined).toMatchObject({ trusted: false, caveat: expect.stringMatching(/order 1 is outside its trusted range/) });
  });

  it('inside the range (λ = 0.9, d = 2, n = 100: 1.7 %) no caveat, JSON trusted true', async () => {
    const r = await runCli('fixed-point --lambda 0.9 --d 2 --refined --n 100');
    expect(r.stdout).not.toMatch(/caveat/);
    const j = JSON.parse((await runCli('fixed-point --lambda 0.9 --d 2 --refined --n 100 --json')).stdout);
    expect(j.refined).toMatchObject({ trusted: true, caveat: null });
  });

  it("PS through FIFO's refined term at λ = 0.95, d = 2, n = 10 (27.6 %) says so too", async () => {
    const r = await runCli('fixed-point --lambda 0.95 --d 2 --discipline ps --n 10');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/caveat: order 1 is outside its trusted range at n = 10: the 1\/n term is 27\.6 % of the limit/);
  });
});

describe('table: the refined 2nd column outside its trusted range', () => {
  it('d = 3, λ = 0.95: n = 3 reads "outside range" (no t), n = 20 a value and t; JSON and CSV say trusted false / true', async () => {
    const args = 'table --d 3 --lambda 0.95 --n 3,20 --runs 2 --events-per-run 1000 --exact-max-n 0 --threads 1 --no-progress';
    const r = await runCli(args);
    expect(r.status, r.stderr).toBe(0);
    // before: "| 10.42583 (-3.9) |", the number beside a t as if trusted
    expect(r.stdout).toMatch(/^\| 3 \|.*\| outside range \(10\.4\d+, not trusted\) \|/m);
    expect(r.stdout).toMatch(/^\| 20 \|.*\| 2\.97\d+ \(-?\d+\.\d\) \|/m);
    expect(r.stdout).toMatch(/refined 2nd "outside range" at d = 3, λ = 0\.95, n = 3: there \|ΣA\|\/\(n\|ΣV\|\) > 0\.5/);
    const j = JSON.parse((await runCli(`${args} --json`)).stdout);
    expect(j.cells.map((c: { n: number; refinedSecondTrusted: boolean }) => [c.n, c.refinedSecondTrusted])).toEqual([
      [3, false],
      [20, true],
    ]);
    const csv = (await runCli(`${args} --csv -`)).stdout.trim().split('\n');
    const column = csv[0].split(',').indexOf('refined_second_trusted');
    expect(column).toBeGreaterThan(0);
    expect(csv.slice(1).map((l) => l.split(',')[column])).toEqual(['false', 'true']);
  });
});

describe('table: the refined 2nd column where order 1 is outside its range', () => {
  it('d = 2, λ = 0.9, n = 3 (order 2 in its range, order 1 not): a note says its t is the expansion’s error; n = 40 not named', async () => {
    const r = await runCli('table --d 2 --lambda 0.9 --n 3,40 --runs 2 --events-per-run 1000 --exact-max-n 0 --threads 1 --no-progress');
    expect(r.status, r.stderr).toBe(0);
    // order 2 at n = 3 is a value with a t (its own range holds), order 1 "outside range"
    expect(r.stdout).toMatch(/^\| 3 \|.*\| outside range \(3\.68\d+, not trusted\) \| 4\.27\d+ \(-?\d+\.\d\) \|/m);
    // before: no word beside it, as if the value were as good as order 1 inside its range
    expect(r.stdout).toMatch(
      /refined 2nd at d = 2, λ = 0\.9, n = 3: inside its own range .* order 1 is outside its range, so the O\(1\/n³\) remainder need not be small/,
    );
    expect(r.stdout).not.toMatch(/refined 2nd at d = 2, λ = 0\.9, n = 3, 40/);
  });
});
