/**
 * Bundles zod's classic API (its schemas, checks, errors, parsing and the `config` and `NEVER` of its core) with esbuild
 * into dist/vendor/zod.mjs, one ES module exporting those names and `z` (their namespace), which the CLI's bundles
 * load instead of the zod package (scripts/build-cli.ts sends their `import … from 'zod'` there, src/lazy.ts its `z`):
 * the package's entry loads ~100 modules, 65 of them locales of its error messages (English is the one registered), and
 * took ~0.1 s of CPU in each thread that parses a model (`compare`'s main thread before its first task, each worker
 * that solves a model); the bundle ~0.03 s. Same code, the same English messages, the same values
 * (test/package/zodBundle.test.ts); left out: the other locales, JSON Schema conversion and the `iso`, `coerce` and
 * `core` namespaces, which the project does not call. Built with the bundles (scripts/build-cli.ts, `npm run build`);
 * the generated file stays out of git like the rest of dist/.
 */
import { build, type Plugin } from 'esbuild';
import { createRequire } from 'node:module';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ZOD_OUT = path.join(root, 'dist', 'vendor', 'zod.mjs');

/** zod's own files the bundle re-exports (its package exports no path to them: found from its folder). */
const CLASSIC = ['schemas', 'checks', 'errors', 'parse', 'compat'];

/**
 * The API as a module of its own (`zod-api`), so the entry can export it both name by name and as the namespace `z`,
 * as `import { z } from 'zod'` and zod's named imports both read it.
 */
function zodApi(dir: string): Plugin {
  const file = (p: string) => JSON.stringify(path.join(dir, p));
  const contents = [
    ...CLASSIC.map((f) => `export * from ${file(`v4/classic/${f}.js`)};`),
    `export { config, NEVER } from ${file('v4/core/index.js')};`,
  ].join('\n');
  return {
    name: 'zod-api',
    setup(b) {
      b.onResolve({ filter: /^zod-api$/ }, () => ({ path: 'zod-api', namespace: 'zod-api' }));
      b.onLoad({ filter: /.*/, namespace: 'zod-api' }, () => ({ contents, resolveDir: dir, loader: 'js' }));
    },
  };
}

/** Bundles the API into `outfile`; returns it and its size in bytes. */
export async function buildZod(outfile = ZOD_OUT): Promise<{ outfile: string; bytes: number }> {
  const dir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('zod/package.json'));
  await build({
    stdin: {
      contents: "import * as z from 'zod-api';\nexport * from 'zod-api';\nexport { z, z as default };\n",
      resolveDir: root,
      sourcefile: 'zod-entry.mjs',
      loader: 'js',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // whitespace and syntax only (names kept, as in stack traces): a third less source for each thread to parse
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [zodApi(dir)],
    logLevel: 'warning',
  });
  return { outfile, bytes: statSync(outfile).size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { outfile, bytes } = await buildZod();
  console.log(`zod bundle: ${path.relative(root, outfile)} (${(bytes / 1024).toFixed(0)} KiB)`);
}
