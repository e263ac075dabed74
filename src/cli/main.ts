/** Entry of the `supermarket` CLI: builds the program and runs it; any error becomes one line (errors.ts). */
import { reportFatal } from './errors.ts';
import { buildProgram } from './program.ts';

// A reader that stops early (`supermarket … | head`) closes the pipe: stop quietly, as Unix tools do, not with a trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

buildProgram().parseAsync(process.argv).catch(reportFatal);
