/**
 * The finite-n table benchmark of issue 23 (not a test): the full grid d = 2,3,4 × λ = 0.7,0.8,0.9,0.95 ×
 * n = 10,20,30,50,100 to 95% half-widths ≤ 0.2 % of E[Q], on 2 threads, with the load average before and after and
 * the table's own wall, CPU and events line. Target: ≤ 10 minutes on 2 quiet cores. The first stage has 20 runs per
 * cell: the precision stop uses each cell's estimated spread, and with 10 runs (9 degrees of freedom) the cells that
 * stop early are those whose spread came out low, so their CIs under-cover (the 10-run grid against rmf_tool's data
 * gave Σz² = 74.5 on 50 cells).
 *
 *   npm run bench:table            # writes reports/table-bench/ (results.json, table.md, table.csv)
 *   npm run bench:table -- --help  # its arguments
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');

const HELP = `Usage: npm run bench:table -- [--threads <k>] [--out <dir>] [--resume] [--help]

The finite-n table benchmark of issue 23 (not a test): supermarket table over d = 2,3,4 × λ = 0.7,0.8,0.9,0.95
× n = 10,20,30,50,100 to 95% half-widths ≤ 0.2 % of E[Q] (--runs 20 --precision 0.002), with the load average
before and after, the table's own events/CPU line and the bench's wall. Target: ≤ 10 minutes on 2 quiet cores.

  --threads <k>  worker threads of the table (default 2: the target is for 2 cores)
  --out <dir>    where the table is written (default reports/table-bench)
  --resume       reuse the cells stored in <dir> by an earlier bench (default: --fresh, every cell recomputed,
                 so the wall measures the whole grid)
  --help         this text

The grid and precision are the benchmark's definition and are not arguments: for another grid, run
supermarket table directly (supermarket table --help).`;

/** One line on stderr and exit 2, as the CLI refuses bad input. */
function refuse(line: string): never {
  process.stderr.write(`bench:table: error: ${line} (npm run bench:table -- --help)\n`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    args: process.argv.slice(2),
    options: {
      threads: { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}
try {
  parsed = parse();
} catch (e) {
  refuse((e as Error).message.split('\n')[0].replace(/\. To specify a positional argument.*$/, ''));
}
const v = parsed.values;
if (v.help) {
  console.log(HELP);
  process.exit(0);
}
const threads = v.threads ?? '2';
if (!/^[1-9]\d*$/.test(threads)) refuse(`--threads: expected an integer ≥ 1, got ${JSON.stringify(threads)}`);
if (v.out !== undefined && v.out.trim() === '') refuse('--out: expected a folder, got an empty string');
const out = path.resolve(v.out ?? path.join(root, 'reports', 'table-bench'));
const args = [
  path.join(root, 'bin', 'supermarket.js'),
  'table',
  ...['--d', '2,3,4', '--lambda', '0.7,0.8,0.9,0.95', '--n', '10,20,30,50,100'],
  ...['--runs', '20', '--precision', '0.002', '--threads', threads, ...(v.resume ? [] : ['--fresh']), '--out', out],
];
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`load average before: ${load()}`);
const started = performance.now();
const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
const seconds = (performance.now() - started) / 1000;
console.log(`load average after:  ${load()}`);
if (r.status !== 0) {
  // the table said why on stderr (inherited); a refused --out is bad input (2), a failed run 1
  console.error(`bench:table: supermarket table failed (exit ${r.status ?? r.signal})`);
  process.exit(r.status === 2 ? 2 : 1);
}
const lines = r.stdout.trim().split('\n');
console.log(lines[lines.length - 1]);
console.log(`bench wall ${seconds.toFixed(1)} s (target ≤ 600 s on 2 quiet cores); the table is in ${path.relative(root, out)}/table.md`);
