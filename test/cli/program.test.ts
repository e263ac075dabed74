import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, reflowDescription } from '../../src/cli/program.ts';
import { runCli } from './runCli.ts';

describe('the lazy program', () => {
  it('supermarket --help lists every command with its usage and summary, loading none', async () => {
    const r = await runCli(['--help']);
    expect(r.status).toBe(0);
    const flat = r.stdout.replace(/\s+/g, ' ');
    for (const c of COMMANDS) {
      expect(flat).toContain(`${c.name} ${c.usage}`);
      expect(flat).toContain(c.summary.slice(0, 30));
    }
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
  });

  it('supermarket CMD --help and help CMD load that command: its own options and description appear', async () => {
    for (const args of [
      ['fixed-point', '--help'],
      ['help', 'fixed-point'],
    ]) {
      const r = await runCli(args);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Usage: supermarket fixed-point [options]');
      expect(r.stdout).toContain('--lambda');
      expect(r.stdout).toContain('Gast–Van Houdt');
    }
  });

  it('a description written with hard line breaks is wrapped as paragraphs, not cut into short lines', async () => {
    expect(reflowDescription('one\ntwo\n\n  example\n- item\n1. first\n12 servers')).toBe(
      'one two\n\n  example\n- item\n1. first 12 servers',
    );
    // table's description broke its source lines at ≈ 118 columns; commander wrapped them again at 80, leaving
    // "FIFO: for every d, λ and n, E[Q] (jobs" alone on a line
    const r = await runCli(['table', '--help']);
    expect(r.status).toBe(0);
    const description = r.stdout.split('\n\nOptions:')[0].split('\n').slice(2);
    const short = description.filter((line, i) => line.length > 0 && line.length < 50 && (description[i + 1] ?? '').length > 0);
    expect(short).toEqual([]);
  });

  it('each entry loads a command of its own name', async () => {
    for (const c of COMMANDS) expect((await c.load()).name()).toBe(c.name);
  });
});

describe('mistyped options', () => {
  it('supermarket simulate --lamda 0.9 names the unknown option with a suggestion, not a missing --lambda', async () => {
    const r = await runCli(['simulate', '--lamda', '0.9', '--d', '2', '--n', '10']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe("supermarket: error: unknown option '--lamda' (did you mean --lambda?)");
  });

  it('supermarket ode --bogus names it without a suggestion when nothing is close', async () => {
    const r = await runCli(['ode', '--lambda', '0.9', '--d', '2', '--t-end', '1', '--dt', '0.5', '--bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe("supermarket: error: unknown option '--bogus'");
  });
});

/**
 * The modules a command's file imports statically (value imports and re-exports, not `import type` nor `import()`),
 * followed through the sources: relative files and package names.
 */
function staticClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\s+from\s+)?'([^']+)';/gm)) {
      const spec = m[1];
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  };
  visit(path.resolve(entry));
  return { files, packages };
}

describe("compare's start", () => {
  it('loads, before its first task, no report of another command and no package it uses only at its end', () => {
    const { files, packages } = staticClosure('src/cli/commands/compare.ts');
    const rel = [...files].map((f) => path.relative(process.cwd(), f));
    // sanity: the closure is followed (the pool, the plan, the comparison report)
    expect(rel).toEqual(expect.arrayContaining(['src/cli/pool.ts', 'src/compare/plan.ts', 'src/report/comparisonReport.ts']));
    // the experiment and claim reports (their zod schemas are built as they load), through the report's index or not
    expect(rel.filter((f) => /^src\/(claims|experiments)\/|^src\/report\/(index|experimentReport|claimReport)\.ts$/.test(f))).toEqual([]);
    // index.html's markdown and the progress bar load on use (lazy.ts), zod through lazy.ts too
    expect([...packages].filter((p) => ['marked', 'cli-progress', 'zod', 'mathjs'].includes(p))).toEqual([]);
  });
});
