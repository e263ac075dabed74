import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

// `simulate --json` had no `policy` field while exact and the fixed-point paths had one (`policyName`); replay and ode
// --json neither: every single-model JSON names its policy with the one name function (RANDOM (d = 1) at d = 1).
describe('--json names the policy (policyName) in every single-model command', () => {
  it('simulate: RANDOM (d = 1) + FIFO for LWL at d = 1, JSQ(2) + FIFO at d = 2', async () => {
    const at = async (selection: string, d: number) => {
      const r = await runCli(
        `simulate --lambda 0.5 --d ${d} --selection ${selection} --n 10 --jobs 2000 --replications 2 --threads 1 --json`,
      );
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout).policy;
    };
    expect(await at('lwl', 1)).toBe('RANDOM (d = 1) + FIFO');
    expect(await at('jsq', 2)).toBe('JSQ(2) + FIFO');
  }, 600_000);

  it('ode and replay', async () => {
    const ode = await runCli('ode --lambda 0.5 --d 1 --t-end 2 --dt 1 --json');
    expect(ode.status, ode.stderr).toBe(0);
    expect(JSON.parse(ode.stdout).policy).toBe('RANDOM (d = 1) + FIFO');
    const swf = path.join(mkdtempSync(path.join(tmpdir(), 'policy-')), 'hand.swf');
    const rest = ' -1'.repeat(14);
    writeFileSync(swf, `1 0 0 10${rest}\n2 4 6 3${rest}\n3 30 0 2${rest}\n`);
    const replay = await runCli(['replay', swf, '--n', '2', '--d', '2', '--no-rescale', '--json']);
    expect(replay.status, replay.stderr).toBe(0);
    expect(JSON.parse(replay.stdout).policy).toBe('JSQ(2) + FIFO');
  }, 600_000);
});
