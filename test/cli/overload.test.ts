/**
 * One rule for loads without a fixed point (src/cli/overload.ts, theory.md §2): `ode` and `model` both integrate the
 * transient at ρ ≥ 1 over a finite horizon, and both refuse, in the same words, what needs the fixed point.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqdTransientLevels } from '../../src/cli/overload.ts';
import { parseModel } from '../../src/model/index.ts';
import { runCli } from './runCli.ts';

const json = async (args: string[]) => {
  const r = await runCli(args);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

describe('a load ρ ≥ 1: the transient exists, the fixed point does not', () => {
  it('ode --lambda 1.2 --d 2 runs and gives the E[Q](t) of model jsq-d.json --set lambda=1.2 --transient (two solvers) to 1e-7', async () => {
    const ode = await json(['ode', '--lambda', '1.2', '--d', '2', '--t-end', '6', '--dt', '1', '--json']);
    const model = await json(['model', 'models/jsq-d.json', '--set', 'lambda=1.2', '--transient', '--t-end', '6', '--dt', '1', '--json']);
    const a = ode.meanQueueLength as number[];
    const b = (model.transient as { observables: { meanQueueLength: number[] } }).observables.meanQueueLength;
    expect(a).toHaveLength(7);
    for (let j = 0; j < a.length; j++) expect(Math.abs(a[j] - b[j]), `t = ${j}`).toBeLessThan(1e-7);
    // overloaded: E[Q] keeps growing (at λ = 1.2 arrivals exceed the service capacity 1 per server)
    for (let j = 1; j < a.length; j++) expect(a[j]).toBeGreaterThan(a[j - 1]);
  });

  it("ode at ρ = 1.2 gives E[Q](t) with dE[Q]/dt = λ − s_1(t) (arrivals minus busy servers), to the grid's trapezoid error", async () => {
    const ode = await json(['ode', '--lambda', '1.2', '--d', '2', '--t-end', '4', '--dt', '0.01', '--json']);
    const q = ode.meanQueueLength as number[];
    const s1 = (ode.tail as number[][]).map((row) => row[1]);
    let integral = 0;
    for (let j = 1; j < q.length; j++) integral += 0.01 * (1.2 - (s1[j] + s1[j - 1]) / 2);
    expect(Math.abs(q[q.length - 1] - integral)).toBeLessThan(1e-4);
  });

  it('ode at ρ = 1.2 with E[S] = 2 (λ = 0.6, exp@2) is the λ = 1.2, E[S] = 1 transient on a clock twice as slow', async () => {
    const slow = await json(['ode', '--lambda', '0.6', '--d', '2', '--service', 'exp@2', '--t-end', '8', '--dt', '2', '--json']);
    const unit = await json(['ode', '--lambda', '1.2', '--d', '2', '--t-end', '4', '--dt', '1', '--json']);
    const a = slow.meanQueueLength as number[];
    const b = unit.meanQueueLength as number[];
    expect(a).toHaveLength(5);
    for (let j = 0; j < a.length; j++) expect(Math.abs(a[j] - b[j])).toBeLessThan(1e-9);
  });

  for (const [what, args] of [
    ['ode --until-steady', ['ode', '--lambda', '1.2', '--d', '2', '--dt', '1', '--until-steady']],
    ['ode --init fixed-point', ['ode', '--lambda', '1.2', '--d', '2', '--t-end', '2', '--dt', '1', '--init', 'fixed-point']],
    ['model without --transient', ['model', 'models/jsq-d.json', '--set', 'lambda=1.2']],
  ] as const) {
    it(`${what} at ρ = 1.2 is refused in one line with the shared rule (exit 2)`, async () => {
      const r = await runCli([...args]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        /needs a fixed point, and a load ρ ≥ 1 has none \(a finite-horizon transient alone is still meaningful: model --transient, ode\)/,
      );
    });
  }

  it('ode at ρ = 1.2 with a law or rule whose transient is sized from the fixed point (erlang:2, LWL) is refused in one line', async () => {
    for (const extra of [
      ['--service', 'erlang:2'],
      ['--selection', 'lwl'],
    ]) {
      const r = await runCli(['ode', '--lambda', '1.2', '--d', '2', '--t-end', '2', '--dt', '1', ...extra]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/ρ = λ·E\[S\] = 1\.2 ≥ 1: there is no fixed point, and at such a load ode integrates only the SQ\(d\) ODE/);
    }
  });
});

describe('README says what ρ ≥ 1 does', () => {
  it('the bad-input sentence does not list ρ ≥ 1 as refused outright: it names the transients that run (ode, model --transient)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const sentence = /Bad input \(.*?\) gives one line[^.]*\.(.*?)\./.exec(readme);
    expect(sentence, 'the bad-input sentence of README.md').not.toBeNull();
    // was "Bad input (λ ≤ 0, ρ ≥ 1, d < 1, …) gives one line", while ode and model --transient run at ρ = 1.2
    expect(sentence![0]).not.toMatch(/Bad input \(λ ≤ 0, ρ ≥ 1,/);
    expect(sentence![0]).toMatch(/ρ ≥ 1 wherever a fixed point or a steady state is needed/);
    expect(readme).toMatch(/A load ρ ≥ 1 has no fixed point but does have a transient, so `ode` .*`model FILE --transient` run it/);
  });
});

/**
 * Runs the CLI in a real process with a time limit (without the guards these runs take hours, and a run in this process
 * would block the test) and expects one line on stderr matching `pattern`, exit 2 and nothing on stdout.
 */
const refused = (args: string[], pattern: RegExp) => {
  const main = path.resolve(import.meta.dirname, '../../src/cli/main.ts');
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, ...args], { encoding: 'utf8', timeout: 300_000 });
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
  expect(r.stdout).toBe('');
};

describe("ode at ρ ≥ 1 is held to the simulations' budget before it integrates (the truncation grows with the horizon)", () => {
  it('ode --lambda 1.2 --t-end 20000 is refused at once, naming K, the work against MAX_EVENTS and --t-end (ran for hours)', () =>
    refused(
      ['ode', '--lambda', '1.2', '--d', '2', '--t-end', '20000', '--dt', '1000'],
      /K = 49784 levels .* about 3\.8e\+10 event-equivalents of work .* more than the 2e\+10 a simulation may take; lower --t-end/,
    ));
  it('ode --lambda 1.2 --t-end 5000 --dt 0.5 is refused for the 1.3e8 numbers it would keep (K + 1 per output time), naming --dt', () =>
    refused(
      ['ode', '--lambda', '1.2', '--d', '2', '--t-end', '5000', '--dt', '0.5'],
      /K = 12908 levels .* 10001 output times, 1\.3e\+8 numbers, more than 2e\+7; use a coarser --dt/,
    ));
  it('sqdTransientLevels: K and the work grow with the horizon (work ∝ t²); 5000 time units fit the budget, 20000 do not', () => {
    const model = Object.freeze({ ...parseModel({ lambda: 0.5, d: 2 }), lambda: 1.2 }); // as transientModelFromFlags builds it
    const at = (t: number, dt: number) =>
      sqdTransientLevels(
        model,
        Array.from({ length: t / dt + 1 }, (_, j) => j * dt),
        undefined,
      );
    const a = at(5000, 100);
    expect(a.K).toBe(12908); // 1 + poissonReach(1.2 · 2 · 5000)
    expect(a.work).toBeGreaterThan(1e9); // minutes: shown with progress
    expect(a.work).toBeLessThan(2e10);
    expect(() => at(20000, 1000)).toThrow(/K = 49784 levels .* more than the 2e\+10/);
    expect(() => at(5000, 0.5)).toThrow(/1\.3e\+8 numbers, more than 2e\+7; use a coarser --dt/);
  });
  it('a short overloaded transient shows no progress (below a few seconds of work)', async () => {
    const r = await runCli(['ode', '--lambda', '1.2', '--d', '2', '--t-end', '6', '--dt', '1']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe("long transients at ρ < 1 are held to the simulations' budget too (run time grows linearly with --t-end)", () => {
  it('ode --lambda 0.9 --t-end 1e9 is refused at once, naming the work against MAX_EVENTS and --t-end (ran silently for hours)', () =>
    refused(
      ['ode', '--lambda', '0.9', '--d', '2', '--t-end', '1e9', '--dt', '1e8'],
      /K = 9 levels .* about 2\.6e\+11 event-equivalents of work .* more than the 2e\+10 a simulation may take; lower --t-end/,
    ));
  it('model threshold-probe.json --transient --t-end 1e9 is refused at once, naming the work and --t-end', () =>
    refused(
      ['model', 'models/threshold-probe.json', '--transient', '--t-end', '1e9', '--dt', '1e8'],
      /model --transient of .* 100 variables .* event-equivalents of work .* more than the 2e\+10 a simulation may take; lower --t-end/,
    ));
  it('ode --service erlang:2 and ode --selection lwl --t-end 1e9 are refused at once, naming the work and --t-end (ran for days)', async () => {
    await refused(
      ['ode', '--lambda', '0.9', '--d', '2', '--service', 'erlang:2', '--t-end', '1e9', '--dt', '1e8'],
      /phase-type ODE.* 18 variables \(K = 9 levels × phases\) .* about 1\.2e\+12 event-equivalents .* more than the 2e\+10 a simulation may take; lower --t-end/,
    );
    await refused(
      ['ode', '--lambda', '0.9', '--d', '2', '--selection', 'lwl', '--t-end', '1e9', '--dt', '1e8'],
      /LWL\(d\) workload PIDE.* steps of Δ = 0\.01 over 30000 workload cells, about 2\.3e\+15 event-equivalents .* lower --t-end/,
    );
    // what fits the budget still runs: the phase-type ODE to t = 50 (a fraction of a second), the PIDE to t = 2
    for (const extra of [
      ['--service', 'erlang:2', '--t-end', '50', '--dt', '10'],
      ['--selection', 'lwl', '--t-end', '2', '--dt', '1'],
    ]) {
      const r = await runCli(['ode', '--lambda', '0.9', '--d', '2', ...extra]);
      expect(r.status, r.stderr).toBe(0);
    }
  });
  it('the README transients still run, without progress (a second or less)', async () => {
    const ode = await runCli(['ode', '--lambda', '0.9', '--d', '2', '--t-end', '50', '--dt', '5']);
    expect(ode.status, ode.stderr).toBe(0);
    expect(ode.stderr).toBe('');
    const model = await runCli(['model', 'models/threshold-probe.json', '--transient', '--t-end', '100', '--dt', '5']);
    expect(model.status, model.stderr).toBe(0);
    expect(model.stderr).toBe('');
    expect(model.stdout).toMatch(/Transient from the initial state/);
  });
});
