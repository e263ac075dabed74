/**
 * Ctrl-C on `compare`, `run` and `conjecture`: the process ends with 130 and says where the finished cells are kept and
 * how to resume; a rerun of the same command resumes from them. On `simulate` and `model --compare`, which store
 * nothing, it says so. (A real child process and a real SIGINT.)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const out = path.join(dir, 'report');
const args = ['compare', '--lambda', '0.9', '--d', '2', '--n', '10,20,50,100', '--jobs', '40000', '--replications', '3'];
const rest = ['--no-trajectory', '--exact-n', 'none', '--threads', '1', '--no-progress', '--out', out];

/** The `.json` files under `folder` (a cell store), 0 if it does not exist yet. */
function storedIn(folder: string): number {
  try {
    return readdirSync(folder, { recursive: true }).filter((f) => String(f).endsWith('.json')).length;
  } catch {
    return 0;
  }
}

/**
 * Runs the CLI in a child with a timeline (SUPERMARKET_TIMELINE) and sends SIGINT once `ready()` holds; resolves with the
 * exit code and stderr. @param ready polled every 50 ms, given the timeline's text so far.
 */
async function interruptWhen(args: string[], ready: (timeline: string) => boolean): Promise<{ code: number | null; stderr: string }> {
  const timelineFile = path.join(dir, `timeline-${args[0]}-${Date.now()}.jsonl`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, SUPERMARKET_TIMELINE: timelineFile },
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const poll = setInterval(() => {
      if (ready(existsSync(timelineFile) ? readFileSync(timelineFile, 'utf8') : '')) {
        clearInterval(poll);
        child.kill('SIGINT');
      }
    }, 50);
    child.on('exit', (c) => {
      clearInterval(poll);
      resolve(c);
    });
  });
  return { code, stderr };
}

describe('compare interrupted by SIGINT', () => {
  it('exits 130, names where the finished cells are kept, and a rerun resumes them', async () => {
    const cellsDir = path.join(out, 'cells');
    // interrupt once the first cell is stored (the cells are heaviest first, so more remain)
    const r = await interruptWhen([...args, ...rest], () => storedIn(cellsDir) > 0);
    expect(r.code).toBe(130);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const kept = storedIn(cellsDir);
    expect(kept).toBeGreaterThan(0);
    // the count is asked when Ctrl-C comes (a cell may finish while the workers stop): at most what is stored now
    const said = /interrupted: (\d+) finished cells? (?:is|are) kept in (.*); rerun the same command to resume/.exec(r.stderr);
    expect(said, r.stderr).not.toBeNull();
    expect(said![2]).toBe(cellsDir);
    expect(Number(said![1])).toBeGreaterThan(0);
    expect(Number(said![1])).toBeLessThanOrEqual(kept);
    const again = await runCli([...args, ...rest]);
    expect(again.status).toBe(0);
    // cells and trajectories counted apart, one cell in the singular (--no-trajectory here: cells only)
    expect(again.stdout).toMatch(new RegExp(`\\b${kept} ${kept === 1 ? 'cell' : 'cells'} resumed\\)`));
  });
});

describe('run interrupted by SIGINT', () => {
  it('exits 130, names how many cells are saved where, and a rerun resumes them', async () => {
    const experiment = writeTinyExperiment(dir, { jobs: 100_000, seed: 1 });
    const runOut = path.join(dir, 'run');
    const cells = path.join(runOut, 'cells');
    const runArgs = ['run', experiment, '--out', runOut, '--threads', '1', '--no-progress'];
    const r = await interruptWhen(runArgs, () => storedIn(cells) > 0);
    expect(r.code).toBe(130);
    const kept = storedIn(cells);
    expect(kept).toBeGreaterThan(0);
    expect(r.stderr).toContain(`interrupted: ${kept} of 4 cells are saved in ${cells}; rerun the same command to resume`);
    const again = await runCli(runArgs);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`4 cells \\(${kept} resumed\\)`));
  });
});

describe('run after an earlier run stopped before its report', () => {
  it('says that the report was not written and that this run writes it from the stored cells, then writes index.html', async () => {
    const experiment = writeTinyExperiment(dir, { jobs: 2000, seed: 3 }, 'tiny-report.json');
    const runOut = path.join(dir, 'run-report');
    const runArgs = ['run', experiment, '--out', runOut, '--threads', '1', '--no-progress'];
    expect((await runCli(runArgs)).status).toBe(0);
    // as a Ctrl-C while the report was written leaves it: the cells stored, no index.html
    rmSync(path.join(runOut, 'index.html'));
    const again = await runCli(runArgs);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `note: an earlier run stopped before writing its report (no ${path.join(runOut, 'index.html')}); this run writes it, with the 4 stored cells`,
    );
    expect(existsSync(path.join(runOut, 'index.html'))).toBe(true);
  });
});

describe('commands that store nothing say so when interrupted', () => {
  for (const [what, args, message] of [
    [
      'simulate on the pool',
      ['simulate', '--lambda', '0.9', '--d', '2', '--n', '1000', '--jobs', '1e8', '--threads', '2', '--no-progress'],
      'interrupted: nothing was stored (simulate keeps its replications in memory until the run ends); rerun the command to start again',
    ],
    [
      'model --compare',
      ['model', 'models/jsq-d.json', '--compare', '--n', '1000', '--horizon', '1e5', '--replications', '2', '--threads', '1'],
      'interrupted: nothing was stored (model --compare keeps its simulations in memory until all are done); rerun the command to start again',
    ],
  ] as const) {
    it(`${what}: exits 130 and says that nothing was stored`, async () => {
      const r = await interruptWhen([...args], (t) => t.includes('"task-start"'));
      expect(r.code).toBe(130);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe('conjecture interrupted by SIGINT', () => {
  it('exits 130, names how many simulations are kept where, and a rerun resumes them', async () => {
    const file = path.join(dir, 'claim.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'interrupt',
        claim: 'T(jsq, sprpt) < T(lpw, sprpt)',
        grid: { lambda: [0.5, 0.7, 0.9], d: [2], service: ['exp'], prediction: ['exp'] },
        // prefer simulation: the LPW side now has a mean field (the LPW cavity), whose slow solves would fill the cells first
        evaluation: { n: 50, jobs: 20000, replications: 2, seed: 3, prefer: 'simulation', mixSources: false },
      }),
    );
    const conjOut = path.join(dir, 'conjecture');
    const cells = path.join(conjOut, 'cells');
    const args = ['conjecture', file, '--out', conjOut, '--threads', '1', '--no-progress'];
    const r = await interruptWhen(args, () => storedIn(cells) > 0);
    expect(r.code).toBe(130);
    const kept = storedIn(cells);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(6); // interrupted before the end: the rerun has some left to do
    expect(r.stderr).toContain(
      `interrupted: ${kept} of 6 simulations (and the slow mean-field solves) are saved in ${cells}; rerun the same command to resume`,
    );
    const again = await runCli(args);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`\\(6 simulations, ${kept} resumed\\)`));
  });
});

describe('conjecture interrupted in its mean-field solves', () => {
  // It said nothing and exited 130 only once every solve was done (each LPW cavity estimate holds the thread for seconds,
  // and no Ctrl-C handler was in place before the simulations): now it stops after the solve under way and says which
  // solves are kept.
  it('exits 130 before the last solve, names the slow solves kept, and a rerun resumes them', async () => {
    const file = path.join(dir, 'claim-mf.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'interrupt-mf',
        claim: 'T(jsq, sprpt) < T(lpw, sprpt)',
        grid: { lambda: [0.5, 0.7, 0.9], d: [2], service: ['exp'], prediction: ['exp'] },
        evaluation: { n: 50, jobs: 20000, replications: 2, seed: 3 },
      }),
    );
    const conjOut = path.join(dir, 'conjecture-mf');
    const cells = path.join(conjOut, 'cells');
    const args = ['conjecture', file, '--out', conjOut, '--threads', '1', '--no-progress'];
    const r = await interruptWhen(args, () => storedIn(cells) > 0);
    expect(r.code).toBe(130);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const kept = storedIn(cells);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(6); // 6 slow solves in all (the cavity's, with its restarts): it did not wait for them
    const said =
      /interrupted: in the mean-field solves: (\d+) slow mean-field solves? (?:is|are) saved in (.*); rerun the same command to resume/.exec(
        r.stderr,
      );
    expect(said, r.stderr).not.toBeNull();
    expect(said![2]).toBe(cells);
    expect(Number(said![1])).toBe(kept);
    const again = await runCli(args);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`${kept} mean-field solves? \\(cavity estimates\\) resumed`));
  });
});
