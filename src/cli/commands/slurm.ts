/**
 * `supermarket slurm FILE --array N`: runs an experiment (or conjecture) file beyond one machine as a Slurm job
 * array; `supermarket slurm --command table --array N -- <table options>` does the same for the finite-n table's grid. Writes `<out>/slurm/array.sbatch` (task i computes shard i of N: `--shard $SLURM_ARRAY_TASK_ID/N` into
 * `<out>/shards/<i>-of-<N>/`), `merge.sbatch` (joins the shards and writes the report; submitted with
 * `--dependency=afterok:<array job>`) and `submit.sh`; with --submit it submits both, with --wait it blocks until
 * the merge ends. Resubmitting submits only the shards with missing cells (each resumes its stored cells), so a
 * failed task loses no other task's work. No daemon of ours: Slurm schedules, the file system carries the cells.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { PathError, SupermarketError } from '../../errors.ts';
import { writeFileAtomic } from '../../io/index.ts';
import { action, refusalLine } from '../errors.ts';
import { outOption, parseInFile, parsePositiveInteger, reportFolder } from '../options.ts';
import { missingMessage, planMerge } from './merge.ts';
import { loadExperiment } from './run.ts';
import { expandGrid } from '../../experiments/grid.ts';
import { START_CHOICES, type StartChoice } from '../../meanfield/warmup.ts';

interface Opts {
  array: number;
  partition?: string;
  time?: string;
  cpusPerTask: number;
  mem?: string;
  account?: string;
  setup?: string;
  out?: string;
  command: 'run' | 'conjecture' | 'table';
  submit?: boolean;
  wait?: boolean;
  start?: StartChoice;
}

/** The package's `supermarket` launcher (bin/supermarket.js, which runs the compiled dist/). */
const BIN = fileURLToPath(new URL('../../../bin/supermarket.js', import.meta.url));

/** Shell-quotes a word for a bash script. */
function q(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * An `#SBATCH` directive's value as sbatch reads it: sbatch splits a directive line at whitespace outside double
 * quotes and takes a backslash as an escape (src/sbatch/opt.c `_get_argument`), so a path with a space is quoted:
 * `--output="/a b/logs/%a.out"`. Values without whitespace, quotes or backslashes stay as they are.
 */
function sbatchValue(value: string): string {
  return /[\s"\\]/.test(value) ? `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"` : value;
}

/** Slurm time limit: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS. */
function parseTime(value: string): string {
  if (!/^(\d+-)?\d+(:\d+){0,2}$/.test(value))
    throw new InvalidArgumentError(`not a Slurm time limit (e.g. 90, 2:00:00, 1-12:00:00): ${JSON.stringify(value)}`);
  return value;
}

/** Indexes 1..N as a Slurm array spec, ranges compressed: [1,2,3,5] → "1-3,5". */
export function arraySpec(indexes: readonly number[]): string {
  const sorted = [...indexes].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j;
  }
  return parts.join(',');
}

/** The scripts of a job array of `count` shards of `file` (all paths absolute). */
export function slurmScripts(o: {
  /** The experiment or conjecture file; for `table`, a description of its grid (the task lines take `args`). */
  file: string;
  command: string;
  /** The arguments of every task's command before --shard (default: the file): table's options. */
  args?: readonly string[];
  out: string;
  count: number;
  cpusPerTask: number;
  partition?: string;
  time?: string;
  mem?: string;
  account?: string;
  setup?: string;
  name: string;
  cwd: string;
  node: string;
  bin: string;
  /** The shards' --start (absent: each command's default, or a conjecture file's own evaluation.start). */
  start?: StartChoice;
}): { array: string; merge: string } {
  const logs = path.join(o.out, 'slurm', 'logs');
  const common = [
    ...(o.partition ? [`#SBATCH --partition=${sbatchValue(o.partition)}`] : []),
    ...(o.account ? [`#SBATCH --account=${sbatchValue(o.account)}`] : []),
    `#SBATCH --chdir=${sbatchValue(o.cwd)}`,
  ];
  const setup = o.setup ? [o.setup] : [];
  const array = [
    '#!/bin/bash',
    `# supermarket-lab: shards of ${o.file} as a Slurm job array (written by \`supermarket slurm\`).`,
    `# Task i computes shard i of ${o.count} into ${path.join(o.out, 'shards', `<i>-of-${o.count}`)}/ and stores every finished cell at once;`,
    '# a rerun of a task resumes its stored cells. Submit with submit.sh (or `supermarket slurm ... --submit`).',
    `#SBATCH --job-name=${sbatchValue(`sm-${o.name}`)}`,
    `#SBATCH --array=1-${o.count}`,
    `#SBATCH --cpus-per-task=${o.cpusPerTask}`,
    ...(o.time ? [`#SBATCH --time=${o.time}`] : []),
    ...(o.mem ? [`#SBATCH --mem=${o.mem}`] : []),
    `#SBATCH --output=${sbatchValue(path.join(logs, 'shard-%a.out'))}`,
    ...common,
    'set -euo pipefail',
    ...setup,
    `SHARDS=${o.count}   # fixed: a resubmitted subset (--array=3,5) has another SLURM_ARRAY_TASK_COUNT`,
    `[ "\${SLURM_ARRAY_TASK_COUNT:-$SHARDS}" -le "$SHARDS" ] || { echo "array larger than $SHARDS shards" >&2; exit 2; }`,
    `exec ${q(o.node)} ${q(o.bin)} ${o.command} ${(o.args ?? [o.file]).map(q).join(' ')} --shard "\${SLURM_ARRAY_TASK_ID}/$SHARDS" --out ${q(o.out)}${o.start === undefined ? '' : ` --start ${o.start}`} --threads "\${SLURM_CPUS_PER_TASK:-1}" --no-progress`,
    '',
  ].join('\n');
  const merge = [
    '#!/bin/bash',
    `# supermarket-lab: joins the ${o.count} shards of ${o.file} and writes the report to ${o.out}/ (after the array: afterok).`,
    `#SBATCH --job-name=${sbatchValue(`sm-${o.name}-merge`)}`,
    '#SBATCH --cpus-per-task=1',
    '#SBATCH --kill-on-invalid-dep=yes',
    ...(o.time ? [`#SBATCH --time=${o.time}`] : []),
    `#SBATCH --output=${sbatchValue(path.join(logs, 'merge.out'))}`,
    ...common,
    'set -euo pipefail',
    ...setup,
    `exec ${q(o.node)} ${q(o.bin)} merge ${q(o.out)} --out ${q(o.out)} --threads 1 --no-progress`,
    '',
  ].join('\n');
  return { array, merge };
}

/** The shards (1..count) that still miss cells in `out`; all of them when no shard has started. */
function unfinishedShards(out: string, count: number): number[] {
  const all = Array.from({ length: count }, (_, i) => i + 1);
  if (!existsSync(path.join(out, 'shards'))) return all;
  try {
    const plan = planMerge([out]);
    if (plan.count !== count) return all;
    const started = new Set(plan.shards.map((s) => s.manifest.shard.index));
    return all.filter((i) => !started.has(i) || plan.missing.has(i));
  } catch {
    return all; // other run or damaged manifests: every task reruns (stale cells are recomputed, never trusted)
  }
}

/**
 * The cluster's MaxArraySize from `scontrol show config` (task ids must stay below it), or null when scontrol is
 * missing or says nothing readable. `SUPERMARKET_SCONTROL` names another scontrol (tests).
 */
export function maxArraySize(): number | null {
  const r = spawnSync(process.env.SUPERMARKET_SCONTROL ?? 'scontrol', ['show', 'config'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0) return null;
  const m = /^\s*MaxArraySize\s*=\s*(\d+)/m.exec(r.stdout);
  return m ? Number(m[1]) : null;
}

function sbatch(args: string[]): string {
  const r = spawnSync('sbatch', args, { encoding: 'utf8' });
  if (r.error)
    throw new SupermarketError(
      `cannot run sbatch (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}): is Slurm installed here? Without --submit the scripts are written only`,
    );
  if (r.status !== 0) throw new SupermarketError(`sbatch ${args.join(' ')} failed: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  return r.stdout.trim().split(';')[0];
}

/** Table options that slurm sets for every task itself (or that make no sense in a task): refused in the pass-through. */
const TABLE_SET_BY_SLURM = ['--out', '--shard', '--threads', '--json', '--csv', '--help', '-h'];

/**
 * Checks the options given for `table` tasks as `supermarket table` parses them (a bad value is refused now, not in
 * every task) and refuses those slurm sets itself. @returns the number of cells of the table's grid.
 */
async function checkTableArgs(args: readonly string[]): Promise<number> {
  for (const a of args) {
    const flag = a.split('=')[0];
    if (TABLE_SET_BY_SLURM.includes(flag))
      throw new SupermarketError(
        `${flag} is set by slurm for every table task (--out <dir> and --cpus-per-task are slurm's own options; a task writes no CSV or JSON): drop it`,
      );
  }
  const { tableCommand } = await import('./table.ts');
  const cmd = tableCommand();
  let refusal = '';
  cmd
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: (str) => (refusal = refusalLine(str.trim()).replace(/^error: /, '')) })
    .action(() => {});
  try {
    cmd.parse([...args], { from: 'user' });
  } catch (e) {
    throw new SupermarketError(`--command table: ${refusal || (e as Error).message}`);
  }
  const t = cmd.opts() as { d: number[]; lambda: number[]; n: number[] };
  return t.d.length * t.lambda.length * t.n.length;
}

export function slurmCommand(): Command {
  return new Command('slurm')
    .description(
      'Writes <out>/slurm/array.sbatch: a job array of N tasks, task i running\n' +
        '  supermarket run FILE --shard i/N --out <out> --threads $SLURM_CPUS_PER_TASK\n' +
        'into <out>/shards/<i>-of-<N>/, and <out>/slurm/merge.sbatch, submitted with --dependency=afterok:<array job>,\n' +
        'which checks the shards and writes the report of the whole grid to <out>/ (the same results.json as one local\n' +
        'run). Every finished cell is stored at once, so a failed or timed-out task loses only its running cells:\n' +
        'rerun this command with --submit and only the shards with missing cells are submitted again.\n' +
        "The scripts use this machine's node and this package by absolute path: run it on the cluster's login node.\n" +
        'With --command table there is no file: the options of `supermarket table` follow "--", and task i runs\n' +
        '  supermarket table <options> --shard i/N --out <out> --threads $SLURM_CPUS_PER_TASK',
    )
    .argument(
      '[file]',
      'experiment file (JSON), or a conjecture file with --command conjecture; with --command table none: the table\'s options follow "--"',
    )
    .argument('[table-options...]', 'with --command table, after "--": the options of `supermarket table` (grid, runs, …)')
    .requiredOption('--array <N>', 'number of array tasks (shards)', parsePositiveInteger)
    .option('--partition <p>', "Slurm partition (default: the cluster's default)")
    .option('--time <t>', 'time limit per task, e.g. 2:00:00', parseTime)
    .option('--cpus-per-task <c>', "cores per task (the task's --threads)", parsePositiveInteger, 1)
    .option('--mem <m>', 'memory per task, e.g. 4G')
    .option('--account <a>', 'Slurm account to charge')
    .option('--setup <line>', 'shell line run first in each job, e.g. "module load nodejs/20"')
    .addOption(outOption('reports/<file name>'))
    .addOption(new Option('--command <name>', 'the command of the shards').choices(['run', 'conjecture', 'table']).default('run'))
    .addOption(
      new Option(
        '--start <start>',
        "passed to every task's command (run, conjecture, table): where each replication starts, auto | empty | fixed-point (default: the command's own)",
      ).choices([...START_CHOICES]),
    )
    .option('--submit', 'submit the array and the merge job with sbatch (only shards with missing cells)')
    .option('--wait', 'with --submit: block until the merge job ends, then say where the report is or what is missing')
    .addHelpText(
      'after',
      `
On a cluster (login node; names of modules and partitions are site-specific):
  module load nodejs                     # any node ≥ 20 on PATH
  git clone <repository> supermarket-lab && cd supermarket-lab
  npm ci                                 # installs and builds dist/ (the jobs run bin/supermarket.js)
  npx supermarket slurm experiments/paper-synthetic.json --array 32 --cpus-per-task 4 \\
      --partition normal --time 2:00:00 --setup "module load nodejs" --submit
  squeue -u $USER                        # the array (sm-paper-synthetic) and the merge job waiting on it
  cat reports/paper-synthetic/slurm/logs/shard-7.out   # a task's log
  # a task failed or ran out of time? the merge job is cancelled; run the same command again:
  npx supermarket slurm experiments/paper-synthetic.json --array 32 --cpus-per-task 4 --submit
  #   (submits only the shards with missing cells; each resumes its stored cells)
  npx supermarket merge reports/paper-synthetic   # names missing cells, or writes the report
The finite-n table's grid (no file; its options after "--"; the report in reports/table unless --out):
  npx supermarket slurm --command table --array 16 --cpus-per-task 4 --out reports/table --submit \\
      -- --d 2,3,4 --lambda 0.7,0.8,0.9,0.95 --n 10,20,30,50,100 --runs 16 --precision 0.002
Without --submit: bash reports/<name>/slurm/submit.sh submits the same two jobs.
Locally, the same split without Slurm: supermarket run FILE --shard i/N, then supermarket merge <out>.`,
    )
    .action(
      action(async (fileArg: string | undefined, rest: string[], o: Opts) => {
        if (o.wait && !o.submit) throw new SupermarketError('--wait needs --submit');
        let abs: string;
        let name: string;
        let taskArgs: string[] | undefined;
        let tableCells: number | undefined;
        if (o.command === 'table') {
          // no file: every argument is one of table's options (after "--"), checked here as table parses them
          const given = [...(fileArg === undefined ? [] : [fileArg]), ...rest];
          if (o.start !== undefined && given.some((a) => a.split('=')[0] === '--start'))
            throw new SupermarketError("--start is given twice (slurm's and the table's): give it once");
          tableCells = await checkTableArgs(given);
          taskArgs = given;
          name = 'table';
          abs = `supermarket table ${given.join(' ')}`.trim();
        } else {
          if (fileArg === undefined) throw new SupermarketError(`missing the ${o.command === 'run' ? 'experiment' : 'conjecture'} file`);
          if (rest.length > 0)
            throw new SupermarketError(
              `unexpected arguments after the file: ${rest.join(' ')} (only --command table takes options after "--")`,
            );
          abs = path.resolve(parseInFile(fileArg));
          if (!existsSync(abs)) throw new PathError(`${fileArg}: no such file`);
          name = path.basename(abs, '.json').replace(/[^A-Za-z0-9._-]+/g, '_');
        }
        const file = fileArg ?? 'table';
        const out = path.resolve(reportFolder(o.out, path.join('reports', o.command === 'conjecture' ? `conjecture-${name}` : name)));
        // more tasks than cells leaves tasks with nothing to do: cap at the grid's cells (run files and table grids; a
        // conjecture's simulations are known only once its solvers ran)
        if (o.command === 'run' || o.command === 'table') {
          const cells = tableCells ?? expandGrid(loadExperiment(abs)).length;
          if (o.array > cells) {
            process.stderr.write(
              `warning: --array ${o.array} is more than the ${cells} cells of ${o.command === 'table' ? 'the table' : file}: ${cells} tasks written (one cell each)\n`,
            );
            o.array = cells;
          }
        }
        const max = maxArraySize();
        if (max !== null && o.array > max - 1) {
          process.stderr.write(
            `warning: --array ${o.array} exceeds this cluster's MaxArraySize = ${max} (task ids 1..${o.array} need ≤ ${max - 1}): sbatch will refuse it; use --array ≤ ${max - 1}\n`,
          );
        }
        const dir = path.join(out, 'slurm');
        mkdirSync(path.join(dir, 'logs'), { recursive: true });
        const scripts = slurmScripts({
          file: abs,
          command: o.command,
          ...(taskArgs === undefined ? {} : { args: taskArgs }),
          out,
          count: o.array,
          cpusPerTask: o.cpusPerTask,
          partition: o.partition,
          time: o.time,
          mem: o.mem,
          account: o.account,
          setup: o.setup,
          name,
          cwd: process.cwd(),
          node: process.execPath,
          bin: BIN,
          ...(o.start === undefined ? {} : { start: o.start }),
        });
        const arrayFile = path.join(dir, 'array.sbatch');
        const mergeFile = path.join(dir, 'merge.sbatch');
        writeFileAtomic(arrayFile, scripts.array);
        writeFileAtomic(mergeFile, scripts.merge);
        const submitFile = path.join(dir, 'submit.sh');
        writeFileAtomic(
          submitFile,
          [
            '#!/bin/bash',
            'set -euo pipefail',
            `# submits the array, then the merge job after it; (re)submit only some shards with: ARRAY=3,5 bash ${q(submitFile)}`,
            `ARRAY_JOB=$(sbatch --parsable --array="\${ARRAY:-1-${o.array}}" ${q(arrayFile)})`,
            'ARRAY_JOB=${ARRAY_JOB%%;*}',
            `MERGE_JOB=$(sbatch --parsable --dependency=afterok:$ARRAY_JOB ${q(mergeFile)})`,
            'echo "array job $ARRAY_JOB, merge job ${MERGE_JOB%%;*} (squeue -u $USER)"',
            '',
          ].join('\n'),
        );
        chmodSync(submitFile, 0o755);
        if (!existsSync(path.resolve(BIN, '../../dist/cli/main.js'))) {
          process.stderr.write(
            `note: ${path.resolve(BIN, '../../dist')} is not built; run npm ci (or npm run build) before the jobs start\n`,
          );
        }
        if (!o.submit) {
          process.stdout.write(`Wrote ${arrayFile} (${o.array} tasks) and ${mergeFile}; submit with: bash ${q(submitFile)}\n`);
          return;
        }
        const todo = unfinishedShards(out, o.array);
        let arrayJob: string | undefined;
        if (todo.length > 0) arrayJob = sbatch(['--parsable', `--array=${arraySpec(todo)}`, arrayFile]);
        const mergeArgs = [
          '--parsable',
          ...(arrayJob ? [`--dependency=afterok:${arrayJob}`] : []),
          ...(o.wait ? ['--wait'] : []),
          mergeFile,
        ];
        process.stdout.write(
          `${arrayJob ? `array job ${arrayJob}: shards ${arraySpec(todo)} of ${o.array}` : `every shard is complete`}; ` +
            `merge job ${o.wait ? 'submitted, waiting' : 'submitted'} (logs in ${path.join(dir, 'logs')})\n`,
        );
        if (!o.wait) {
          const mergeJob = sbatch(mergeArgs);
          process.stdout.write(`merge job ${mergeJob}; watch with: squeue -u ${process.env.USER ?? '$USER'}\n`);
          return;
        }
        const r = spawnSync('sbatch', mergeArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        if (r.error) throw new SupermarketError(`cannot run sbatch (${r.error.message})`);
        if (r.status === 0 && existsSync(path.join(out, 'results.json'))) {
          process.stdout.write(
            `Report written to ${path.join(out, 'index.html')} (array ${arrayJob ?? 'none'}, merge job ${r.stdout.trim().split(';')[0]})\n`,
          );
          return;
        }
        let why = `the merge job did not finish (sbatch exit ${r.status}; see ${path.join(dir, 'logs', 'merge.out')})`;
        try {
          const plan = planMerge([out]);
          if (plan.missing.size > 0) why = missingMessage(plan);
        } catch (e) {
          why += `; ${(e as Error).message}`;
        }
        throw new SupermarketError(why);
      }),
    );
}
