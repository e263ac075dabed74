/**
 * Bundles the explorer's browser script (src/explorer/app.ts: the page and its Web Workers, with the library's model,
 * mean-field and simulation rooms) with esbuild into dist/explorer/bundle.js, one minified classic script that
 * `supermarket explore` inlines into its page. Run by `npm run build` (so `prepare` and a packed install carry it);
 * the generated file stays out of git like the rest of dist/.
 *
 * Browser twins: a source file `x.ts` with a sibling `x.browser.ts` is replaced by the twin (lazy.ts and version.ts,
 * the two modules that reach Node's `require`). platform 'browser' makes any other `node:` import a build error, so
 * a leak into the pure rooms fails `npm run build`.
 */
import { build, type Plugin } from 'esbuild';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { codeIdentity } from '../src/runs/codeIdentity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const EXPLORER_ENTRY = path.join(root, 'src', 'explorer', 'app.ts');
export const EXPLORER_BUNDLE = path.join(root, 'dist', 'explorer', 'bundle.js');

/** Resolves `x.ts` to its sibling `x.browser.ts` when there is one. */
export const browserTwins: Plugin = {
  name: 'browser-twins',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.ts$/ }, (args) => {
      const twin = path.resolve(args.resolveDir, args.path.replace(/\.ts$/, '.browser.ts'));
      return existsSync(twin) ? { path: twin } : undefined;
    });
  },
};

/** Bundles the explorer; returns the output file and its size in bytes. */
export async function buildExplorer(outfile = EXPLORER_BUNDLE): Promise<{ outfile: string; bytes: number }> {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  await build({
    entryPoints: [EXPLORER_ENTRY],
    outfile,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    define: { __SUPERMARKET_VERSION__: JSON.stringify(pkg.version), __SUPERMARKET_CODE__: JSON.stringify(codeIdentity()) },
    plugins: [browserTwins],
    logLevel: 'warning',
  });
  return { outfile, bytes: statSync(outfile).size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { outfile, bytes } = await buildExplorer();
  console.log(`explorer bundle: ${path.relative(root, outfile)} (${(bytes / 1024).toFixed(0)} KiB)`);
}
