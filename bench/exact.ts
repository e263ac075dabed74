/**
 * Exact small-n solver benchmark (issue 10): states and wall seconds of `solveExact` for JSQ(2), λ = 0.9, sampling
 * with replacement, at n = 4, 6, 8. Run: `npm run bench:exact [-- BOUND]` (BOUND: the E[T] truncation bound, default
 * 1e−3, about a long simulation's CI half-width; at 1e−6, n = 6 needs ~3·10⁶ states and n = 8 does not fit).
 * Prints one table; a state space over the solver's limits prints its size instead of a time.
 */
import os from 'node:os';
import { StateSpaceTooLargeError } from '../src/errors.ts';
import { parseModel } from '../src/model/index.ts';
import { solveExact } from '../src/meanfield/index.ts';
import { VERSION } from '../src/version.ts';

const bound = Number(process.argv[2] ?? 1e-3);
const model = parseModel({ lambda: 0.9, d: 2 });
console.log(`solveExact, JSQ(2), λ = 0.9, with replacement, E[T] truncation bound ${bound}`);
console.log('    n     K      states   seconds   sweeps         E[T]   error est.   residual');
for (const n of [4, 6, 8]) {
  try {
    const r = solveExact(model, { n, truncationBound: bound });
    console.log(
      `${String(n).padStart(5)} ${String(r.truncation.K).padStart(5)} ${String(r.states).padStart(11)} ${r.diagnostics.seconds.toFixed(2).padStart(9)} ` +
        `${String(r.diagnostics.iterations).padStart(8)} ${r.meanResponseTime.toFixed(6).padStart(12)} ${r.truncation.errorEstimate.toExponential(1).padStart(12)} ` +
        `${r.diagnostics.residual.toExponential(1).padStart(10)}`,
    );
  } catch (error) {
    if (!(error instanceof StateSpaceTooLargeError)) throw error;
    console.log(`${String(n).padStart(5)}  refused: ${error.message}`);
  }
}
console.log(`supermarket-lab ${VERSION}, node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}`);
