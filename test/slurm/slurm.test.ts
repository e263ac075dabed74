/**
 * A real Slurm cluster: the one-node cluster of ../shared/design/slurm-one-node.md (Debian's slurm-wlm and munge)
 * is started here (or found running), a tiny experiment runs as a 4-task job array with a merge job after it
 * (`supermarket slurm --submit --wait`), and the merged results.json must equal a local single-thread run cell for
 * cell. Needs root (CI runs as root on a fresh machine) and, where the packages are missing, apt-get; otherwise the
 * test skips and says why. The daemons this test started are stopped by their pid files.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'supermarket.js');
const started: string[] = []; // pid files of daemons this test started

function sh(cmd: string, args: string[], timeout = 120_000): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { encoding: 'utf8', timeout });
}

function have(program: string): boolean {
  return sh('sh', ['-c', `command -v ${program}`]).status === 0;
}

/** Installs slurm-wlm and munge when missing; the reason to skip, or undefined. */
function ensurePackages(): string | undefined {
  if (have('slurmctld') && have('slurmd') && have('munged') && have('sbatch')) return undefined;
  if (!have('apt-get')) return 'slurm-wlm and munge are not installed and there is no apt-get';
  const update = sh('sh', ['-c', 'apt-get update -qq'], 300_000);
  const install =
    update.status === 0 ? sh('sh', ['-c', 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge'], 600_000) : update;
  if (install.status !== 0)
    return `apt-get cannot install slurm-wlm and munge: ${(install.stderr || install.stdout || String(install.error)).trim().split('\n').pop()}`;
  return undefined;
}

/** True when a process of this name runs (Linux: /proc/<pid>/comm). */
function running(name: string): boolean {
  return readdirSync('/proc').some((pid) => {
    try {
      return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
    } catch {
      return false; // ended meanwhile
    }
  });
}

/** True when a slurmctld runs and sinfo answers with an idle, mixed or allocated node. */
function clusterUp(): boolean {
  // sinfo retries for about 9 s when no controller answers: ask only when a slurmctld process exists
  if (!running('slurmctld')) return false;
  const r = sh('sinfo', ['-h', '-o', '%t'], 120_000);
  return r.status === 0 && /idle|mix|alloc/.test(r.stdout);
}

function waitFor(test: () => boolean, seconds: number): boolean {
  for (let i = 0; i < seconds * 2; i++) {
    if (test()) return true;
    sh('sleep', ['0.5']);
  }
  return test();
}

/** Starts munged, slurmctld and slurmd as the design doc does (unless running); the reason to skip, or undefined. */
function startCluster(): string | undefined {
  if (clusterUp()) return undefined;
  const host = os.hostname().split('.')[0];
  const conf = `ClusterName=local
SlurmctldHost=${host}
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/spool/slurmd
StateSaveLocation=/var/spool/slurmctld
SlurmUser=root
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
MinJobAge=5
AccountingStorageType=accounting_storage/none
MpiDefault=none
NodeName=${host} CPUs=${os.availableParallelism()} RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`;
  mkdirSync('/etc/slurm', { recursive: true });
  writeFileSync('/etc/slurm/slurm.conf', conf);
  for (const d of ['/var/spool/slurmd', '/var/spool/slurmctld', '/run/munge']) mkdirSync(d, { recursive: true });
  if (!existsSync('/etc/munge/munge.key')) sh('sh', ['-c', 'mungekey --create 2>/dev/null || create-munge-key -f']);
  if (sh('sh', ['-c', 'munge -n >/dev/null 2>&1']).status !== 0) {
    const m = sh('munged', ['--force']);
    if (m.status !== 0) return `munged did not start: ${m.stderr.trim()}`;
    started.push('/run/munge/munged.pid');
  }
  for (const [daemon, pid] of [
    ['slurmctld', '/run/slurmctld.pid'],
    ['slurmd', '/run/slurmd.pid'],
  ]) {
    const r = sh(daemon, []);
    if (r.status !== 0) return `${daemon} did not start: ${r.stderr.trim()}`;
    started.push(pid);
  }
  if (!waitFor(clusterUp, 30)) return `the one-node cluster did not come up: ${sh('sinfo', []).stdout.trim()}`;
  return undefined;
}

function cellsOf(dir: string): unknown {
  const r = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
  return JSON.parse(JSON.stringify(r.cells, (k, v) => (k === 'wallSeconds' || k === 'eventsPerSecond' ? undefined : v)));
}

afterAll(() => {
  // only the daemons this test started, by their pid files (slurmd first, munged last)
  for (const file of [...started].reverse()) {
    try {
      process.kill(Number(readFileSync(file, 'utf8').trim()), 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
});

describe('Slurm job array on a one-node cluster', () => {
  it('supermarket slurm FILE --array 4 --submit --wait: the merged results.json equals a local single-thread run', async (ctx) => {
    const skip = (reason: string) => {
      process.stderr.write(`slurm test skipped: ${reason}\n`);
      ctx.skip(reason);
    };
    if (process.platform !== 'linux') return skip('needs Linux');
    if (process.getuid?.() !== 0) return skip('needs root to start slurmctld, slurmd and munged (CI runs as root)');
    const missing = ensurePackages();
    if (missing) return skip(missing);
    if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
      const b = sh('npm', ['run', 'build', '--prefix', ROOT], 300_000);
      expect(b.status, `npm run build: ${b.stderr}`).toBe(0);
    }
    const down = startCluster();
    if (down) return skip(down);

    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-slurm-'));
    const file = writeTinyExperiment(tmp, { jobs: 2000, seed: 3 });
    // the local single-thread run to compare with, meanwhile (the array mostly waits on the scheduler)
    const local = new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'run', file, '--out', path.join(tmp, 'local'), '--threads', '1', '--no-progress'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 120_000,
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    const t0 = Date.now();
    const out = path.join(tmp, 'cluster');
    const r = spawnSync(process.execPath, [BIN, 'slurm', file, '--array', '4', '--out', out, '--time', '10', '--submit', '--wait'], {
      encoding: 'utf8',
      timeout: 300_000,
      cwd: tmp,
    });
    const seconds = (Date.now() - t0) / 1000;
    const logs = ['1', '2', '3', '4']
      .map((i) => path.join(out, 'slurm', 'logs', `shard-${i}.out`))
      .concat(path.join(out, 'slurm', 'logs', 'merge.out'))
      .filter(existsSync)
      .map((f) => `${path.basename(f)}: ${readFileSync(f, 'utf8').trim()}`)
      .join('\n');
    expect(r.status, `${r.stdout}\n${r.stderr}\n${logs}`).toBe(0);
    expect(r.stdout).toMatch(/array job \d+: shards 1-4 of 4/);
    process.stderr.write(`slurm test: 4-task array and merge in ${seconds.toFixed(1)} s\n`);
    for (let i = 1; i <= 4; i++) expect(existsSync(path.join(out, 'shards', `${i}-of-4`, 'shard.json'))).toBe(true);
    const localRun = await local;
    expect(localRun.status, localRun.stderr).toBe(0);
    expect(cellsOf(out)).toEqual(cellsOf(path.join(tmp, 'local')));
    // resubmitting a complete run submits no array task, only the merge (checked above, so not waited for: cancelled)
    const again = spawnSync(process.execPath, [BIN, 'slurm', file, '--array', '4', '--out', out, '--time', '10', '--submit'], {
      encoding: 'utf8',
      timeout: 120_000,
      cwd: tmp,
    });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^every shard is complete; merge job submitted/);
    const mergeJob = /merge job (\d+);/.exec(again.stdout)?.[1];
    expect(mergeJob).toBeDefined();
    sh('scancel', [mergeJob!]);
  }, 900_000);
});
