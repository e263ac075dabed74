/**
 * package.json's dependency lists against what src/ loads at run time (fast; test/package/pack.test.ts installs the
 * tarball). A package that only scripts, tests or benchmarks use belongs in devDependencies: as a dependency every user
 * would install it for nothing (odex was, after the solver became our port of it, src/numerics/odexCore.ts). And a
 * package that src/ loads at run time must be a dependency or optional dependency, or an install would lack it.
 * Truth: the import statements, require / import() / require.resolve calls and package-name strings of src/ itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
const RUNTIME = { ...PACKAGE.dependencies, ...PACKAGE.optionalDependencies };

/** src/'s TypeScript as it runs: comments, `import type` statements and `typeof import(…)` types removed. */
function runtimeSource(): string {
  const dir = path.join(ROOT, 'src');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) =>
      readFileSync(path.join(e.parentPath, e.name), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/\bimport\s+type\b[\s\S]*?\bfrom\s*['"][^'"]+['"]/g, '')
        .replace(/\btypeof\s+import\(\s*['"][^'"]+['"]\s*\)/g, ''),
    )
    .join('\n');
}

/** The package a bare specifier names ('csv-stringify/sync' → 'csv-stringify', '@a/b/c' → '@a/b'). */
function packageOf(spec: string): string {
  return spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
}

describe('package.json dependencies', () => {
  const source = runtimeSource();

  it('lists as dependencies only packages that src/ loads at run time (dev-only ones, like odex, are devDependencies)', () => {
    const quoted = (name: string) => new RegExp(`['"]${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/[^'"]*)?['"]`).test(source);
    expect(Object.keys(RUNTIME).filter((name) => !quoted(name))).toEqual([]);
    expect(PACKAGE.devDependencies.odex).toBeDefined();
  });

  it('has every package that src/ imports or requires at run time among dependencies or optionalDependencies', () => {
    const specs = [
      ...source.matchAll(/\bimport\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g),
      ...source.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
      ...source.matchAll(/\b(?:import|require|require\.resolve|onFirstUse|onFirstCall)(?:<[^>]*>)?\(\s*['"]([^'"]+)['"]/g),
    ].map((m) => m[1]);
    expect(specs.length).toBeGreaterThan(20);
    const packages = new Set(specs.filter((s) => !s.startsWith('.') && !builtinModules.includes(s.replace(/^node:/, ''))).map(packageOf));
    expect(packages).toContain('commander');
    expect([...packages].filter((name) => !(name in RUNTIME))).toEqual([]);
  });
});
