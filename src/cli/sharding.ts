/**
 * `--threads` and `--shard i/N` for the grid commands (compare, run, conjecture): the shared options, and a shard
 * session that picks the shard's cells from the whole grid, writes them into `<out>/shards/<i>-of-<N>/cells/` and
 * keeps the shard's manifest (src/runs/shard.ts) so `supermarket merge` can check and join the shards.
 */
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { settingsHash } from '../runs/cellStore.ts';
import { assignShards, contentHash, parseShard, shardDir, writeShardManifest, type ShardSpec } from '../runs/shard.ts';
import { SupermarketError } from '../errors.ts';
import { allowMixedCode } from '../runs/codeIdentity.ts';
import { parseThreads } from './options.ts';
import { printJson } from './output.ts';

/** Options a merge must not repeat when it reruns a shard's command over the whole grid. */
const NOT_RERUN = new Set(['out', 'shard', 'threads', 'fresh', 'json', 'progress', 'allowMixedCode']);

/** Commander parser of `--shard i/N`. */
export function parseShardOption(value: string): ShardSpec {
  try {
    return parseShard(value);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message.replace(/^--shard /, ''));
  }
}

/** The text the user gave each value option of a command on the command line, by attribute name (`recordOptionText`). */
const optionText = new WeakMap<Command, Map<string, string[]>>();

/**
 * Keeps the text the user gave each value option of `cmd` (by commander's `option:<name>` events, which carry the raw
 * argument before the option's parser sees it), so `rerunArgv` replays what the user wrote, not a value formatted
 * back (`--exact-n none` parses to [] and would print back as '', which the parser refuses). Call once, at build time.
 */
export function recordOptionText(cmd: Command): Command {
  const texts = new Map<string, string[]>();
  optionText.set(cmd, texts);
  // commander's Command is an EventEmitter at run time; its typings do not say so
  const emitter = cmd as unknown as { emit(event: string | symbol, ...args: unknown[]): boolean };
  const emit = emitter.emit.bind(cmd);
  emitter.emit = (event: string | symbol, ...args: unknown[]): boolean => {
    if (typeof event === 'string' && event.startsWith('option:') && typeof args[0] === 'string') {
      const option = cmd.options.find((o) => o.name() === event.slice('option:'.length));
      if (option) {
        const key = option.attributeName();
        texts.set(key, [...(texts.get(key) ?? []), args[0]]);
      }
    }
    return emit(event, ...args);
  };
  return cmd;
}

/** Adds `--threads <k>` and `--shard <i/N>` to a grid command (and records its option text for `rerunArgv`). */
export function addScaleOptions(cmd: Command): Command {
  return recordOptionText(cmd)
    .option('--threads <k>', "worker threads (default: the machine's cores)", parseThreads)
    .option(
      '--shard <i/N>',
      'compute only shard i of N of the grid into <out>/shards/<i>-of-<N>/ (no report); ' + 'join the shards with `supermarket merge`',
      parseShardOption,
    );
}

/**
 * --json and --no-progress: the output options of every command that writes the report of a grid (compare, run,
 * conjecture, merge). `json` is the help line of --json (what the summary holds).
 */
export function addSummaryOptions(cmd: Command, json = 'print a JSON summary on stdout'): Command {
  return cmd.option('--json', json).option('--no-progress', 'no progress output on stderr');
}

/** --fresh, then `addSummaryOptions`: the options every command with a cell store (compare, run, conjecture) shares. */
export function addStoreOptions(cmd: Command, fresh = 'ignore stored cells and recompute everything', json?: string): Command {
  return addMixedCodeOption(addSummaryOptions(cmd.option('--fresh', fresh), json));
}

/**
 * --allow-mixed-code: stored cells and shards computed by other code (runs/codeIdentity.ts) are used instead of refused;
 * the report's metadata names the other codes. Set for the process before the command's action runs.
 */
export function addMixedCodeOption(cmd: Command): Command {
  return cmd
    .option('--allow-mixed-code', 'use stored cells and shards computed by other code (another commit or build); named in the report')
    .hook('preAction', (_self, action) => allowMixedCode(Boolean(action.opts().allowMixedCode)));
}

/**
 * The arguments that rerun `cmd` as the user gave it, less --out, --shard, --threads, --fresh, --json and
 * --progress: options set on the command line with the text the user gave them (`recordOptionText`; else formatted
 * back from their parsed values, lists joined by commas), and the operands as absolute paths (they are files).
 */
export function rerunArgv(cmd: Command): string[] {
  const argv: string[] = [cmd.name()];
  const opts = cmd.opts() as Record<string, unknown>;
  for (const option of cmd.options) {
    const key = option.attributeName();
    if (NOT_RERUN.has(key) || cmd.getOptionValueSource(key) !== 'cli') continue;
    const value = opts[key];
    const long = option.long!;
    if (option.negate) {
      if (value === false) argv.push(long);
      continue;
    }
    if (!option.required && !option.optional) {
      if (value === true) argv.push(long);
      continue;
    }
    const texts = optionText.get(cmd)?.get(key);
    if (texts !== undefined && texts.length > 0) for (const text of texts) argv.push(long, text);
    else if (value !== undefined) argv.push(long, Array.isArray(value) ? value.map(String).join(',') : String(value));
  }
  argv.push(...cmd.args.map((a) => path.resolve(a)));
  return argv;
}

/** A cell of a grid for a shard session: key, estimated cost and the settings its stored value is checked by. */
export interface GridCell {
  readonly key: string;
  readonly cost: number;
  readonly settings: unknown;
}

/** What a grid command does differently when it runs one shard. */
export interface ShardSession {
  readonly spec: ShardSpec;
  /** The shard folder (`<out>/shards/<i>-of-<N>`) and its cell store. */
  readonly dir: string;
  readonly cellsDir: string;
  /** Keys of this shard. */
  readonly mine: ReadonlySet<string>;
  /** Rewrites the manifest, marking the shard finished. */
  finish(): void;
  /**
   * What the shard did: its cells, how many were computed or resumed, and how to merge (`printShardSummary`). With
   * `trajectories` (compare: the figure's transients from empty share the store, keys "trajectory-…") those keys are
   * counted apart, as the resume and interrupt messages count them: `computed` and `resumed` are then of cells only.
   */
  summary(computed: number, resumed: number, trajectories?: TrajectoryCount): ShardSummary;
}

/** How to tell a grid's trajectory keys from its cells, and how many trajectories the shard computed and resumed. */
export interface TrajectoryCount {
  readonly isTrajectory: (key: string) => boolean;
  readonly computed: number;
  readonly resumed: number;
}

/** The summary a shard run prints: one line, or with --json one object. */
export interface ShardSummary {
  readonly shard: ShardSpec;
  readonly cells: number;
  readonly gridCells: number;
  readonly computed: number;
  readonly resumed: number;
  readonly dir: string;
  /** The command that joins the shards once every one is done. */
  readonly merge: string;
  /** Compare's transients from empty, counted apart from the cells: this shard's, the grid's, computed and resumed. */
  readonly trajectories?: { readonly count: number; readonly gridCount: number; readonly computed: number; readonly resumed: number };
}

/** Prints a shard's summary on stdout: one line, or with `json` one JSON object (`--json` of compare, run, conjecture). */
export function printShardSummary(s: ShardSummary, json: boolean | undefined): void {
  if (json) return printJson(s);
  const t = s.trajectories;
  const trajectories =
    t === undefined || t.gridCount === 0
      ? ''
      : ` and ${t.count} of ${t.gridCount} ${t.gridCount === 1 ? 'trajectory (transient from empty)' : 'trajectories (transients from empty)'} (${t.computed} computed, ${t.resumed} resumed)`;
  process.stdout.write(
    `shard ${s.shard.index}/${s.shard.count}: ${s.cells} of ${s.gridCells} cells (${s.computed} computed, ${s.resumed} resumed)${trajectories} ` +
      `in ${s.dir}; when every shard is done: ${s.merge}\n`,
  );
}

/**
 * Starts a shard of `grid`: writes its manifest at once (so merge can name what a failed shard lost) and returns
 * the shard's keys and folders. @param out the report folder of the whole run.
 */
export function startShard(spec: ShardSpec, cmd: Command, out: string, grid: readonly GridCell[]): ShardSession {
  if (grid.length === 0) throw new SupermarketError('the grid is empty: nothing to shard');
  const dir = shardDir(path.resolve(out), spec);
  const cells = Object.fromEntries(grid.map((c) => [c.key, settingsHash(c.settings)]));
  const assignment = Object.fromEntries(assignShards(grid, spec.count));
  const mine = grid.filter((c) => assignment[c.key] === spec.index).map((c) => c.key);
  // the operands' contents, so merge knows shards that read one file at other paths for one run (merge.ts `sameRun`)
  const inputs = cmd.args.map((a) => contentHash(path.resolve(a)));
  const argv = rerunArgv(cmd).slice(1);
  const base = { command: cmd.name(), argv, inputs, shard: spec, cells, mine, assignment, report: path.resolve(out) };
  writeShardManifest(dir, base);
  return {
    spec,
    dir,
    cellsDir: path.join(dir, 'cells'),
    mine: new Set(mine),
    finish: () => {
      writeShardManifest(dir, { ...base, finishedAt: new Date().toISOString() });
    },
    summary: (computed, resumed, trajectories) => {
      const merge = `supermarket merge ${path.resolve(out)}`;
      if (trajectories === undefined) return { shard: spec, cells: mine.length, gridCells: grid.length, computed, resumed, dir, merge };
      const isT = trajectories.isTrajectory;
      const count = mine.filter(isT).length;
      const gridCount = grid.filter((c) => isT(c.key)).length;
      return {
        shard: spec,
        cells: mine.length - count,
        gridCells: grid.length - gridCount,
        computed: computed - trajectories.computed,
        resumed: resumed - trajectories.resumed,
        dir,
        merge,
        trajectories: { count, gridCount, computed: trajectories.computed, resumed: trajectories.resumed },
      };
    },
  };
}
