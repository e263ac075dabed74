/**
 * Bundles the @stdlib functions the library calls (`STDLIB_PACKAGES`, src/stdlibPackages.ts) with esbuild into
 * dist/vendor/stdlib.cjs, one CommonJS file exporting an object from each package name to its function, which lazy.ts
 * loads instead of the packages' hundreds of small modules (~0.22 s of CPU per thread → ~0.03 s). Same code, same
 * numbers. Run by `npm run build`; the generated file stays out of git like the rest of dist/.
 */
import { build } from 'esbuild';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STDLIB_PACKAGES } from '../src/stdlibPackages.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const STDLIB_OUT = path.join(root, 'dist', 'vendor', 'stdlib.cjs');

/** Bundles the functions into `outfile`; returns it and its size in bytes. */
export async function buildStdlib(outfile = STDLIB_OUT): Promise<{ outfile: string; bytes: number }> {
  const contents = `module.exports = {\n${STDLIB_PACKAGES.map((p) => `  ${JSON.stringify(p)}: require(${JSON.stringify(p)}),`).join('\n')}\n};\n`;
  await build({
    stdin: { contents, resolveDir: root, sourcefile: 'stdlib-entry.cjs', loader: 'js' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
  });
  return { outfile, bytes: statSync(outfile).size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { outfile, bytes } = await buildStdlib();
  console.log(`@stdlib bundle: ${path.relative(root, outfile)} (${(bytes / 1024).toFixed(0)} KiB)`);
}
