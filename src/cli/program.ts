/**
 * The `supermarket` command line (built here, run by main.ts): a thin layer over the library. Each command parses flags into a model
 * description, calls the pure core, and prints text, JSON or CSV. Errors become one line on stderr.
 *
 * Start-up stays small: this file lists every command by name, usage and one-line summary, and imports a command's module (and
 * with it the solvers, mathjs, vega, ...) only when that command runs or shows its own --help. `supermarket --help` and
 * `--version` load no command at all.
 */
import { Command, Help, InvalidArgumentError, type ParseOptions } from 'commander';
import { DISCIPLINES } from '../model/policy/discipline.ts';
import { EXIT_CODES_HELP, REFUSAL_PREFIX, commanderRefusals, refusalLine } from './errors.ts';
import { VERSION } from '../version.ts';
import { resetMixedCode } from '../runs/codeIdentity.ts';

/** One command as the top-level help lists it; `load` imports its module and builds the commander command. */
interface CommandEntry {
  readonly name: string;
  /** A few words for the short usage that `supermarket` alone prints (`shortUsage`), one line with the name. */
  readonly brief: string;
  /** what follows the name in the top-level list, e.g. `[options] <file>` */
  readonly usage: string;
  /** The command's one-line summary, here only: `configure` gives it to the loaded command. */
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

/** Every command, in the order of the top-level help. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'fixed-point',
    brief: 'mean-field fixed point, E[T], refined 1/n term',
    usage: '[options]',
    summary: 'mean-field fixed point: tail fractions s_i, E[Q], E[T], response-time ccdf, refined 1/n correction',
    load: async () => (await import('./commands/fixedPoint.ts')).fixedPointCommand(),
  },
  {
    name: 'ode',
    brief: 'mean-field transient s_i(t)',
    usage: '[options]',
    summary: 'mean-field transient s_i(t) from an initial state (default: empty), on a time grid',
    load: async () => (await import('./commands/ode.ts')).odeCommand(),
  },
  {
    name: 'simulate',
    brief: 'simulate n servers: E[T], E[Q], s_i with CIs',
    usage: '[options]',
    summary: 'simulate n servers: mean response time, queue length, tail fractions with 95% CIs',
    load: async () => (await import('./commands/simulate.ts')).simulateCommand(),
  },
  {
    name: 'compare',
    brief: 'simulation vs mean field over n: a validation report',
    usage: '[options]',
    summary: 'n-sweep: simulation vs mean field (and refined mean field where it exists), written as a validation report',
    load: async () => (await import('./commands/compare.ts')).compareCommand(),
  },
  {
    name: 'mg1',
    brief: 'exact M/G/1 (d = 1) baselines',
    usage: '[options]',
    summary: `exact M/G/1 (d = 1) baselines: E[T], E[slowdown], E[U] for ${DISCIPLINES.map((d) => d.toUpperCase()).join(', ')}`,
    load: async () => (await import('./commands/mg1.ts')).mg1Command(),
  },
  {
    name: 'run',
    brief: 'run an experiment file, write its report',
    usage: '[options] <file>',
    summary: 'run an experiment file (grid of λ, d, n, policies, service laws, predictions) and write its report',
    load: async () => (await import('./commands/run.ts')).runCommand(),
  },
  {
    name: 'replay',
    brief: 'replay a job trace over n servers',
    usage: '[options] <trace>',
    summary: 'replay an SWF or SWIM trace over n servers (rescaled to a load, or in its own seconds): E[T], slowdown, E[Q]; per-job CSV',
    load: async () => (await import('./commands/replay.ts')).replayCommand(),
  },
  {
    name: 'trace',
    brief: 'statistics of a job trace, learned predictions',
    usage: '[options] <file>',
    summary: 'statistics of a job trace (SWF or SWIM) and, with --learn, learned size predictions',
    load: async () => (await import('./commands/trace.ts')).traceCommand(),
  },
  {
    name: 'model',
    brief: 'population model from a JSON file',
    usage: '[options] <file>',
    summary: 'generic population model from a JSON file: fixed point, observables, refined 1/n term, transient',
    load: async () => (await import('./commands/model.ts')).modelCommand(),
  },
  {
    name: 'conjecture',
    brief: 'test a claim over a parameter grid',
    usage: '[options] <file>',
    summary: 'test a claim such as "T(jsq, sprpt) < T(lpw, sprpt)" over a parameter grid: holds / fails / undecided per point',
    load: async () => (await import('./commands/conjecture.ts')).conjectureCommand(),
  },
  {
    name: 'merge',
    brief: 'join the shards of one grid',
    usage: '[options] <dir...>',
    summary: 'join the cell stores of the shards of one grid (--shard i/N, Slurm array tasks) and write its report',
    load: async () => (await import('./commands/merge.ts')).mergeCommand(),
  },
  {
    name: 'slurm',
    brief: 'write a Slurm job array for an experiment',
    usage: '[options] <file>',
    summary: 'write (and submit) a Slurm job array running the shards of an experiment, and a merge job after it',
    load: async () => (await import('./commands/slurm.ts')).slurmCommand(),
  },
  {
    name: 'table',
    brief: 'finite-n table of JSQ(d) E[Q], E[T]',
    usage: '[options]',
    summary:
      'finite-n table of JSQ(d): E[Q], E[T] with CIs from many small-n chains, beside mean field, refined 1st/2nd order, exact, 1/n fits',
    load: async () => (await import('./commands/table.ts')).tableCommand(),
  },
  {
    name: 'exact',
    brief: 'exact n-server chain at small n',
    usage: '[options]',
    summary: 'exact stationary law of the n-server chain (small n): E[T], E[Q], tail fractions s_i, with a stated truncation bound',
    load: async () => (await import('./commands/exact.ts')).exactCommand(),
  },
  {
    name: 'explore',
    brief: 'the live explorer in a browser',
    usage: '[options]',
    summary: 'write (and open, or --serve) the live explorer: the mean field re-solved on every change, simulations overlaid',
    load: async () => (await import('./commands/explore.ts')).exploreCommand(),
  },
];

/** The command name in user arguments (`supermarket [-h] NAME ...` or `supermarket help NAME`), if any. */
function commandNameIn(userArgs: readonly string[]): string | undefined {
  const operands = userArgs.filter((a) => !a.startsWith('-'));
  return operands[0] === 'help' ? operands[1] : operands[0];
}

/**
 * Refuses a single-valued option given twice on the command line (`--seed 1 --seed 2`, `--shard 1/4 --shard 2/4`), which
 * commander would settle silently by keeping the last. Every option of `cmd` that takes a value gets a parser that
 * throws when the option already has a value from the command line; variadic options and accumulating parsers (those
 * taking the previous value, e.g. model's `--set k=v`) may repeat. Commander prints the throw as one line, exit 2 (bad
 * input, cli/errors.ts).
 */
export function refuseRepeatedOptions(cmd: Command): Command {
  for (const option of cmd.options) {
    const parse = option.parseArg;
    const accumulates = parse !== undefined && parse.length >= 2 && option.argChoices === undefined; // choices() parsers take two
    if (!(option.required || option.optional) || option.variadic || accumulates) continue;
    const key = option.attributeName();
    option.argParser((value: string, previous: unknown) => {
      if (cmd.getOptionValueSource(key) === 'cli') throw new InvalidArgumentError('given more than once: give it once'); // refusalLine puts the flag's name first
      return parse ? parse(value, previous) : value;
    });
  }
  return cmd;
}

/**
 * A command description written with hard line breaks (at ≈ 118 columns in the source) as paragraphs commander can wrap
 * to the terminal: a single newline inside a paragraph becomes a space; blank lines (paragraph ends) and lines that
 * start a list item or an indented example (leading space, "-", "•", "*", "1." / "1)") keep their break. Without it,
 * commander's own wrapping at 80 columns left a short line after each source line.
 * @example reflowDescription('one\ntwo\n\n  example\n- item') // 'one two\n\n  example\n- item'
 */
export function reflowDescription(text: string): string {
  return text.replace(/([^\n])\n(?=[^\n\s\-•*\d])/g, '$1 ').replace(/([^\n])\n(?=\d+[^.)\d])/g, '$1 ');
}

/** Commander's refusal line (it starts "error: "), as every refusal is printed (cli/errors.ts: one prefix, one exit code, `refusalLine`'s wording). */
const outputError = (str: string, write: (s: string) => void) => write(`${REFUSAL_PREFIX}${refusalLine(str.trim())}\n`);

function configure(cmd: Command, entry: CommandEntry): Command {
  cmd.description(reflowDescription(cmd.description()));
  return commanderRefusals(refuseRepeatedOptions(cmd))
    .summary(entry.summary)
    .showSuggestionAfterError(false)
    .configureOutput({ outputError })
    .addHelpText('after', `\n${EXIT_CODES_HELP}`);
}

/** The examples the help of `supermarket` (short and full) starts a user with. */
const START_WITH =
  'Start with:\n  supermarket fixed-point --lambda 0.9 --d 2 --refined --n 100\n  supermarket simulate --lambda 0.9 --d 2 --n 1000\n  supermarket compare   # the default validation report';

/**
 * What `supermarket` without a command prints (on stderr; exit 2, a missing command being bad input): the usage, one
 * line per command (its `brief`), where the full help is, and the start examples; `supermarket --help` keeps the full
 * help (description, every command's summary, exit codes). It printed the full help, 61 lines.
 */
export function shortUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: supermarket <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.brief}`),
    '',
    "supermarket <command> --help   the command's options, defaults and examples",
    'supermarket --help             the full help (model, exit codes)',
    '',
    START_WITH,
    '',
  ].join('\n');
}

/**
 * Clears what a command leaves in process-wide state, as the next command starts, so that nothing of one command
 * reaches another in one process (the tests run many; vitest shares a process between test files): the mixed code
 * accepted with --allow-mixed-code (named in the report's metadata) and the exit code a command set without exiting
 * (`mg1 --all` with a failed row). `--json`'s refusals are set on every parse too (`refusalsAsJson`). Module state that
 * is a cache of what does not change within a process (the code identity, loaded solvers) stays.
 */
export function startCommand(): void {
  resetMixedCode();
  process.exitCode = undefined;
}

/**
 * The root command. Its subcommands start as placeholders (name and summary only); `parseAsync` swaps in the real command
 * named in the arguments before commander parses them, so commander sees exactly one fully built command.
 */
class LazyProgram extends Command {
  override async parseAsync(argv?: readonly string[], options?: ParseOptions): Promise<this> {
    const all = argv ?? process.argv;
    const userArgs = options?.from === 'user' ? all : all.slice(2);
    const name = commandNameIn(userArgs);
    const index = COMMANDS.findIndex((c) => c.name === name);
    const { EXIT, refusalsAsJson } = await import('./errors.ts');
    startCommand();
    // --json: every refusal also as { failed, exitCode } on stdout, an unknown command's too (`supermarket bogus --json`
    // printed none); set on every parse, so one command's setting never outlives it (tests run several in one process)
    refusalsAsJson(userArgs.includes('--json'));
    if (userArgs.length === 0) {
      process.stderr.write(shortUsage());
      process.exit(EXIT.badInput);
    }
    if (index >= 0 && this.commands[index].name() === name) {
      const real = configure(await COMMANDS[index].load(), COMMANDS[index]);
      (this.commands as Command[])[index] = real;
      real.parent = this;
      const at = userArgs.indexOf(name!);
      // --json: every refusal (the action's, commander's) also as { failed, exitCode } on stdout (cli/errors.ts)
      refusalsAsJson(real.options.some((o) => o.long === '--json') && userArgs.slice(at + 1).includes('--json'));
      // Commander checks required options before unknown ones (`--lamda 0.9` would read as a missing --lambda): name the
      // mistyped option first, with a suggestion. Not for `help NAME` (no options to check).
      if (userArgs[at - 1] !== 'help' && !userArgs.slice(0, at).includes('help')) {
        const { unknownOptionMessage } = await import('./options.ts'); // already loaded by the command's module
        const message = unknownOptionMessage(real, userArgs.slice(at + 1));
        if (message) real.error(`error: ${message}`, { code: 'commander.unknownOption' });
      }
    }
    return super.parseAsync(argv, options);
  }

  override parse(): this {
    throw new Error('the supermarket program loads its commands lazily: call parseAsync');
  }
}

export function buildProgram(): Command {
  const program = new LazyProgram('supermarket')
    .version(VERSION)
    .description(
      'supermarket-lab: mean-field limits, refined 1/n corrections and finite-n simulation of the supermarket ' +
        'model of load balancing (n servers, Poisson arrivals at rate λn, each job samples d servers and joins one by a selection ' +
        'rule; a discipline orders each queue). Time is in mean service times (E[S] = 1), so the load is ρ = λ. ' +
        'Theory and sources: docs/theory.md.',
    )
    .showSuggestionAfterError(false)
    .configureOutput({ outputError })
    .configureHelp({
      subcommandTerm(cmd) {
        const entry = COMMANDS.find((c) => c.name === cmd.name());
        return entry ? `${entry.name} ${entry.usage}` : Help.prototype.subcommandTerm.call(this, cmd);
      },
    })
    .addHelpText(
      'after',
      `\n${START_WITH}` +
        `\n\n${EXIT_CODES_HELP}\nA refusal is one line on stderr, "supermarket: error: …"; with --json also\n{ "failed", "exitCode" } on stdout.`,
    );
  commanderRefusals(program);
  for (const entry of COMMANDS) {
    const placeholder = new Command(entry.name)
      .allowUnknownOption()
      .allowExcessArguments()
      .helpOption(false)
      .action(() => {
        throw new Error(`command ${entry.name} was not loaded (call parseAsync)`);
      });
    program.addCommand(configure(placeholder, entry));
  }
  return program;
}
