/** Entry of the `supermarket` CLI: builds the program and runs it; any error becomes one line (errors.ts). */
import { reportFatal, stdioFailure } from './errors.ts';
import { buildProgram } from './program.ts';
import { compareAhead, prestartWorkers, tuneJit, workersFor } from './workerStart.ts';
import { primeCodeIdentity } from '../runs/codeIdentity.ts';

// less optimising-compiler CPU on V8's helper threads for a run of seconds in several isolates (workerStart.ts)
tuneJit();

// `compare` opens a worker pool: its first worker starts now and loads the simulator and the solvers while this thread
// loads the command's modules (solvers, report), instead of after them, and takes the first model's solve at once. The
// others start when the pool opens (compare.ts warms it), after this thread's modules: started now too, they made three
// threads loading modules on two cores, on this thread's critical path (workersFor, workerStart.ts)
// Its code identity too (git calls in the background): the pool hands it to each worker with its first task (pool.ts)
if (process.argv[2] === 'compare') {
  prestartWorkers(workersFor(process.argv.slice(3)), compareAhead);
  primeCodeIdentity();
}

// A reader that stops early (`supermarket … | head`) closes the pipe: stop quietly, as Unix tools do, not with a trace;
// any other failure of stdout or stderr (a full disk: `> /dev/full`) is one line and exit 1 (stdioFailure)
process.stdout.on('error', (error: NodeJS.ErrnoException) => stdioFailure('standard output', error));
process.stderr.on('error', (error: NodeJS.ErrnoException) => stdioFailure('standard error', error));

buildProgram().parseAsync(process.argv).catch(reportFatal);
