import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // wall-clock limits stay ≥ 10× a test's quiet time (issue 21 §12: with load 10–14 on 2 cores a 10 s hook and a 20 s
    // process limit failed); correctness tests assert no timing (test/timeLimits.test.ts)
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Child processes (forks). Test files share their fork's module cache (isolate: false): the sources
    // (mathjs, vega, the solvers) load and compile once per fork instead of once per file, which halved the CPU time of
    // the light test files. No test keeps global state between files (no module mocks, fake timers, env or cwd changes;
    // runCli restores its spies).
    // vitest's default for `run` is cores − 1 forks, i.e. ONE on a 2-core machine: the files ran one after another while
    // the Slurm, npm-install and worker-pool tests mostly wait. Two files at a time on 2 cores (no test shares a path:
    // each writes under its own mkdtemp folder).
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism()),
    isolate: false,
  },
});
