import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

// Test files share one process (vitest isolate: false) and so does each command they run: what one command leaves in
// module state must not reach the next. `mixedCodeSeen` kept the codes a --allow-mixed-code command accepted, so every
// later report of the process said "Mixed code" (metadata.json mixedCode) whether or not it used such a cell.
describe('one command’s state does not outlive it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'command-state-'));
  const args = ['table', '--d', '2', '--lambda', '0.5', '--n', '2', '--runs', '2', '--events-per-run', '2000'];
  const rest = ['--threads', '1', '--no-progress', '--json'];

  it('a report after a --allow-mixed-code command names no mixed code', async () => {
    const out = path.join(dir, 'mixed');
    expect((await runCli([...args, ...rest, '--out', out])).status).toBe(0);
    const cells = path.join(out, 'cells');
    const file = path.join(
      cells,
      readdirSync(cells).find((f) => f.endsWith('.json'))!,
    );
    writeFileSync(file, JSON.stringify({ ...json(file), code: 'dist:0000000000000000' }));
    const allowed = await runCli([...args, ...rest, '--out', out, '--allow-mixed-code']);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(json(path.join(out, 'metadata.json')).mixedCode).toEqual(['dist:0000000000000000']);

    // the next command, in the same process, computes its own cells: nothing mixed
    const clean = path.join(dir, 'clean');
    const next = await runCli([...args, ...rest, '--out', clean]);
    expect(next.status, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout).mixedCode).toBeUndefined();
    expect(json(path.join(clean, 'metadata.json')).mixedCode).toBeUndefined();
    expect(json(path.join(clean, 'results.json')).mixedCode).toBeUndefined();
  });

  it('an exit code set by an earlier command (mg1 --all with a failed row) is not the next command’s', async () => {
    process.exitCode = 2; // as `mg1 --all` leaves it when a discipline failed
    try {
      const r = await runCli('fixed-point --lambda 0.5 --d 2 --json');
      expect(r.status, r.stderr).toBe(0);
      expect(process.exitCode ?? 0).toBe(0);
    } finally {
      process.exitCode = undefined;
    }
  });
});
