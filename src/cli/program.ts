/**
 * The `supermarket` command line (built here, run by main.ts): a thin layer over the library. Each command parses flags into a model
 * description, calls the pure core, and prints text, JSON or CSV. Errors become one line on stderr.
 */
import { Command } from 'commander';
import { VERSION } from '../version.ts';
import { compareCommand } from './commands/compare.ts';
import { fixedPointCommand } from './commands/fixedPoint.ts';
import { odeCommand } from './commands/ode.ts';
import { simulateCommand } from './commands/simulate.ts';
import { runCommand } from './commands/run.ts';
import { traceCommand } from './commands/trace.ts';
import { modelCommand } from './commands/model.ts';
import { mg1Command } from './commands/mg1.ts';
import { conjectureCommand } from './commands/conjecture.ts';
import { exactCommand } from './commands/exact.ts';

export function buildProgram(): Command {
  const program = new Command('supermarket')
    .version(VERSION)
    .description('supermarket-lab: mean-field limits, refined 1/n corrections and finite-n simulation of the supermarket ' +
      'model of load balancing (n servers, Poisson arrivals at rate λn, each job samples d servers and joins one by a selection ' +
      'rule; a discipline orders each queue). Time is in mean service times (E[S] = 1), so the load is ρ = λ. ' +
      'Theory and sources: docs/theory.md.')
    .showSuggestionAfterError(false)
    .configureOutput({ outputError: (str, write) => write(`supermarket: ${str.trim().replace(/^error: /, 'error: ')}\n`) })
    .addHelpText('after', '\nStart with:\n  supermarket fixed-point --lambda 0.9 --d 2 --refined --n 100\n  supermarket simulate --lambda 0.9 --d 2 --n 1000\n  supermarket compare   # the default validation report');
  for (const cmd of [fixedPointCommand(), odeCommand(), simulateCommand(), compareCommand(), mg1Command(), runCommand(), traceCommand(), modelCommand(), conjectureCommand(), exactCommand()]) {
    cmd.showSuggestionAfterError(false).configureOutput({ outputError: (str, write) => write(`supermarket ${cmd.name()}: ${str.trim()}\n`) });
    program.addCommand(cmd);
  }
  return program;
}

