import { defineConfig } from 'vitest/config';
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    // Child processes (forks), one per core. Test files share their fork's module cache (isolate: false): the sources
    // (mathjs, vega, the solvers) load and compile once per fork instead of once per file, which halved the CPU time of
    // the light test files. No test keeps global state between files (no module mocks, fake timers, env or cwd changes;
    // runCli restores its spies).
    pool: 'forks',
    isolate: false,
  },
});
