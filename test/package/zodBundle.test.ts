/**
 * The zod bundle the CLI's bundles load (scripts/build-zod.ts → dist/vendor/zod.mjs, built by scripts/build-cli.ts;
 * src/lazy.ts's `z` inside the bundles, and their `import { z } from 'zod'`) holds every zod function the sources call
 * and parses as the package does, English messages included: a refusal's wording and a parsed model do not depend on
 * whether the CLI runs bundled.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { z as packageZ } from 'zod';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-zod-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The names `z.<name>` the sources read, from their text (types and other objects named z included: filtered below). */
function namesRead(): string[] {
  const files = readdirSync('src', { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.ts'));
  const names = new Set<string>();
  for (const f of files)
    for (const m of readFileSync(path.join(f.parentPath, f.name), 'utf8').matchAll(/\bz\.([A-Za-z_$]+)/g)) names.add(m[1]);
  return [...names].sort();
}

describe('the zod bundle', () => {
  it('exports every zod function the sources call, and parses as the package does', async () => {
    const { buildZod } = await import('../../scripts/build-zod.ts');
    const { outfile } = await buildZod(path.join(dir, 'zod.mjs'));
    const vendor = ((await import(pathToFileURL(outfile).href)) as { z: typeof packageZ }).z;
    // names that are values of the package's z (not types such as z.infer, nor an array's z.length)
    const values = namesRead().filter((n) => (packageZ as Record<string, unknown>)[n] !== undefined);
    expect(values).toEqual(expect.arrayContaining(['object', 'string', 'number', 'union', 'discriminatedUnion', 'preprocess']));
    for (const n of values)
      expect(typeof (vendor as Record<string, unknown>)[n], `z.${n}`).toBe(typeof (packageZ as Record<string, unknown>)[n]);

    // schemas of the shapes the sources build, each from each zod, and inputs that pass and fail them
    const schema = (z: typeof packageZ) =>
      z
        .object({
          lambda: z.number().positive(),
          d: z.number().int().min(1),
          selection: z.enum(['jsq', 'random']).default('jsq'),
          service: z
            .discriminatedUnion('kind', [
              z.object({ kind: z.literal('exponential'), mean: z.number() }).strict(),
              z.object({ kind: z.literal('pareto'), alpha: z.number().gt(1) }).strict(),
            ])
            .optional(),
          sizes: z.preprocess((v) => (typeof v === 'string' ? v.split(',').map(Number) : v), z.array(z.number()).min(1)).optional(),
          tags: z.record(z.string(), z.union([z.boolean(), z.tuple([z.number(), z.unknown()])])).optional(),
        })
        .strict();
    const inputs: unknown[] = [
      { lambda: 0.9, d: 2 },
      { lambda: 0.9, d: 2, service: { kind: 'pareto', alpha: 2.5 }, sizes: '1,2,3', tags: { a: true, b: [1, 'x'] } },
      { lambda: -1, d: 1.5 },
      { lambda: 0.9, d: 2, selection: 'lwl', extra: 1 },
      { lambda: 0.9, d: 2, service: { kind: 'gamma' } },
      { lambda: 0.9, d: 2, service: { kind: 'pareto', alpha: 1 }, sizes: '', tags: { a: 'no' } },
      'not an object',
    ];
    const [fromPackage, fromBundle] = [schema(packageZ), schema(vendor)];
    for (const input of inputs) expect(JSON.stringify(fromBundle.safeParse(input))).toBe(JSON.stringify(fromPackage.safeParse(input)));
  });

  it('is built with the CLI bundles, where they and lazy.ts look for it (dist/vendor/zod.mjs)', () => {
    expect(readFileSync('scripts/build-cli.ts', 'utf8')).toContain("path.join(dist, 'vendor', 'zod.mjs')");
    expect(readFileSync('scripts/build-zod.ts', 'utf8')).toContain("path.join(root, 'dist', 'vendor', 'zod.mjs')");
    expect(readFileSync('src/lazy.ts', 'utf8')).toContain("new URL('./vendor/zod.mjs', import.meta.url)");
  });
});
