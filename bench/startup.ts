/**
 * Start-up benchmark of the compiled CLI (dist/, as the `supermarket` bin runs it): `--version`, `--help` and
 * `fixed-point --lambda 0.9 --d 2`, each run `runs` times (default 7, interleaved), against the targets of issue 7
 * (0.3 s, 0.3 s, 0.5 s). Run: `npm run bench:startup [-- runs]` (builds first). Prints one table.
 *
 * Wall time is what a user waits; on a shared machine it also counts time spent waiting for a core, so the table gives
 * the child's own CPU time (user + system) and peak memory too, read inside the child at exit, and the load average.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'supermarket.js');
const runs = Number(process.argv[2] ?? 7);

const COMMANDS: { args: string[]; target: number }[] = [
  { args: ['--version'], target: 0.3 },
  { args: ['--help'], target: 0.3 },
  { args: ['fixed-point', '--lambda', '0.9', '--d', '2'], target: 0.5 },
];

// Preloaded into each child: at exit, writes its CPU time (µs) and peak resident memory (kB) to stderr.
const PROBE =
  'data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();' +
  'process.stderr.write(`\\nstartup-probe ${u.userCPUTime + u.systemCPUTime} ${u.maxRSS}\\n`)})';

interface Sample {
  wall: number;
  cpu: number;
  rssMb: number;
}

function runOnce(args: string[]): Sample {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', PROBE, BIN, ...args], { encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0) throw new Error(`supermarket ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  const probe = /startup-probe (\d+) (\d+)/.exec(r.stderr);
  if (!probe) throw new Error(`no probe line from supermarket ${args.join(' ')}`);
  return { wall, cpu: Number(probe[1]) / 1e6, rssMb: Number(probe[2]) / 1024 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
  console.error('bench/startup: dist/ is missing; run `npm run build` first (npm run bench:startup does)');
  process.exit(1);
}

const samples: Sample[][] = COMMANDS.map(() => []);
runOnce(['--version']); // untimed: fills the file-system cache
for (let i = 0; i < runs; i++) COMMANDS.forEach((c, j) => samples[j].push(runOnce(c.args)));

const load = os
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
console.log(
  `supermarket start-up, compiled JS (node ${process.version}, ${os.availableParallelism()} cores, load average ${load}), median of ${runs} runs`,
);
console.log('');
console.log('| command | target | wall median | wall min | CPU median | peak RSS | wall ≤ target |');
console.log('|---|---|---|---|---|---|---|');
COMMANDS.forEach((c, j) => {
  const s = samples[j];
  const wall = median(s.map((x) => x.wall));
  const row = [
    `supermarket ${c.args.join(' ')}`,
    `${c.target.toFixed(2)} s`,
    `${wall.toFixed(3)} s`,
    `${Math.min(...s.map((x) => x.wall)).toFixed(3)} s`,
    `${median(s.map((x) => x.cpu)).toFixed(3)} s`,
    `${median(s.map((x) => x.rssMb)).toFixed(0)} MB`,
    wall <= c.target ? 'yes' : 'no',
  ];
  console.log(`| ${row.join(' | ')} |`);
});
