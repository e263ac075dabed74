/**
 * Option parsers for commander: strict numbers (no silent NaN), integer lists, and the shared model options.
 * A parser throws commander's InvalidArgumentError, which commander prints as one line and exits non-zero.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { InvalidModelError, PathError, SupermarketError } from '../errors.ts';
import { unwritableReason } from '../io/index.ts';
import { LOCK_FILE } from '../runs/lock.ts';
import {
  BATCH_DISPATCHES,
  BATCH_DISPATCH_TABLE,
  REDUNDANCIES,
  REDUNDANCY_TABLE,
  describeRows,
  REPLICA_LAWS,
  REPLICA_TABLE,
  DISCIPLINES,
  SAMPLINGS,
  SERVER_SAMPLINGS,
  SELECTIONS,
  dHelp,
  disciplineHelp,
  idleSettings,
  parseModel,
  selectionHelp,
  type Discipline,
  type Selection,
  type SupermarketModel,
  type UntypedModelInput,
} from '../model/index.ts';
import { closestNames } from '../model/schema.ts';
import { action } from './errors.ts';
import { requireRedundancyStable } from '../meanfield/redundancy.ts';
import { DEFAULT_START, FIXED_POINT_FLOOR_TAUS, START_CHOICES } from '../meanfield/warmup.ts';

/** Decimal numbers only (1, -0.5, 1e6, .5): no hex/binary/octal forms, no Infinity or NaN. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function parseNumber(value: string): number {
  const x = Number(value);
  if (!DECIMAL.test(value.trim()) || !Number.isFinite(x)) throw new InvalidArgumentError(`not a number: ${JSON.stringify(value)}`);
  return x;
}

/**
 * `base(value)` if `ok` holds for it; else InvalidArgumentError "expected <expected>, got <value>".
 * The one form of the numeric option parsers below.
 */
function parseWhere(value: string, ok: (x: number) => boolean, expected: string, base: (value: string) => number = parseNumber): number {
  const x = base(value);
  if (!ok(x)) throw new InvalidArgumentError(`expected ${expected}, got ${JSON.stringify(value)}`);
  return x;
}

/**
 * The integer a decimal text denotes, exactly, or undefined if it denotes no integer: "1e6" → 1000000n,
 * "4503599627370496.5" → undefined (though Number() rounds it to an integer). Used so that an integer option is read as
 * typed, not as the nearest double.
 */
function exactInteger(text: string): bigint | undefined {
  const m = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const [, sign, whole, fraction, exponent] = m;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let shift = Number(exponent ?? 0) - fraction.length;
  if (digits === '') return 0n;
  const zeros = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - zeros);
  shift += zeros;
  if (shift < 0) return undefined;
  if (digits.length + shift > 400) return undefined; // beyond any finite double: parseNumber refused it already
  const value = BigInt(digits) * 10n ** BigInt(shift);
  return sign === '-' ? -value : value;
}

/**
 * An integer in [min, max] read exactly as typed (`exactInteger`); max at most 2^53 − 1, the largest integer a double
 * holds exactly (a larger one would be used rounded). InvalidArgumentError "expected an integer ≥ min, got …" (no bound
 * named when min is the default, −(2^53 − 1)) or "expected an integer ≤ max …". The one parser of every integer option
 * and list, so a fraction is refused in one line with exit 2 wherever it is typed.
 */
function parseIntegerIn(value: string, min = -Number.MAX_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER, about = ''): number {
  const x = parseNumber(value);
  const exact = exactInteger(value);
  if (exact === undefined || exact < BigInt(min))
    throw new InvalidArgumentError(
      `expected an integer${min === -Number.MAX_SAFE_INTEGER ? '' : ` ≥ ${min}`}${about}, got ${JSON.stringify(value)}`,
    );
  if (exact > BigInt(max))
    throw new InvalidArgumentError(
      `expected an integer ≤ ${max === Number.MAX_SAFE_INTEGER ? '2^53 − 1 = 9007199254740991 (larger integers are not exact in a double)' : max}, got ${JSON.stringify(value)}`,
    );
  return x;
}

/** Integer ≥ 1; accepts scientific notation such as 1e6. */
export function parsePositiveInteger(value: string): number {
  return parseIntegerIn(value, 1);
}

/** The most worker threads one process starts (each holds a V8 heap of ~40 MB); beyond one machine, use shards. */
export const MAX_THREADS = 256;

/**
 * `--threads k`: an integer in [1, MAX_THREADS]. A larger k would start one worker per task (a 1000-cell grid: 1000
 * heaps) rather than share the cores, so it is refused in one line naming shards and Slurm for more machines. More
 * threads than the machine's cores run, and say so in one line on stderr (`threadsNote`): one rule for every command
 * with --threads (compare, run, conjecture, table, simulate, model, merge).
 */
export function parseThreads(value: string): number {
  const k = parseIntegerIn(value, 1);
  if (k > MAX_THREADS)
    throw new InvalidArgumentError(
      `expected at most ${MAX_THREADS} worker threads, got ${JSON.stringify(value)} (a worker per core is the default; beyond one machine use --shard i/N or supermarket slurm)`,
    );
  const note = threadsNote(k, os.availableParallelism());
  if (note !== undefined) process.stderr.write(`supermarket: note: ${note}\n`);
  return k;
}

/**
 * The line `--threads k` on a machine of `cores` cores gets, or undefined when k ≤ cores: the workers share the cores
 * (the numbers do not depend on the thread count: a task's value depends on its seed and key only), so the run is no
 * faster than with `cores` threads and each worker holds a heap of its own.
 * @example threadsNote(3, 2) // '3 threads on 2 cores: …'
 */
export function threadsNote(k: number, cores: number): string | undefined {
  if (k <= cores) return undefined;
  return `${k} threads on ${cores} core${cores === 1 ? '' : 's'}: the threads share the cores, so the run is no faster than with ${cores} (the numbers do not depend on --threads)`;
}

/**
 * A master seed: an integer in [0, 2^53 − 1] (`seedOption`'s safe integers), read exactly as typed, so
 * 9007199254740993 is refused rather than used as 9007199254740992. (One argument: commander passes the previous value
 * second.)
 */
export function parseSeed(value: string): number {
  return parseIntegerIn(value, 0);
}

/** A seed of the learned predictors (`learnPredictions`): an integer in [0, 2^31 − 1], read exactly as typed. */
export function parseSeed32(value: string): number {
  return parseIntegerIn(value, 0, 2 ** 31 - 1);
}

/** Replications: integer ≥ 2 (a Student-t CI needs two). */
export function parseReplications(value: string): number {
  return parseIntegerIn(value, 2, undefined, ' (a confidence interval needs two replications)');
}

/** Batches of a batch-means run: integer ≥ 2 (a Student-t CI over batch means needs two). */
export function parseBatches(value: string): number {
  return parseIntegerIn(value, 2, undefined, ' (a confidence interval needs two batches)');
}

/** Measured jobs per replication: integer in [1, 1e12]. */
export function parseJobs(value: string): number {
  return parseWhere(value, (x) => x <= 1e12, 'at most 1e12 jobs per replication', parsePositiveInteger);
}

/** Highest recorded tail level: integer in [1, 10000]. */
export function parseMaxLevel(value: string): number {
  return parseWhere(value, (x) => x <= 10_000, 'a level ≤ 10000', parsePositiveInteger);
}

/**
 * What a report folder of ours holds once any command has written to it: a report (metadata.json, results.json), a
 * cell store (cells/), shards (shards/, or a shard folder's shard.json) or a Slurm array (slurm/).
 */
const REPORT_MARKS = ['metadata.json', 'results.json', 'cells', 'shards', 'shard.json', 'slurm'];

/** True when `file` is a JSON file written by this tool: it names supermarket-lab, a supermarket command or our shard format. */
function writtenByUs(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    const text = readFileSync(file, 'utf8');
    JSON.parse(text);
    return /"supermarket-lab"|"command":\s*"supermarket |"format":\s*"supermarket-shard\//.test(text);
  } catch {
    return false;
  }
}

/** True when `dir/name` is one of our marks: a metadata/results/shard file we wrote, or a folder holding our files. */
function isReportMark(dir: string, name: string): boolean {
  const p = path.join(dir, name);
  if (name === 'metadata.json' || name === 'results.json' || name === 'shard.json') return writtenByUs(p);
  if (!statSync(p).isDirectory()) return false;
  const inside = readdirSync(p);
  if (name === 'cells') {
    // cell files: <key>-<hash>.json holding {"key", "settings", "value"}; an empty store is ours too (a run stopped early)
    if (inside.length === 0) return true;
    return inside.every((f) => f.endsWith('.json') || f.endsWith('.tmp')) && inside.some((f) => isCellFile(path.join(p, f)));
  }
  if (name === 'shards') return inside.some((f) => writtenByUs(path.join(p, f, 'shard.json')));
  if (name === 'slurm') return inside.some((f) => f.endsWith('.sbatch') && /supermarket/.test(readFileSync(path.join(p, f), 'utf8')));
  return false;
}

function isCellFile(file: string): boolean {
  try {
    const x = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return typeof x === 'object' && x !== null && typeof x.key === 'string' && typeof x.settings === 'string' && 'value' in x;
  } catch {
    return false;
  }
}

/**
 * Why `dir` must not be written as a report folder, if so: it exists, is not empty and holds none of `REPORT_MARKS`
 * as written by us (a metadata.json or results.json naming supermarket-lab, a cells/ folder of our cell files, shards or
 * a Slurm array of ours), so it is not a report of ours, and writing the report would replace its index.html and delete
 * its figures/. A user's folder that merely has a file called metadata.json or a cells/ subfolder is refused too.
 */
export function foreignFolderReason(dir: string): string | undefined {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const names = readdirSync(dir).filter((n) => n !== LOCK_FILE); // a run's lock alone: its folder, refused by the lock
  if (names.length === 0 || names.some((n) => REPORT_MARKS.includes(n) && isReportMark(dir, n))) return undefined;
  return `it is a non-empty folder that is not a supermarket report (none of ${REPORT_MARKS.join(', ')} written by supermarket); writing the report would replace or delete its files: give a new or empty folder`;
}

/**
 * An output folder: non-empty, not inside a pseudo file system (/proc, /sys, /dev), writable as far as can be seen
 * before the command computes anything (`unwritableReason`: not a file, no file among its parents, permission), and
 * either new, empty or a report folder of ours (`foreignFolderReason`): a user's own folder is refused, not overwritten.
 */
export function parseOutDir(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a folder path, got an empty string');
  const abs = path.resolve(value);
  if (/^\/(proc|sys|dev)(\/|$)/.test(abs))
    throw new InvalidArgumentError(`cannot write a report under ${abs.split('/').slice(0, 2).join('/')}`);
  const why = unwritableReason(value, 'folder') ?? foreignFolderReason(abs);
  if (why !== undefined) throw new InvalidArgumentError(`cannot write ${value}: ${why}`);
  return value;
}

/**
 * The report folder of a command: `given` (the --out value, checked by `parseOutDir` when it was read) or the default
 * `fallback` (e.g. reports/<name>), checked now by the same rules, so a user's own folder that happens to have the
 * default's name is refused too, not overwritten.
 * @throws {InvalidArgumentError} "cannot write the default report folder …: <why>; give --out <dir>" (exit 2, bad input, as --out).
 */
export function reportFolder(given: string | undefined, fallback: string): string {
  if (given !== undefined) return given;
  try {
    return parseOutDir(fallback);
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    throw new InvalidArgumentError(
      `${error.message.replace(/^cannot write /, 'cannot write the default report folder ')}; give another folder with --out <dir>`,
    );
  }
}

/**
 * An output file (e.g. `--per-job <file.csv>`, `table --csv <file>`): non-empty, writable as far as can be seen before
 * computing (`unwritableReason`), and in a folder that exists: a file option never creates folders (a typo in the path
 * would otherwise leave new folders behind, `/nonexistent` when run as root); report folders (`--out <dir>`) are created.
 */
export function parseOutFile(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a file path, got an empty string');
  const why = unwritableReason(value, 'file');
  if (why !== undefined) throw new InvalidArgumentError(`cannot write ${value}: ${why}`);
  const folder = path.dirname(value);
  if (!existsSync(path.resolve(folder)))
    throw new InvalidArgumentError(`cannot write ${value}: the folder ${folder} does not exist (create it first)`);
  return value;
}

/** `--out <dir>`, the report folder of the commands that write a report (checked by `parseOutDir`). */
export function outOption(whenOmitted: string): Option {
  return new Option('--out <dir>', `report folder (default: ${whenOmitted})`).argParser(parseOutDir);
}

/**
 * `--start` of every command that simulates (simulate, compare, run, table, conjecture): where each replication starts,
 * resolved by the one warm-up rule (`simulationWarmup`, theory.md §8 "Start"), which also gives the warm-up for that start
 * at n. One default for all, `DEFAULT_START` ('auto'): simulate's was 'empty' (150.3 time units of warm-up against
 * compare's 18.5 at n = 1000).
 * @param what the replications it starts, in words. @param note a sentence the command adds (simulate: its records).
 */
export function startOption(what: string, note = ''): Option {
  return new Option(
    '--start <start>',
    `where ${what} starts: auto (the fixed point where the model has one as a start state, SQ(d) models, and the rule reads a ` +
      'warm-up from it at that n; else empty), empty, or fixed-point (round(n·s_i*) servers hold ≥ i jobs, SQ(d) models only). ' +
      `The warm-up is the one rule read from that start at each n, much shorter at large n (theory.md §8 "Start"); every result names its start.${note}`,
  )
    .choices([...START_CHOICES])
    .default(DEFAULT_START);
}

/**
 * Help of `--warmup-tolerance` ε: the one warm-up rule (`simulationWarmup`) read from each start, with its floor
 * (3τ from empty, `FIXED_POINT_FLOOR_TAUS`·τ from the fixed point); `emptyExtra` follows the empty rule's text.
 */
export function warmupToleranceHelp(emptyExtra = ''): string {
  return (
    `tolerance ε of the warm-up rule (theory.md §8 "Start"): from empty, 2 × the time for the SQ(d) ODE from empty to come ` +
    `within ε of its fixed point (≥ 3τ)${emptyExtra}; from the fixed point, 2 × the time for the refined transient ` +
    `V(t)/n to come within ε of V/n (≥ ${FIXED_POINT_FLOOR_TAUS}τ)`
  );
}

export function parseNonNegativeInteger(value: string): number {
  return parseIntegerIn(value, 0);
}

/** A number ≥ 0 (e.g. a warm-up time, where 0 means none). */
export function parseNonNegative(value: string): number {
  return parseWhere(value, (x) => x >= 0, 'a number ≥ 0');
}

export function parsePositive(value: string): number {
  return parseWhere(value, (x) => x > 0, 'a number > 0');
}

/**
 * `--precision rel`: a relative half-width in (0, 1). At rel ≥ 1 the target is a CI as wide as the mean itself (2 is
 * ± 200 %), met by the first replications whatever they show: a typo for a per cent (2 meant 2 %), not a precision.
 */
export function parseRelativePrecision(value: string): number {
  return parseWhere(value, (x) => x > 0 && x < 1, 'a relative half-width in (0, 1), e.g. 0.01 for ± 1 %');
}

/**
 * Comma-separated numbers in the order typed, repeats kept: a vector such as ode's --from s_1,s_2,… (0.5,0.5,0.2 is
 * three tail fractions). Lists of values to sweep take `parseNumberList`, which refuses a repeat.
 */
export function parseNumberSequence(value: string): number[] {
  const parts = value.split(',').map((s) => s.trim());
  if (parts.some((p) => p === ''))
    throw new InvalidArgumentError(`expected a comma-separated list of numbers, got ${JSON.stringify(value)}`);
  return parts.map(parseNumber);
}

/** The list itself, or a refusal naming the first value given twice (a sweep would run, print and plot it twice). */
function distinctValues(values: number[], value: string): number[] {
  const repeated = values.find((x, i) => values.indexOf(x) !== i);
  if (repeated !== undefined)
    throw new InvalidArgumentError(`${repeated} is given twice in ${JSON.stringify(value)}: give each value once`);
  return values;
}

/** Comma-separated list of distinct numbers, e.g. "0.7,0.9,0.95" (the values of a sweep: a repeat is refused). */
export function parseNumberList(value: string): number[] {
  return distinctValues(parseNumberSequence(value), value);
}

/** Comma-separated probabilities each in (0, 1), increasing order kept as typed, e.g. "0.5,0.95,0.99" (quantile levels). */
export function parseProbabilityList(value: string): number[] {
  const ps = parseNumberList(value);
  const bad = ps.find((p) => !(p > 0 && p < 1));
  if (bad !== undefined)
    throw new InvalidArgumentError(`expected probabilities in (0, 1), e.g. 0.5,0.95,0.99, got ${bad} in ${JSON.stringify(value)}`);
  return ps;
}

/**
 * Comma-separated list of distinct integers, e.g. "10,100,1e3", each read by `parseIntegerIn` as the single integer
 * options are; a repeat (10,1e1) is refused.
 */
export function parseIntegerList(value: string): number[] {
  parseNumberSequence(value); // the list's own form: no empty parts
  const values = value.split(',').map((part) => {
    try {
      return parseIntegerIn(part);
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      throw new InvalidArgumentError(`${error.message} in ${JSON.stringify(value)}`);
    }
  });
  return distinctValues(values, value);
}

/**
 * Adds the model options every command shares: --lambda, --d (when `single`), --selection, --discipline, --sampling,
 * --memory; unless `laws` is false, also --speeds, --fractions, --server-sampling, --service, --prediction and the
 * batch, redundancy and arrival options (a trace replay takes sizes and arrivals from the trace, its own --prediction,
 * and serves the trace on identical servers: a --speeds it would not read is then an unknown option, not dropped).
 */
export function addModelOptions(cmd: Command, single = true, laws = true): Command {
  if (single) {
    cmd.requiredOption(
      '--lambda <λ>',
      'arrival rate per server λ (jobs per server per time unit); the load ρ = λ·E[S] (λ·E[S]/Σ f·speed with --speeds) must be < 1 for a fixed point or a stationary run (ode integrates any λ)',
      parseNumber,
    );
    cmd.requiredOption('--d <d>', dHelp(), parsePositiveInteger);
  }
  cmd.addOption(new Option('--selection <rule>', selectionHelp()).choices(SELECTIONS).default('jsq'));
  cmd.addOption(new Option('--discipline <name>', disciplineHelp()).choices(DISCIPLINES).default('fifo'));
  cmd.addOption(
    new Option(
      '--sampling <how>',
      'sample the d servers with or without replacement (a batch, --batch K > 1, always draws d distinct servers)',
    )
      .choices(SAMPLINGS)
      .default('with-replacement'),
  );
  cmd.option(
    '--memory <scheme>',
    'dispatcher memory of idle servers (theory.md §12): none | ip (interrupted probing) | cp (continuous probing) | ' +
      'bcp:A (bounded CP, A ids) | ism:A (idle servers message the dispatcher, A ids); a job goes to a remembered idle server, else by the selection rule',
    'none',
  );
  if (!laws) return cmd;
  cmd.option(
    '--speeds <list>',
    'heterogeneous servers (theory.md §13): class speeds, comma-separated (e.g. 1,2); a job of size S takes S/speed; ' +
      'load ρ = λ·E[S]/Σ f·speed',
  );
  cmd.option('--fractions <list>', 'fraction of the servers in each speed class, comma-separated, summing to 1 (default: equal)');
  cmd.addOption(
    new Option('--server-sampling <how>', 'with --speeds: sample the d servers uniformly over servers or in proportion to speed').choices(
      SERVER_SAMPLINGS,
    ),
  );
  cmd.option('--service <law>', SERVICE_LAW_HELP, 'exp');
  cmd.option(
    '--prediction <model>',
    'size prediction seen by LPW and the predicted disciplines: exact | exp | uniform:ALPHA | ' + 'lognormal:SIGMA[:median|mean]',
    'exact',
  );
  cmd.option(
    '--batch <K|law>',
    'jobs per arrival epoch: K ≥ 1, or a size law X (with --batch-dispatch whole) geom:MEAN | pmf:P1,P2,… (P(X = k)) ' +
      '(theory.md §15): epochs at rate λn/E[X], λ stays the job rate',
    '1',
  );
  cmd.addOption(
    new Option(
      '--batch-dispatch <how>',
      `how a batch of K > 1 is placed: ${Object.entries(BATCH_DISPATCH_TABLE)
        .map(([k, r]) => `${k} = ${r.description}`)
        .join('; ')}`,
    )
      .choices(BATCH_DISPATCHES)
      .default('spread'),
  );
  cmd.addOption(
    new Option('--redundancy <mode>', `redundancy-d (theory.md §16), replacing --selection: ${describeRows(REDUNDANCY_TABLE)}`)
      .choices(REDUNDANCIES)
      .default('none'),
  );
  cmd.addOption(
    new Option('--replicas <law>', `with --redundancy cancel-on-complete, the replicas' sizes: ${describeRows(REPLICA_TABLE)}`).choices(
      REPLICA_LAWS,
    ),
  );
  cmd.option(
    '--arrivals <process>',
    'arrival process of the dispatcher, mean rate λn (theory.md §14): exp (Poisson) | det | erlang:K | hyperexp:SCV (renewal, ' +
      'mean gap 1/(λn)) | mmpp:R1,R2,Q12,Q21 (two-state MMPP: relative rates R1, R2 normalised to mean λ, phase switching rates Q12, Q21 per time unit)',
    'exp',
  );
  return cmd;
}

/**
 * The help of `--service <law>`: every law `serviceFromFlag` accepts, for each command that takes one (the model
 * commands through `addModelOptions`, mg1), so no command lists fewer than it accepts.
 */
export const SERVICE_LAW_HELP =
  'service-time law, mean 1 unless @MEAN is appended: exp | det | erlang:K | hyperexp:SCV | weibull:SHAPE | ' +
  'lognormal:SIGMA | bpareto:ALPHA:RATIO | pareto:ALPHA | empirical:FILE (one size per line, rescaled to mean 1; empirical:FILE@raw keeps them) ' +
  '(e.g. weibull:0.5, hyperexp:4@2)';

/**
 * The known long options closest to a mistyped one (`closestNames` on the names without `--`).
 * @example suggestOptions('--lamda', ['--lambda', '--d']) // ['--lambda']
 */
export function suggestOptions(flag: string, known: readonly string[]): string[] {
  const strip = (f: string) => f.replace(/^--/, '');
  const near = new Set(closestNames(strip(flag), known.map(strip)));
  return known.filter((f) => near.has(strip(f)));
}

/**
 * The first `--option` in a subcommand's raw arguments that the command does not know, as one message with a
 * suggestion ("unknown option '--lamda' (did you mean --lambda?)"), or undefined if all are known. Commander checks
 * required options before unknown ones, so without this `--lamda 0.9` is reported as a missing --lambda.
 * Wiring (program.ts): `program.hook('preSubcommand', (p, sub) => { const m = unknownOptionMessage(sub, p.args.slice(1));
 * if (m) sub.error(`error: ${m}`, { code: 'commander.unknownOption' }); })`.
 * @param cmd the subcommand (its options, and its parents', e.g. --help, --version). @param args its raw arguments.
 */
export function unknownOptionMessage(cmd: Command, args: readonly string[]): string | undefined {
  const known = new Set<string>(['--help']);
  for (let c: Command | null = cmd; c; c = c.parent) {
    for (const option of c.options) {
      if (option.long) known.add(option.long);
      if (option.long?.startsWith('--no-')) known.add(`--${option.long.slice(5)}`);
    }
  }
  for (const arg of args) {
    if (arg === '--') break; // what follows is operands
    if (!arg.startsWith('--')) continue;
    const flag = arg.split('=')[0];
    if (known.has(flag)) continue;
    const suggestions = suggestOptions(flag, [...known]);
    return `unknown option '${flag}'${suggestions.length ? ` (did you mean ${suggestions.join(' or ')}?)` : ''}`;
  }
  return undefined;
}

/** The flags of `addModelOptions` (single model). */
export interface ModelFlags {
  lambda: number;
  d: number;
  selection: string;
  discipline: string;
  sampling: string;
  memory?: string;
  speeds?: string;
  fractions?: string;
  serverSampling?: string;
  service: string;
  prediction: string;
  arrivals?: string;
  batch?: string;
  batchDispatch?: string;
  redundancy?: string;
  replicas?: string;
}

/**
 * Reads the sizes of `empirical:FILE`: one number ≥ 0 per line; blank lines and lines starting with '#' are skipped.
 * @throws {InvalidModelError} naming the file and, for a bad value, its line: unreadable file, a line that is not a
 *   decimal number, a negative size, no sizes at all.
 */
export function readSizesFile(file: string): number[] {
  let text: string;
  inFile(`service empirical:${file}`, file);
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PathError(
      `service empirical:${file}: cannot read the file (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))})`,
    );
  }
  const sizes: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const x = Number(line);
    if (!DECIMAL.test(line) || !Number.isFinite(x))
      throw new InvalidModelError(`service empirical:${file}: line ${i + 1} is not a number: ${JSON.stringify(line.slice(0, 40))}`);
    if (x < 0) throw new InvalidModelError(`service empirical:${file}: line ${i + 1}: sizes must be ≥ 0, got ${x}`);
    sizes.push(x);
  });
  if (sizes.length === 0) throw new InvalidModelError(`service empirical:${file}: the file holds no sizes (one number per line)`);
  return sizes;
}

/**
 * An input file argument (a trace, a model, experiment or conjecture file): a folder is refused as such (reading it gave
 * "cannot read : EISDIR", or for a JSON file "cannot read model file DIR: EISDIR: illegal operation on a directory").
 */
export function parseInFile(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a file path, got an empty string');
  if (existsSync(value) && statSync(value).isDirectory()) throw new InvalidArgumentError(`${value} is a folder, not a file`);
  return value;
}

/**
 * `parseInFile` for a file named inside an option's value (`--service empirical:FILE`, `--init FILE`), read after
 * parsing: the same refusal of a folder, prefixed with the option. @throws {InvalidArgumentError} "<what>: <file> is a
 * folder, not a file" (exit 2, as commander's own refusal of a folder operand).
 */
export function inFile(what: string, file: string): string {
  try {
    return parseInFile(file);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new InvalidArgumentError(`${what}: ${error.message}`);
    throw error;
  }
}

/**
 * Refuses a loaded trace with no jobs left (an empty file, or all filtered or skipped).
 * @throws {InvalidModelError} "<file>: no jobs left [after the status filter …] (k records skipped)".
 */
export function checkTraceHasJobs(
  file: string,
  trace: { jobs: { length: number }; skipped: { count: number } },
  status?: readonly number[],
): void {
  if (trace.jobs.length === 0)
    throw new InvalidModelError(
      `${file}: no jobs left${status ? ` after the status filter ${status.join(',')}` : ''} (${trace.skipped.count} records skipped)`,
    );
}

/**
 * The `--service` value as `parseModel` takes it: the short form unchanged, or for `empirical:FILE[@raw|@MEAN]` the
 * object `{ kind: 'empirical', values, source: FILE, mean }`, the file's sizes rescaled to mean 1 (or MEAN; `@raw`:
 * their own mean, so they are used as written).
 */
export function serviceFromFlag(text: string): string | Record<string, unknown> {
  const m = /^empirical:(.+?)(?:@(raw|[^@/\\]*))?$/.exec(text.trim());
  if (!m) {
    if (/^empirical\b/i.test(text.trim()))
      throw new InvalidModelError(`service ${JSON.stringify(text)}: expected empirical:FILE, empirical:FILE@raw or empirical:FILE@MEAN`);
    return text;
  }
  const [, file, suffix] = m;
  const values = readSizesFile(file);
  if (suffix === 'raw') {
    const raw = values.reduce((a, b) => a + b, 0) / values.length;
    return { kind: 'empirical', values, source: file, mean: raw };
  }
  return { kind: 'empirical', values, source: file, ...(suffix !== undefined ? { mean: suffix } : {}) };
}

/**
 * The "Examples:" section a command's help ends with (for `cmd.addHelpText('after', …)`): one command line per
 * entry, indented by two spaces; `note`, if given, follows after a blank line.
 */
export function examples(lines: readonly string[], note?: string): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}${note === undefined ? '' : `\n\n${note}`}`;
}

/**
 * A commander action for a command with the `addModelOptions` flags: `run` gets the model of the flags (validated
 * once by `modelFromFlags`) and the flags; errors become one line and an exit code (`action`).
 */
export function modelAction<O extends ModelFlags>(
  run: (model: SupermarketModel, o: O, cmd: Command) => void | Promise<void>,
): (o: O, cmd: Command) => Promise<void> {
  return action((o: O, cmd: Command) => {
    const model = modelFromFlags(o);
    refuseIdleSettings(cmd, model);
    requireRedundancyStable(model);
    return run(model, o, cmd);
  });
}

/**
 * Refuses a policy setting given on the command line that has no effect under the policy (`idleSettings`, from the
 * policy tables: `--d` other than 1 with a rule that samples no servers, `--prediction` with a policy that reads
 * none, `--sampling` where fewer than two servers are sampled), so no setting is dropped silently. Each `d` of `ds`
 * (a sweep's list) is checked.
 * @throws {SupermarketError} one line: the flag, why it has no effect, what to do.
 */
export function refuseIdleSettings(
  cmd: Command,
  policy: { readonly selection: Selection; readonly discipline: Discipline; readonly d?: number },
  ds: readonly number[] = policy.d === undefined ? [] : [policy.d],
): void {
  const given = (flag: string) => {
    const option = cmd.options.find((x) => x.long === flag);
    return option !== undefined && cmd.getOptionValueSource(option.attributeName()) === 'cli';
  };
  const settings = (['d', 'prediction', 'sampling'] as const).filter((s) => given(`--${s}`));
  const redundancy: unknown = cmd.getOptionValue('redundancy');
  if (given('--selection') && redundancy !== undefined && redundancy !== 'none')
    throw new SupermarketError(
      `--selection ${String(cmd.getOptionValue('selection'))} has no effect with --redundancy ${String(redundancy)}: each job has a replica on each of the d sampled servers; drop --selection`,
    );
  // RED(1): one replica per job is no redundancy (the job joins one random server, as LWL(1) and JSQ(1) do)
  if (redundancy !== undefined && redundancy !== 'none' && ds.includes(1))
    throw new SupermarketError(
      `--redundancy ${String(redundancy)} has no effect with --d 1: one replica per job is no redundancy (the job joins one random server); give --d ≥ 2 or drop --redundancy`,
    );
  // the model defaults the dispatch rule to spread, so only the flag tells that it was set for single jobs
  const batch: unknown = cmd.getOptionValue('batch');
  if (given('--batch-dispatch') && (batch === undefined || Number(batch) === 1))
    throw new SupermarketError(
      `--batch-dispatch ${String(cmd.getOptionValue('batchDispatch'))} has no effect with batch size 1 (jobs arrive one at a time): drop it or set --batch K ≥ 2`,
    );
  // a batch samples d distinct servers (SQ(d,K), LL(d,K), BSQ; sim/batch.ts), whatever the sampling says
  if (given('--sampling') && cmd.getOptionValue('sampling') === 'with-replacement' && batch !== undefined && String(batch) !== '1')
    throw new SupermarketError(
      `--sampling with-replacement has no effect with --batch ${String(batch)}: a batch samples d distinct servers (SQ(d,K), BSQ; theory.md §15); drop --sampling`,
    );
  for (const d of ds.length === 0 ? [1] : ds) {
    const [idle] = idleSettings({ selection: policy.selection, discipline: policy.discipline, d }, settings);
    if (!idle) continue;
    const value = idle.setting === 'd' ? d : cmd.getOptionValue(idle.setting);
    const fix = idle.setting === 'd' ? 'give --d 1' : 'drop it';
    throw new SupermarketError(`--${idle.setting} ${value} has no effect: ${idle.reason}; ${fix} or choose a policy that uses it`);
  }
}

/**
 * Refuses options given on the command line that act only together with another one, so no setting a user gave is
 * dropped silently. Each rule: [the option's long flag, whether its companion is present, the companion in words,
 * optionally what to do instead of the default "drop it or add <companion>"].
 * @throws {SupermarketError} one line naming the option and its companion (exit 2 in the CLI).
 */
export function refuseIdleOptions(
  cmd: Command,
  rules: readonly (readonly [flag: string, active: boolean, needs: string, fix?: string])[],
): void {
  for (const [flag, active, needs, fix] of rules) {
    const option = cmd.options.find((x) => x.long === flag);
    if (!active && option && cmd.getOptionValueSource(option.attributeName()) === 'cli') {
      throw new SupermarketError(`${flag} acts only with ${needs}: ${fix ?? `drop it or add ${needs}`}`);
    }
  }
}

/** The model of the `addModelOptions` flags, validated once by `parseModel` (ρ < 1 required). */
export function modelFromFlags(o: ModelFlags): SupermarketModel {
  return parseModel(modelInputFromFlags(o));
}

/**
 * The `sampling` field of a model input from the flags: --sampling, but not its default beside a batch (--batch other
 * than 1), whose model draws d distinct servers: parseModel refuses a with-replacement given with a batch, and
 * `refuseIdleSettings` has already refused one typed on the command line.
 */
export function samplingInput(o: { readonly sampling: string; readonly batch?: string }): { sampling?: string } {
  return o.batch !== undefined && o.batch !== '1' && o.sampling === 'with-replacement' ? {} : { sampling: o.sampling };
}

/** The model input of the `addModelOptions` flags (for `parseModel` or, at any load, `validateModel`). */
export function modelInputFromFlags(o: ModelFlags): UntypedModelInput {
  return {
    lambda: o.lambda,
    d: o.d,
    selection: o.selection,
    discipline: o.discipline,
    ...samplingInput(o),
    memory: o.memory,
    ...serversFromFlags(o),
    service: serviceFromFlag(o.service),
    prediction: o.prediction,
    arrivals: o.arrivals,
    batch: o.batch,
    batchDispatch: o.batchDispatch,
    ...(o.redundancy === undefined || o.redundancy === 'none' ? {} : { redundancy: o.redundancy }),
    ...(o.replicas === undefined ? {} : { replicas: o.replicas }),
  };
}

/**
 * The `servers` field of --speeds, --fractions and --server-sampling (absent without them).
 * @throws {InvalidModelError} --fractions or --server-sampling without --speeds; --speeds 1 (the homogeneous model).
 */
export function serversFromFlags(o: Pick<ModelFlags, 'speeds' | 'fractions' | 'serverSampling'>): { servers?: unknown } {
  if (o.speeds === undefined) {
    if (o.fractions !== undefined) throw new InvalidModelError('--fractions acts only with --speeds: add --speeds');
    if (o.serverSampling !== undefined) throw new InvalidModelError('--server-sampling acts only with --speeds: add --speeds');
    return {};
  }
  // classes all of speed 1 are the homogeneous model (model.ts): the flag would change nothing, so it is refused, not
  // dropped (1,1 as well as 1: a fresh-user trial found 1,1 accepted beside 1 refused)
  const speeds = String(o.speeds).split(',');
  if (speeds.every((v) => Number(v.trim()) === 1))
    throw new InvalidModelError(
      `--speeds ${String(o.speeds)} has no effect: ${speeds.length === 1 ? 'one class' : 'every class'} of speed 1 is the homogeneous model (identical servers); drop --speeds${o.fractions === undefined ? '' : ' and --fractions'}`,
    );
  return {
    servers: {
      speeds: o.speeds,
      ...(o.fractions === undefined ? {} : { fractions: o.fractions }),
      sampling: o.serverSampling ?? 'uniform',
    },
  };
}
