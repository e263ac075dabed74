import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reproduceSection } from '../../src/report/page.ts';
import { runCli } from '../cli/runCli.ts';
import { testMeta } from '../report/meta.ts';
import { writeTinyExperiment } from './tinyExperiment.ts';

describe('a merged report', () => {
  it('gives as its command the sharded run (not `supermarket merge DIR`) and says it was merged from N shards', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-merged-'));
    const file = writeTinyExperiment(tmp, { jobs: 500, seed: 7 });
    const out = path.join(tmp, 'report');
    for (const i of [1, 2]) {
      const r = await runCli(['run', file, '--shard', `${i}/2`, '--out', out, '--threads', '1', '--no-progress']);
      expect(r.status, r.stderr).toBe(0);
    }
    const merged = await runCli(['merge', out, '--no-progress']);
    expect(merged.status, merged.stderr).toBe(0);
    const meta = JSON.parse(readFileSync(path.join(out, 'metadata.json'), 'utf8'));
    expect(meta.command).toBe(`supermarket run ${file} --out ${out}`);
    expect(meta.mergedFrom).toEqual({ shards: 2, merge: `supermarket merge ${out}` });
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    const reproduce = md.slice(md.indexOf('## Reproduce'));
    expect(reproduce).toContain(`\`\`\`\nsupermarket run ${file} --out ${out}\n\`\`\``);
    expect(reproduce).toContain('Merged from 2 shards: each ran this command with `--shard i/2`');
    expect(reproduce).not.toContain('```\nsupermarket merge');
    // a later run of its own in this process is not taken for a merged one
    const local = await runCli(['run', file, '--out', path.join(tmp, 'local'), '--threads', '1', '--no-progress']);
    expect(local.status, local.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(tmp, 'local', 'metadata.json'), 'utf8')).mergedFrom).toBeUndefined();
  });

  it('reproduceSection says nothing of shards for a report that was not merged', () => {
    expect(reproduceSection(testMeta('supermarket run x.json'))).not.toMatch(/shard/);
    expect(reproduceSection({ ...testMeta('supermarket run x.json'), mergedFrom: { shards: 4, merge: 'supermarket merge r' } })).toMatch(
      /Merged from 4 shards: each ran this command with `--shard i\/4` \(i = 1 … 4\), then `supermarket merge r` joined them/,
    );
  });
});
