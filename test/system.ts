/**
 * What the tests that use real components (Slurm, Chromium, pdftoppm, LaTeX) may do to the machine: install Debian
 * packages with apt-get when they are missing, only as root, only with apt-get present, and never when
 * SUPERMARKET_TEST_NO_INSTALL=1 (then such a test skips and says why). Also a fingerprint of a folder, so a test can
 * show it left a system folder (e.g. /etc/slurm) as it found it.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, lstatSync } from 'node:fs';
import path from 'node:path';

/** The environment variable that forbids the tests to install anything. */
export const NO_INSTALL_VAR = 'SUPERMARKET_TEST_NO_INSTALL';

export function sh(cmd: string, args: string[], timeout = 120_000, env?: NodeJS.ProcessEnv): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { encoding: 'utf8', timeout, env: env ?? process.env });
}

/** True when `program` is on the PATH. */
export function have(program: string): boolean {
  return sh('sh', ['-c', `command -v ${program}`]).status === 0;
}

/** The last line of a failed command's output (or its spawn error). */
function lastLine(r: SpawnSyncReturns<string>): string {
  return (r.stderr || r.stdout || String(r.error ?? `exit ${r.status}`)).trim().split('\n').pop() ?? '';
}

/**
 * Runs an apt-get command, waiting (up to ~10 min) for the package lock another apt-get or test holds.
 * @returns the last run's result.
 */
function aptGet(args: string): SpawnSyncReturns<string> {
  let r = sh('sh', ['-c', `DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 ${args}`], 900_000);
  for (let i = 0; i < 60 && r.status !== 0 && /Could not get lock|is locked|Unable to lock/i.test(r.stderr); i++) {
    sh('sleep', ['10']);
    r = sh('sh', ['-c', `DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 ${args}`], 900_000);
  }
  return r;
}

/**
 * Installs the Debian `packages` unless every program of `programs` is already on the PATH.
 * @returns the reason the programs are still missing (to skip with), or undefined when they are there.
 */
export function ensureDebianPackages(packages: readonly string[], programs: readonly string[]): string | undefined {
  if (programs.every(have)) return undefined;
  const what = `${packages.join(' and ')} ${packages.length > 1 ? 'are' : 'is'} not installed`;
  if (process.env[NO_INSTALL_VAR] === '1') return `${what} and ${NO_INSTALL_VAR}=1 forbids installing`;
  if (process.platform !== 'linux') return `${what} (needs Linux)`;
  if (process.getuid?.() !== 0) return `${what} and installing needs root`;
  if (!have('apt-get')) return `${what} and there is no apt-get`;
  const update = aptGet('update -qq');
  if (update.status !== 0) return `${what} and apt-get update failed: ${lastLine(update)}`;
  const install = aptGet(`install -y -qq ${packages.join(' ')}`);
  if (install.status !== 0) return `apt-get cannot install ${packages.join(' ')}: ${lastLine(install)}`;
  const still = programs.filter((p) => !have(p));
  return still.length ? `${still.join(', ')} still missing after installing ${packages.join(' ')}` : undefined;
}

/**
 * A fingerprint of everything under `dir` (names, symlink targets and file contents, sha256), or 'absent' when it
 * does not exist: equal fingerprints mean the folder was left as found.
 */
export function folderFingerprint(dir: string): string {
  if (!existsSync(dir)) return 'absent';
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = lstatSync(p);
      hash.update(`${p}\0${st.mode}\0`);
      if (st.isSymbolicLink()) hash.update(readlinkSync(p));
      else if (st.isDirectory()) walk(p);
      else if (st.isFile()) hash.update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest('hex');
}
