/**
 * The package as a user gets it: `npm pack`, installed into an empty project, imported by name with its types, and its
 * bin run. Truth: E[T] = 2.6141 for SQ(2), λ = 0.9 (closed form, theory.md §2), the package.json version, and
 * a simulation through the worker pool of the compiled package (dist/, no tsx installed).
 * Slow by nature (build, pack, install from the npm cache): one test with a long timeout.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
/** What an install brings: the core dependencies and, unless --omit=optional, the command line's and reports'. */
const RUNTIME = { ...PACKAGE.dependencies, ...PACKAGE.optionalDependencies };
const VERSION = PACKAGE.version;

/** Newest modification time (ms) of the files under `dir`. */
function newest(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => statSync(path.join(e.parentPath, e.name)).mtimeMs),
  );
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'supermarket-pack-'));
// two installs (full and --omit=optional) to delete: minutes on a loaded machine
afterAll(() => rmSync(tmp, { recursive: true, force: true }), 300_000);

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// A consumer written as a user would: named imports from the package, typed results, one deliberate type error that the
// shipped .d.ts must catch (if the types were missing or `any`, the @ts-expect-error line would itself be an error).
const CONSUMER = `import { parseModel, solveMeanField, simulate, UnstableModelError, type SupermarketModel, type MeanFieldSolution } from 'supermarket-lab';

const model: SupermarketModel = parseModel({ lambda: 0.9, d: 2 });
const solution: MeanFieldSolution = solveMeanField(model);
const meanResponseTime: number = solution.meanResponseTime;
// @ts-expect-error E[T] is a number, not a string
const wrong: string = solution.meanResponseTime;
void wrong;
const sim = simulate(model, { n: 20, jobs: 2000, replications: 2, seed: 1, warmupTime: 10 });
let unstable = '';
try {
  parseModel({ lambda: 1.2, d: 2 });
} catch (error) {
  if (error instanceof UnstableModelError) unstable = error.name;
}
console.log(JSON.stringify({ meanResponseTime, simulated: sim.meanResponseTime.mean, unstable }));
`;

// The worker pool of the compiled package (internal, so imported by file path): one simulation in a worker thread.
const POOL = `import { runSimulations } from './node_modules/supermarket-lab/dist/cli/pool.js';
import { parseModel } from 'supermarket-lab';
const results = [];
await runSimulations([{ key: 'a', model: parseModel({ lambda: 0.5, d: 2 }), options: { n: 10, jobs: 1000, replications: 2, seed: 1, warmupTime: 5 } }],
  (key, result) => results.push([key, result.meanResponseTime.mean]), 1);
console.log(JSON.stringify(results));
`;

describe('npm pack, installed into an empty project', () => {
  it('imports parseModel, solveMeanField and simulate by name with types, gets E[T] = 2.6141, and runs the bin and workers without tsx', () => {
    // build the current sources unless dist/ is newer than all of them (npm ci has just built it; tsc's own incremental
    // check would still cost seconds), then pack
    const info = path.join(ROOT, 'dist', '.tsbuildinfo');
    const sources = Math.max(
      newest(path.join(ROOT, 'src')),
      newest(path.join(ROOT, 'types')),
      statSync(path.join(ROOT, 'package.json')).mtimeMs,
    );
    if (!existsSync(info) || statSync(info).mtimeMs <= sources) sh(NPM, ['run', 'build', '--silent'], ROOT);
    const packed = JSON.parse(sh(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], ROOT)) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed[0].files.map((f) => f.path);
    for (const f of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'dist/cli/workers/simulateWorker.js',
      'bin/supermarket.js',
      'README.md',
      'docs/theory.md',
      'experiments/smoke.json',
    ]) {
      expect(files, `${f} in the tarball`).toContain(f);
    }
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.endsWith('.tsbuildinfo'))).toEqual([]);
    // the shipped declarations import only runtime dependencies (or Node's modules): a type from a dev dependency would
    // not resolve for a user (what a full check of the installed .d.ts would find; the consumer below skips that check)
    const imported = new Set<string>();
    for (const f of files.filter((f) => f.endsWith('.d.ts'))) {
      const text = readFileSync(path.join(ROOT, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      for (const m of text.matchAll(/(?:from\s+|import\(\s*)['"]([^'"]+)['"]/g)) if (!m[1].startsWith('.')) imported.add(m[1]);
    }
    expect(imported.size).toBeGreaterThan(0);
    const root = (spec: string) =>
      spec
        .split('/')
        .slice(0, spec.startsWith('@') ? 2 : 1)
        .join('/');
    const packages = [...new Set([...imported].filter((spec) => !builtinModules.includes(spec.replace(/^node:/, ''))).map(root))];
    expect(packages.filter((name) => !(name in RUNTIME))).toEqual([]);
    // ... and each brings its own types, or its @types package is a runtime dependency too
    const typed = (name: string) => {
      const dir = path.join(ROOT, 'node_modules', name);
      const pkg = readFileSync(path.join(dir, 'package.json'), 'utf8');
      return /"(types|typings)"\s*:/.test(pkg) || existsSync(path.join(dir, 'index.d.ts'));
    };
    expect(packages.filter((name) => !typed(name) && !(`@types/${name.replace(/^@/, '').replace('/', '__')}` in RUNTIME))).toEqual([]);

    // an empty project installs the tarball (dependencies from the npm cache that npm ci filled)
    const project = path.join(tmp, 'consumer');
    sh('mkdir', ['-p', project], tmp);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    sh(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', path.join(tmp, packed[0].filename)], project);
    expect(existsSync(path.join(project, 'node_modules', 'tsx')), 'tsx is a dev dependency only').toBe(false);

    // type-check against the shipped .d.ts (node16 resolution: the `exports` map), then run the emitted JavaScript
    writeFileSync(path.join(project, 'consumer.ts'), CONSUMER);
    sh(
      process.execPath,
      [
        TSC,
        '--strict',
        '--target',
        'es2022',
        '--module',
        'node16',
        '--moduleResolution',
        'node16',
        '--noEmitOnError',
        // the dependencies' own declarations (70k lines of mathjs, vega, node) are theirs to check; ours are checked above
        '--skipLibCheck',
        '--typeRoots',
        path.join(ROOT, 'node_modules', '@types'),
        '--types',
        'node',
        'consumer.ts',
      ],
      project,
    );
    const out = JSON.parse(sh(process.execPath, ['consumer.js'], project)) as {
      meanResponseTime: number;
      simulated: number;
      unstable: string;
    };
    expect(out.meanResponseTime.toFixed(4)).toBe('2.6141');
    expect(out.simulated).toBeGreaterThan(1);
    expect(out.unstable).toBe('UnstableModelError');

    // the bin: compiled JavaScript, same numbers
    const bin = path.join(project, 'node_modules', '.bin', 'supermarket');
    expect(sh(bin, ['--version'], project).trim()).toBe(VERSION);
    const fp = JSON.parse(sh(bin, ['fixed-point', '--lambda', '0.9', '--d', '2', '--json'], project)) as { meanResponseTime: number };
    expect(fp.meanResponseTime.toFixed(4)).toBe('2.6141');

    // the worker pool starts the plain .js worker
    writeFileSync(path.join(project, 'pool.mjs'), POOL);
    const pooled = JSON.parse(sh(process.execPath, ['pool.mjs'], project)) as [string, number][];
    expect(pooled).toHaveLength(1);
    expect(pooled[0][0]).toBe('a');
    expect(pooled[0][1]).toBeGreaterThan(1); // E[T] ≥ E[S] = 1

    // the core install (--omit=optional): none of the command line's or reports' packages, and the library still
    // solves and simulates; the bin says in one line what is missing
    const core = path.join(tmp, 'core');
    sh('mkdir', ['-p', core], tmp);
    writeFileSync(path.join(core, 'package.json'), JSON.stringify({ name: 'core', private: true, type: 'module' }));
    sh(
      NPM,
      ['install', '--omit=optional', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', path.join(tmp, packed[0].filename)],
      core,
    );
    for (const name of Object.keys(PACKAGE.optionalDependencies))
      expect(existsSync(path.join(core, 'node_modules', name)), name).toBe(false);
    writeFileSync(path.join(core, 'consumer.js'), readFileSync(path.join(project, 'consumer.js')));
    const coreOut = JSON.parse(sh(process.execPath, ['consumer.js'], core)) as { meanResponseTime: number; simulated: number };
    expect(coreOut.meanResponseTime.toFixed(4)).toBe('2.6141');
    expect(coreOut.simulated).toBe(out.simulated); // same seed, same numbers
    let refusal = '';
    try {
      sh(path.join(core, 'node_modules', '.bin', 'supermarket'), ['--version'], core);
    } catch (error) {
      refusal = String((error as { stderr?: string }).stderr);
    }
    expect(refusal.trim()).toBe(
      'supermarket: error: commander is not installed: the command line needs the optional dependencies (reinstall without --omit=optional)',
    );
  }, 600_000);
});
