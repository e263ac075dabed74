/**
 * The finite-n table benchmark of issue 23 (not a test): the full grid d = 2,3,4 × λ = 0.7,0.8,0.9,0.95 ×
 * n = 10,20,30,50,100 to 95% half-widths ≤ 0.2 % of E[Q], on 2 threads, with the load average before and after and
 * the table's own wall, CPU and events line. Target: ≤ 10 minutes on 2 quiet cores. The first stage has 20 runs per
 * cell: the precision stop uses each cell's estimated spread, and with 10 runs (9 degrees of freedom) the cells that
 * stop early are those whose spread came out low, so their CIs under-cover (the 10-run grid against rmf_tool's data
 * gave Σz² = 74.5 on 50 cells).
 *
 *   npm run bench:table            # writes reports/table-bench/ (results.json, table.md, table.csv)
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'reports', 'table-bench');
const args = [
  path.join(root, 'bin', 'supermarket.js'),
  'table',
  ...['--d', '2,3,4', '--lambda', '0.7,0.8,0.9,0.95', '--n', '10,20,30,50,100'],
  ...['--runs', '20', '--precision', '0.002', '--threads', '2', '--fresh', '--out', out],
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
  console.error(`supermarket table failed (exit ${r.status})`);
  process.exit(1);
}
const lines = r.stdout.trim().split('\n');
console.log(lines[lines.length - 1]);
console.log(`bench wall ${seconds.toFixed(1)} s (target ≤ 600 s on 2 quiet cores); the table is in ${path.relative(root, out)}/table.md`);
