/** Package version and code identity, recorded in every result's provenance. */
import { createRequire } from 'node:module';
import { codeIdentity } from './runs/codeIdentity.ts';
const require = createRequire(import.meta.url);
const pkg = require('../package.json') as { version: string };
export const VERSION: string = pkg.version;

/**
 * The code that computes results in this process (runs/codeIdentity.ts: `git:<commit>[+dirty:…]` or a hash of the built
 * code), computed on first use; library results carry it in `provenance.code`, as cells and shards do.
 */
export function codeId(): string {
  return codeIdentity();
}
