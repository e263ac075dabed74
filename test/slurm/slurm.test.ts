/**
 * A real Slurm cluster: the one-node cluster of ../shared/design/slurm-one-node.md (Debian's slurm-wlm and munge) is
 * started here from a private folder (its own slurm.conf given by SLURM_CONF, spool, state, log and pid files, its
 * own ports, and its own munged with its own key and socket), a tiny experiment runs as a 4-task job array with a
 * merge job after it (`supermarket slurm --submit --wait`), and the merged results.json must equal a local
 * single-thread run cell for cell. Nothing under /etc/slurm or /etc/munge is written: the test checks their
 * fingerprints before and after, and a Slurm or munged the machine already runs is left alone. Needs root (CI runs
 * as root on a fresh machine) and, where the packages are missing, apt-get (./system.ts: SUPERMARKET_TEST_NO_INSTALL=1
 * forbids installing); otherwise the test skips and says why. Only the daemons this test started are stopped, by
 * their pid files in the private folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';
import { ensureDebianPackages, folderFingerprint, sh } from '../system.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'supermarket.js');
/** The system folders the test must leave as it found them. */
const SYSTEM_DIRS = ['/etc/slurm', '/etc/slurm-llnl', '/etc/munge'];
const started: string[] = []; // pid files of daemons this test started

/** Two free TCP ports on this host (asked of the kernel, then released), for slurmctld and slurmd. */
async function freePorts(): Promise<[number, number]> {
  const one = () =>
    new Promise<net.Server>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, () => resolve(s));
    });
  const servers = [await one(), await one()];
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port) as [number, number];
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** The test cluster: its private folder and the environment that points Slurm's commands at it. */
interface Cluster {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
}

function waitFor(test: () => boolean, seconds: number): boolean {
  for (let i = 0; i < seconds * 2; i++) {
    if (test()) return true;
    sh('sleep', ['0.5']);
  }
  return test();
}

/** True when the cluster's controller answers with an idle, mixed or allocated node. */
function clusterUp(c: Cluster): boolean {
  const r = sh('sinfo', ['-h', '-o', '%t'], 120_000, c.env);
  return r.status === 0 && /idle|mix|alloc/.test(r.stdout);
}

/** Starts a private munged, slurmctld and slurmd (design doc, private folder); the cluster, or the reason to skip. */
async function startCluster(): Promise<Cluster | string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-slurm-cluster-'));
  chmodSync(dir, 0o711); // munged wants its socket's folders searchable
  for (const d of ['spool/d', 'spool/ctld', 'log', 'munge']) mkdirSync(path.join(dir, d), { recursive: true, mode: 0o711 });
  const munge = path.join(dir, 'munge');
  const socket = path.join(munge, 'munge.socket');
  const key = sh('mungekey', ['--create', '--keyfile', path.join(munge, 'munge.key')]);
  if (key.status !== 0) return `mungekey could not create a private key: ${key.stderr.trim()}`;
  const m = sh('munged', [
    '--force',
    `--socket=${socket}`,
    `--key-file=${path.join(munge, 'munge.key')}`,
    `--pid-file=${path.join(munge, 'munged.pid')}`,
    `--log-file=${path.join(munge, 'munged.log')}`,
    `--seed-file=${path.join(munge, 'munged.seed')}`,
  ]);
  if (m.status !== 0) return `munged did not start: ${m.stderr.trim()}`;
  started.push(path.join(munge, 'munged.pid'));
  const [ctldPort, dPort] = await freePorts();
  const host = os.hostname().split('.')[0];
  const conf = path.join(dir, 'slurm.conf');
  writeFileSync(
    conf,
    `ClusterName=smtest
SlurmctldHost=${host}
SlurmctldPort=${ctldPort}
SlurmdPort=${dPort}
AuthType=auth/munge
AuthInfo=socket=${socket}
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=${dir}/slurmctld.pid
SlurmdPidFile=${dir}/slurmd.pid
SlurmdSpoolDir=${dir}/spool/d
StateSaveLocation=${dir}/spool/ctld
SlurmctldLogFile=${dir}/log/ctld.log
SlurmdLogFile=${dir}/log/d.log
SlurmUser=root
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MinJobAge=5
NodeName=${host} CPUs=${os.availableParallelism()} RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`,
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const c: Cluster = { dir, env };
  for (const daemon of ['slurmctld', 'slurmd']) {
    const r = sh(daemon, ['-f', conf], 120_000, env);
    if (r.status !== 0) return `${daemon} did not start: ${r.stderr.trim()} (log: ${dir}/log)`;
    started.push(path.join(dir, `${daemon}.pid`));
  }
  if (!waitFor(() => clusterUp(c), 30))
    return `the one-node cluster did not come up: ${sh('sinfo', [], 120_000, env).stdout.trim()} (log: ${dir}/log)`;
  return c;
}

/** Stops the daemons this test started, by their pid files (slurmd first, munged last), and waits until they are gone. */
function stopOwnDaemons(): void {
  for (const file of [...started].reverse()) {
    let pid: number;
    try {
      pid = Number(readFileSync(file, 'utf8').trim());
      process.kill(pid, 'SIGTERM');
    } catch {
      continue; // no pid file or already gone
    }
    const gone = (): boolean => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    };
    waitFor(gone, 120); // seconds
  }
  started.length = 0;
}

function cellsOf(dir: string): unknown {
  const r = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
  return JSON.parse(JSON.stringify(r.cells, (k, v) => (k === 'wallSeconds' || k === 'eventsPerSecond' ? undefined : v)));
}

afterAll(stopOwnDaemons);

describe('Slurm job array on a one-node cluster', () => {
  it('supermarket slurm FILE --array 4 --submit --wait: the merged results.json equals a local single-thread run', async (ctx) => {
    const skip = (reason: string) => {
      process.stderr.write(`slurm test skipped: ${reason}\n`);
      ctx.skip(reason);
    };
    if (process.platform !== 'linux') return skip('needs Linux');
    if (process.getuid?.() !== 0) return skip('needs root to start slurmctld, slurmd and munged (CI runs as root)');
    const missing = ensureDebianPackages(['slurm-wlm', 'munge'], ['slurmctld', 'slurmd', 'munged', 'mungekey', 'sbatch']);
    if (missing) return skip(missing);
    // after the install (the packages own /etc/slurm/plugstack.conf and /etc/munge/munge.key): the test adds nothing
    const before = SYSTEM_DIRS.map(folderFingerprint);
    if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
      const b = sh('npm', ['run', 'build', '--prefix', ROOT], 300_000);
      expect(b.status, `npm run build: ${b.stderr}`).toBe(0);
    }
    const cluster = await startCluster();
    if (typeof cluster === 'string') {
      stopOwnDaemons();
      return skip(cluster);
    }

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
      env: cluster.env,
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
      env: cluster.env,
    });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^every shard is complete; merge job submitted/);
    const mergeJob = /merge job (\d+);/.exec(again.stdout)?.[1];
    expect(mergeJob).toBeDefined();
    sh('scancel', [mergeJob!], 120_000, cluster.env);

    // the cluster lived in its private folder: /etc/slurm (and /etc/munge) as found, and its daemons stop by pid file
    const pids = ['slurmctld.pid', 'slurmd.pid', 'munge/munged.pid'].map((f) => Number(readFileSync(path.join(cluster.dir, f), 'utf8')));
    stopOwnDaemons();
    expect(SYSTEM_DIRS.map(folderFingerprint)).toEqual(before);
    for (const pid of pids) expect(() => process.kill(pid, 0), `daemon ${pid} still runs`).toThrow();
    rmSync(cluster.dir, { recursive: true, force: true });
  }, 900_000);
});
