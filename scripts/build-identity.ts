/**
 * Stamps dist/ with its code identity (version.ts `writeCodeIdentityStamp` → dist/code-identity.json): the hash of the
 * code that runs, computed once here instead of at each start of a command that stores cells (≈ 0.1 s of the main
 * thread's start, before its first task), read back while no file it was computed from has changed
 * (`stampedCodeIdentity`). Run by `npm run build`, last (the hash covers every file the build wrote).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeCodeIdentityStamp } from '../src/version.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const code = writeCodeIdentityStamp(path.join(root, 'dist'), root);
  console.log(code === null ? 'code identity: not stamped (no package-lock.json)' : `code identity: ${code} (dist/code-identity.json)`);
}
