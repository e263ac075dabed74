/** Entry of the `supermarket` CLI: builds the program and runs it; any error becomes one line (errors.ts). */
import { reportFatal } from './errors.ts';
import { buildProgram } from './program.ts';

buildProgram().parseAsync(process.argv).catch(reportFatal);
