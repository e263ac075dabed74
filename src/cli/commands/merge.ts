/**
 * `supermarket merge DIR…`: joins the cell stores of the shards of one grid (written by `compare`, `run` or
 * `conjecture` with `--shard i/N`, e.g. by the tasks of a Slurm job array) and writes the report of the whole grid.
 * It refuses, with one line, shards of different runs (another grid, other settings or another version of
 * supermarket-lab) and names the cells that no shard has stored (a failed or unfinished task) instead of computing
 * them; rerunning those shards (or resubmitting the array) computes only what is missing.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { cellFileName } from '../../runs/cellStore.ts';
import { contentHash, findShards, storedCellText, type FoundShard } from '../../runs/shard.ts';
import { SupermarketError } from '../../errors.ts';
import { writeFileAtomic } from '../../io/index.ts';
import { VERSION } from '../../version.ts';
import { action } from '../errors.ts';
import { examples, outOption, parseThreads, reportFolder } from '../options.ts';
import { addMixedCodeOption, addSummaryOptions } from '../sharding.ts';
import { checkSameCode } from '../../runs/codeIdentity.ts';
import { lockFolder } from '../../runs/lock.ts';
import { asMergedRun, commandLine } from '../versions.ts';

interface Opts {
  out?: string;
  threads?: number;
  json?: boolean;
  progress: boolean;
  allowMixedCode?: boolean;
}

/** What merging found: the cells present, those missing (by shard), and the shards seen. */
export interface MergePlan {
  readonly command: string;
  readonly argv: readonly string[];
  readonly report: string;
  readonly count: number;
  /** key → text of the stored cell file. */
  readonly found: Map<string, string>;
  /** Missing keys by shard index. */
  readonly missing: Map<number, string[]>;
  readonly shards: readonly FoundShard[];
}

function describe(s: FoundShard): string {
  return `${s.dir} (${s.manifest.command}, grid ${s.manifest.grid}, version ${s.manifest.version}, shard ${s.manifest.shard.index}/${s.manifest.shard.count})`;
}

/**
 * Checks that the shards belong to one run and collects their cells.
 * @throws {SupermarketError} one line for shards of different runs or of another version.
 */
export function planMerge(dirs: readonly string[]): MergePlan {
  const shards = findShards(dirs);
  const first = shards[0];
  for (const s of shards) {
    const a = first.manifest;
    const b = s.manifest;
    if (!sameRun(a, b) || a.shard.count !== b.shard.count) {
      // one grid split twice (a stray `--shard 2/3` beside a 1/2 and 2/2): say which split to merge, not only that they differ
      const twoSplits = sameRun(a, b);
      const hint = twoSplits
        ? `; they split one grid into ${a.shard.count} and ${b.shard.count} shards: merge one split by naming its folders ` +
          `(supermarket merge …/shards/1-of-${a.shard.count} … --out <dir>) or remove the other split's folders`
        : '';
      const what = twoSplits ? '' : `: ${settingsDifference(first, s)}`;
      throw new SupermarketError(`refusing to merge shards of different runs: ${describe(first)} and ${describe(s)}${what}${hint}`);
    }
  }
  for (const s of shards) {
    // shards of other code: refused in one line that names the command recomputing that shard with this code
    try {
      checkSameCode(s.manifest.code, `shard ${s.dir}`);
    } catch (error) {
      if (!(error instanceof SupermarketError)) throw error;
      const why = error.message.replace(/: rerun with --fresh, or --allow-mixed-code.*$/, '');
      throw new SupermarketError(
        `${why}: recompute that shard with this code (${rerunShardCommand(s.manifest, s.manifest.shard.index)} --fresh) and merge again, ` +
          'or merge with --allow-mixed-code to use it anyway (noted in the report)',
      );
    }
  }
  if (first.manifest.version !== VERSION) {
    throw new SupermarketError(
      `refusing to merge: the shards were computed by supermarket-lab ${first.manifest.version}, this is ${VERSION} (rerun the shards with this version)`,
    );
  }
  const m = first.manifest;
  // the command line merge reruns for the report: one whose files are here as the shard read them (shards of one run
  // may name one file at other paths, e.g. checkouts at different places), else the first shard's (the rerun then names
  // the missing file); a file here whose contents changed since is another run: the rerun would report (and simulate) it
  const present = (s: FoundShard) => operandsOf(s.manifest.argv).every((f) => existsSync(f));
  const unchanged = (s: FoundShard) => {
    const inputs = s.manifest.inputs;
    return inputs === undefined || operandsOf(s.manifest.argv).every((f, i) => contentHash(f) === inputs[i]);
  };
  const here = shards.find((s) => present(s) && unchanged(s));
  const changed = shards.find((s) => present(s) && !unchanged(s));
  if (here === undefined && changed !== undefined)
    throw new SupermarketError(
      `refusing to merge: ${operandName(m.command)} ${operandsOf(changed.manifest.argv).join(' ')} has changed since ` +
        `shard ${changed.manifest.shard.index}/${changed.manifest.shard.count} read it (its contents differ) and no shard's file ` +
        'is here unchanged: restore the file the shards ran with, or rerun the shards',
    );
  const found = new Map<string, string>();
  for (const [key, settings] of Object.entries(m.cells)) {
    for (const s of shards) {
      const text = storedCellText(path.join(s.dir, 'cells'), key, settings);
      if (text !== undefined) {
        found.set(key, text);
        break;
      }
    }
  }
  const missing = new Map<number, string[]>();
  for (const key of Object.keys(m.cells)) {
    if (found.has(key)) continue;
    const shard = m.assignment?.[key] ?? 0;
    missing.set(shard, [...(missing.get(shard) ?? []), key]);
  }
  return { command: m.command, argv: (here ?? first).manifest.argv, report: m.report, count: m.shard.count, found, missing, shards };
}

/** One line naming what is missing, by shard. */
export function missingMessage(plan: MergePlan): string {
  const total = [...plan.missing.values()].reduce((s, k) => s + k.length, 0);
  const cells = Object.keys(plan.shards[0].manifest.cells).length;
  const given = new Set(plan.shards.map((s) => s.manifest.shard.index));
  const absent = Array.from({ length: plan.count }, (_, i) => i + 1).filter((i) => !given.has(i));
  const parts = [...plan.missing.entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([i, keys]) =>
        `shard ${i}/${plan.count}${absent.includes(i) ? ' (no folder given)' : ''}: ${keys.length} (${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''})`,
    );
  const m = plan.shards[0].manifest;
  const commands = [...plan.missing.keys()].sort((a, b) => a - b).map((i) => rerunShardCommand(m, i));
  return (
    `${total} of ${cells} cells are missing: ${parts.join('; ')}. Rerun ${commands.length === 1 ? 'that shard' : 'those shards'} ` +
    `(or resubmit the array): ${commands.join(' ; ')} — stored cells are kept and only the missing ones are computed`
  );
}

/** The command line that (re)runs shard `index` of the run `m` describes, into the report folder it was started with. */
export function rerunShardCommand(m: FoundShard['manifest'], index: number): string {
  return commandLine([m.command, ...m.argv, '--shard', `${index}/${m.shard.count}`, '--out', m.report]);
}

/**
 * The options of a shard's command line (`--name` → its value, or true for a flag) and its operands, from the argv
 * stored in the manifest (`rerunArgv`: options first, then the operands as absolute paths).
 */
function splitArgv(argv: readonly string[]): { options: Map<string, string | true>; operands: string[] } {
  const options = new Map<string, string | true>();
  const operands: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) operands.push(a);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--') && !path.isAbsolute(argv[i + 1])) options.set(a, argv[++i]);
    else options.set(a, true);
  }
  return { options, operands };
}

/** The file operands of a shard's command line (absolute paths, `rerunArgv`). */
function operandsOf(argv: readonly string[]): string[] {
  return splitArgv(argv).operands;
}

/** What a command's file operand is, as a difference names it ("the experiment file /a.json vs /b.json"). */
function operandName(command: string): string {
  return command === 'run' ? 'the experiment file' : command === 'conjecture' ? 'the conjecture file' : 'the file';
}

/**
 * The options of a shard's command line and, under `operandName`, its operands (`splitArgv`), for naming what differs.
 */
function optionsOf(m: FoundShard['manifest']): Map<string, string | true> {
  const { options, operands } = splitArgv(m.argv);
  if (operands.length > 0) options.set(operandName(m.command), operands.join(' '));
  return options;
}

/**
 * True when two shards' manifests describe one run, split alike or not: the same command and grid (every cell's
 * settings, the version), the same options, and the same files — by content, not path: shards run from checkouts at
 * different paths (a cluster) or from a copy read the same file elsewhere (`ShardManifest.inputs`; shards written
 * before `inputs` are compared by their grids alone, which hold every cell's settings).
 */
function sameRun(a: FoundShard['manifest'], b: FoundShard['manifest']): boolean {
  if (a.command !== b.command || a.grid !== b.grid) return false;
  // a file that differs in content is another run at any path (the report reads all of it, not only the grid)
  if (a.inputs !== undefined && b.inputs !== undefined && JSON.stringify(a.inputs) !== JSON.stringify(b.inputs)) return false;
  if (JSON.stringify(a.argv) === JSON.stringify(b.argv)) return true;
  const [sa, sb] = [splitArgv(a.argv), splitArgv(b.argv)];
  if (sa.operands.length !== sb.operands.length) return false;
  for (const key of new Set([...sa.options.keys(), ...sb.options.keys()])) if (sa.options.get(key) !== sb.options.get(key)) return false;
  return true;
}

/**
 * What differs between two shards' runs, named: the command, the options (`a setting differs (shard 1/2 vs shard 2/2):
 * --runs 3 vs 4`; an option given in one only shows as "(default)" in the other), the operands, or, when the command lines
 * agree, the grid (a file they read differs).
 */
function settingsDifference(a: FoundShard, b: FoundShard): string {
  const [ma, mb] = [a.manifest, b.manifest];
  const at = (m: FoundShard['manifest']) => `shard ${m.shard.index}/${m.shard.count}`;
  if (ma.command !== mb.command) return `the command differs: ${ma.command} in ${at(ma)}, ${mb.command} in ${at(mb)}`;
  const oa = optionsOf(ma);
  const ob = optionsOf(mb);
  const show = (v: string | true | undefined) => (v === undefined ? '(default)' : v === true ? '(set)' : v);
  // a file at two paths counts by its content (`sameRun`): say when that differs too
  const contents = ma.inputs !== undefined && mb.inputs !== undefined && JSON.stringify(ma.inputs) !== JSON.stringify(mb.inputs);
  const diffs: string[] = [];
  for (const key of new Set([...oa.keys(), ...ob.keys()]))
    if (oa.get(key) !== ob.get(key))
      diffs.push(
        `${key} ${show(oa.get(key))} vs ${show(ob.get(key))}${key === operandName(ma.command) && contents ? ' (their contents differ)' : ''}`,
      );
  if (diffs.length > 0)
    return `${diffs.length === 1 ? 'a setting differs' : 'settings differ'} (${at(ma)} vs ${at(mb)}): ${diffs.join(', ')}; rerun the shards with one command line`;
  if (contents)
    return `the command lines agree but ${operandName(ma.command)}'s contents differ (it changed between the shards?); rerun the shards`;
  if (ma.shard.count !== mb.shard.count) return `they split the grid into ${ma.shard.count} and ${mb.shard.count} shards`;
  return 'the command lines agree but the grids differ (a file they read changed between the shards?); rerun the shards';
}

/** Copies the found cells (and any other stored cell, e.g. cached solves) into `<out>/cells/`. */
function copyCells(plan: MergePlan, out: string): void {
  const target = path.join(out, 'cells');
  for (const [key, text] of plan.found) {
    const file = path.join(target, cellFileName(key));
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileAtomic(file, text);
  }
  for (const s of plan.shards) {
    const dir = path.join(s.dir, 'cells');
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) {
      if (f.endsWith('.json') && !existsSync(path.join(target, f))) writeFileAtomic(path.join(target, f), readFileSync(path.join(dir, f)));
    }
  }
}

/** The commands whose grids shard (`--shard i/N`), each loaded on its own: merge reruns the one that wrote the shards. */
const SHARDED_COMMANDS = {
  compare: async () => (await import('./compare.ts')).compareCommand(),
  run: async () => (await import('./run.ts')).runCommand(),
  conjecture: async () => (await import('./conjecture.ts')).conjectureCommand(),
  table: async () => (await import('./table.ts')).tableCommand(),
} as const;

export function mergeCommand(): Command {
  const cmd = new Command('merge')
    .description(
      'Reads the shard folders (each <out>/shards/<i>-of-<N>/ with shard.json and cells/, or a report folder holding\n' +
        'them), checks that they come from one run (same command, grid, settings and supermarket-lab version; mixed\n' +
        'shards are refused), copies their cells into <out>/cells/ and writes the report of the whole grid exactly as\n' +
        'one local run would. If a cell is missing (a shard failed or did not finish), merge names the shards and\n' +
        'cells and computes nothing: rerun those shards (or resubmit the job array) and merge again.',
    )
    .argument('<dir...>', 'shard folders, or report folders holding shards/*')
    .addOption(outOption('the one the shards were started with'))
    .option('--threads <k>', 'worker threads for the report step (nothing is simulated when every cell is present)', parseThreads);
  return addMixedCodeOption(addSummaryOptions(cmd, "print the command's JSON summary on stdout"))
    .addHelpText(
      'after',
      examples([
        'supermarket run experiments/smoke.json --shard 1/2 --out reports/smoke',
        'supermarket run experiments/smoke.json --shard 2/2 --out reports/smoke',
        'supermarket merge reports/smoke',
        'supermarket merge /scratch/a /scratch/b --out reports/joined',
      ]),
    )
    .action(
      action(async (dirs: string[], o: Opts) => {
        const plan = planMerge(dirs);
        if (plan.missing.size > 0) throw new SupermarketError(missingMessage(plan));
        const out = path.resolve(reportFolder(o.out, plan.report));
        // one run per folder (runs/lock.ts), held through the rerun of the shards' command (its lock of out nests)
        lockFolder(out, commandLine(process.argv.slice(2)));
        copyCells(plan, out);
        // the command that wrote the shards, loaded by itself (importing the program here would tie merge and program in a circle)
        const command = await SHARDED_COMMANDS[plan.command as keyof typeof SHARDED_COMMANDS]?.();
        if (!command) throw new SupermarketError(`merge: the shards were written by an unknown command "${plan.command}"`);
        const argv = [
          ...plan.argv,
          '--out',
          out,
          ...(o.threads ? ['--threads', String(o.threads)] : []),
          ...(o.allowMixedCode ? ['--allow-mixed-code'] : []),
          ...(o.json ? ['--json'] : []),
          ...(o.progress ? [] : ['--no-progress']),
        ];
        // commander's own refusals (an option the shards' command no longer accepts) become one line, like merge's others
        let refusal = '';
        command.exitOverride().configureOutput({ outputError: (str) => (refusal = str.trim().replace(/^error: /, '')) });
        // the report names the sharded run's command (with its --out), which reproduces it, and says it was merged
        const original = commandLine([plan.command, ...plan.argv, '--out', plan.report]);
        const mergedFrom = { shards: plan.count, merge: commandLine(['merge', ...dirs, ...(o.out ? ['--out', o.out] : [])]) };
        try {
          await asMergedRun(original, mergedFrom, () => command.parseAsync(argv, { from: 'user' }));
        } catch (e) {
          if (!(e instanceof CommanderError)) throw e;
          throw new SupermarketError(
            `merge: cannot rerun the shards' command (supermarket ${plan.command} ${plan.argv.join(' ')}): ${refusal || e.message}`,
          );
        }
      }),
    );
}
