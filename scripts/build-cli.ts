/**
 * Bundles the compiled command line (dist/cli/main.js) and its pool's worker (dist/cli/workers/simulateWorker.js) with
 * esbuild into dist/bundle/: cli.js, worker.js and the chunks they share or load on demand (a command, the solvers, the
 * renderer's code: esbuild's code splitting, so a dynamic import stays lazy and the start loads only what it did
 * before). The project's own modules only (≈ 230 files for `compare`'s main thread, ≈ 180 for a worker, now a few
 * chunks); the packages are left to Node as before (`packages: 'external'`, so every package is the one instance the
 * unbundled code gets), but zod, which the bundles and src/lazy.ts both take from dist/vendor/zod.mjs, built here
 * (scripts/build-zod.ts, `zodFromVendor`). Node loaded each file as a module of its own (resolve, read, compile, link):
 * ≈ 0.2 s of CPU at each start of `compare`'s main thread, on the critical path of every run. bin/supermarket.js runs
 * the CLI bundle when it is there, which starts the worker bundle (cli/workerStart.ts); the unbundled dist/ stays the
 * library and the fallback. Same code, same numbers (test/package/cliBundle.test.ts).
 *
 * Each module keeps its own `import.meta.url` (the dist/ file it was compiled to, as a URL relative to its chunk's),
 * so paths found from it (the code identity's folder dist/, package.json, dist/vendor/, analysis/, the worker files)
 * are the unbundled ones. `SUPERMARKET_BUNDLE` is defined (true) inside the bundles only.
 * Run by `npm run build` after tsc; the generated files stay out of git like the rest of dist/.
 */
import { build, type Plugin } from 'esbuild';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildZod } from './build-zod.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(root, 'dist');
/** The entries (compiled by tsc into `DIST`) and their bundles' names. */
export const CLI_BUNDLES = { cli: 'cli/main.js', worker: 'cli/workers/simulateWorker.js' } as const;

/**
 * Replaces `import.meta.url` in each file under `dist` by that file's own URL, relative to its chunk's (every chunk is
 * written to `outdir` itself): `new URL('<path from outdir to the file>', import.meta.url).href`.
 */
function ownImportMetaUrl(dist: string, outdir: string): Plugin {
  return {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith(dist + path.sep)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return { contents: source, loader: 'js' };
        const relative = path.relative(outdir, args.path).split(path.sep).join('/');
        const own = `new URL(${JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', own), loader: 'js' };
      });
    },
  };
}

/**
 * Sends the bundles' imports of zod (`import { z } from 'zod'`: claims, experiments) to `vendor`, dist/vendor/zod.mjs
 * (scripts/build-zod.ts: its classic API in one module), the file src/lazy.ts loads inside the bundles, so there is one
 * zod, as outside them, and a thread loads one module for it, not the package's ~100. Left external (loaded by Node),
 * as a path relative to the chunks (all written to `outdir`).
 */
function zodFromVendor(vendor: string, outdir: string): Plugin {
  const relative = path.relative(outdir, vendor).split(path.sep).join('/');
  return {
    name: 'zod-from-vendor',
    setup(b) {
      b.onResolve({ filter: /^zod$/ }, () => ({ path: relative.startsWith('.') ? relative : `./${relative}`, external: true }));
    },
  };
}

/**
 * Bundles the CLI and its worker from the compiled `dist` into `outdir` (default: dist/bundle/, where
 * bin/supermarket.js looks), emptied first. @returns each output's path (the entries cli.js and worker.js, the
 * chunks), size in bytes and number of modules.
 */
export async function buildCli(
  outdir = path.join(DIST, 'bundle'),
  dist = DIST,
): Promise<{ outfile: string; bytes: number; modules: number }[]> {
  rmSync(outdir, { recursive: true, force: true }); // chunks of an earlier build would stay beside this one's
  // the zod the bundles import (`zodFromVendor`), built with them: a bundle without it would not start
  const zod = path.join(dist, 'vendor', 'zod.mjs');
  await buildZod(zod);
  const entryPoints = Object.fromEntries(Object.entries(CLI_BUNDLES).map(([name, entry]) => [name, path.join(dist, entry)]));
  const result = await build({
    entryPoints,
    outdir,
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    splitting: true,
    chunkNames: '[name]-[hash]',
    define: { SUPERMARKET_BUNDLE: 'true' },
    plugins: [zodFromVendor(zod, outdir), ownImportMetaUrl(dist, outdir)],
    metafile: true,
    logLevel: 'warning',
  });
  return Object.entries(result.metafile.outputs).map(([file, out]) => {
    const outfile = path.resolve(root, file);
    return { outfile, bytes: statSync(outfile).size, modules: Object.keys(out.inputs).length };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outputs = await buildCli();
  const kib = (outputs.reduce((s, o) => s + o.bytes, 0) / 1024).toFixed(0);
  const modules = outputs.reduce((s, o) => s + o.modules, 0);
  console.log(`CLI bundle: dist/bundle/ (cli.js, worker.js and ${outputs.length - 2} chunks; ${kib} KiB, ${modules} modules)`);
}
