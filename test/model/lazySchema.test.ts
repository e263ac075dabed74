/**
 * The model room builds its zod schemas on first use (lazy.ts `onFirstTouch`, `z`): a thread that imports the
 * simulator and the solvers but parses no input (a worker of the pool, whose model is validated already) loads no zod,
 * which cost each worker ~0.1 s of CPU; a parse still loads it, and the schemas compose with those of the rooms that
 * import zod themselves (claims, experiments: one zod instance).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseModel } from '../../src/model/index.ts';
import { modelSchema, validate } from '../../src/model/schema.ts';

/** Runs `code` (an ES module, TypeScript imports allowed) in a fresh Node process; its stdout. */
function inFreshProcess(code: string): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.trim();
}

describe('zod on first use', () => {
  it('importing the simulator and the solvers loads no zod; parsing a model does', () => {
    const out = inFreshProcess(`
      // zod's core marks the global object when it loads
      const loaded = () => '__zod_globalConfig' in globalThis;
      await import('./src/sim/index.ts');
      await import('./src/compare/plan.ts');
      const afterImports = loaded();
      const { parseModel } = await import('./src/model/index.ts');
      const model = parseModel({ lambda: 0.9, d: 2, service: 'erlang:2' });
      console.log(JSON.stringify({ afterImports, afterParse: loaded(), kind: model.service.kind }));
    `);
    expect(JSON.parse(out)).toEqual({ afterImports: false, afterParse: true, kind: 'erlang' });
  }, 600_000);

  it("a pool worker's simulations of a parsed model load no zod; a bad n still gets zod's message", () => {
    // the worker gets its model as data, parsed by the pool's thread; checking each run's n (checkServers) loaded zod
    const model = JSON.stringify(parseModel({ lambda: 0.95, d: 2 }));
    const out = inFreshProcess(`
      const loaded = () => '__zod_globalConfig' in globalThis;
      const { planSimulation, planTrajectory, runReplications } = await import('./src/sim/index.ts');
      const model = ${model};
      runReplications(planSimulation(model, { n: 100, jobs: 2000, replications: 2, warmupTime: 1 }), 0, 1);
      planTrajectory(model, { n: 10000, times: [0, 1] });
      const afterPlans = loaded();
      const { positiveInteger } = await import('./src/model/index.ts');
      const fromString = positiveInteger('n', '1e4');
      let message = '';
      try {
        positiveInteger('n', 2.5);
      } catch (e) {
        message = e.message;
      }
      console.log(JSON.stringify({ afterPlans, fromString, message }));
    `);
    expect(JSON.parse(out)).toEqual({ afterPlans: false, fromString: 10000, message: 'n must be an integer ≥ 1, got 2.5' });
  }, 600_000);

  it("the model's schemas compose with a schema of zod imported directly, and their messages are kept", () => {
    const file = z.object({ model: modelSchema }).strict();
    const ok = validate(file, { model: { lambda: '0.9', d: 2 } });
    expect(ok.success && ok.data.model.lambda).toBe(0.9);
    const bad = validate(file, { model: { lambda: 0.9, d: 0 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('d must be an integer ≥ 1, got 0');
    expect(() => parseModel({ lambda: 0.9, d: 2, memory: 'bcp' })).toThrow('bcp needs a memory size');
  });
});
