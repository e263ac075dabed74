/**
 * Shards of a grid: the cells of `compare`, `run` or `conjecture` split into N deterministic parts, so that N
 * processes (N machines, N tasks of a Slurm job array) each compute one part into their own cell store, and
 * `supermarket merge` joins the stores and writes the one report.
 *
 * The split depends only on the whole grid (its keys and estimated costs), never on the order of completion: cells
 * sorted by cost (descending) then key go one by one to the least loaded shard (longest processing time first), so
 * every shard gets about the same work and rerunning a shard recomputes the same cells. Each shard folder holds a
 * manifest `shard.json` naming the command, the code version, the whole grid (key → settings hash) and the shard's
 * own keys, which is what merge checks.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { InvalidModelError, PathError } from '../errors.ts';
import { parseJsonText, writeJsonAtomic } from '../io/index.ts';
import { VERSION } from '../version.ts';
import { codeIdentity } from './codeIdentity.ts';
import { cellFileName } from './cellStore.ts';

/** Shard `index` (1-based) of `count`, as written `--shard index/count`. */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

/**
 * Parses "i/N" (1 ≤ i ≤ N, integers). @throws {InvalidModelError} one line naming the bad text.
 * @example parseShard('2/8') // { index: 2, count: 8 }
 */
export function parseShard(text: string): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new InvalidModelError(`--shard must be i/N with 1 ≤ i ≤ N (e.g. 2/8), got "${text}"`);
  }
  return { index, count };
}

/** A cell of a grid for sharding: its key and an estimate of its cost (any unit, e.g. expected events). */
export interface ShardItem {
  readonly key: string;
  readonly cost: number;
}

/**
 * Shard (1-based) of every key: items sorted by cost descending (ties: key ascending) go one by one to the shard
 * with the least total cost so far (ties: the lowest index). Deterministic in the set of items; independent of
 * their order. @throws {InvalidModelError} for a count < 1 or duplicate keys.
 */
export function assignShards(items: readonly ShardItem[], count: number): Map<string, number> {
  if (!Number.isInteger(count) || count < 1) throw new InvalidModelError(`shard count must be an integer ≥ 1, got ${count}`);
  const sorted = [...items].sort((a, b) => b.cost - a.cost || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const load = new Array<number>(count).fill(0);
  const out = new Map<string, number>();
  for (const item of sorted) {
    if (out.has(item.key)) throw new InvalidModelError(`duplicate cell key ${item.key}`);
    let best = 0;
    for (let s = 1; s < count; s++) if (load[s] < load[best]) best = s;
    load[best] += Math.max(0, Number.isFinite(item.cost) ? item.cost : 0);
    out.set(item.key, best + 1);
  }
  return out;
}

/** The keys of shard `shard` (in the items' order). */
export function shardKeys(items: readonly ShardItem[], shard: ShardSpec): string[] {
  const of = assignShards(items, shard.count);
  return items.filter((i) => of.get(i.key) === shard.index).map((i) => i.key);
}

/** Folder of shard i of N under a report folder: `<out>/shards/<i>-of-<N>` (cells in its `cells/`). */
export function shardDir(out: string, shard: ShardSpec): string {
  return path.join(out, 'shards', `${shard.index}-of-${shard.count}`);
}

/** Contents of `<shard folder>/shard.json`. */
export interface ShardManifest {
  readonly format: 'supermarket-shard/1';
  /** 'compare' | 'run' | 'conjecture' */
  readonly command: string;
  /** Arguments to rerun the command over the whole grid (file operands absolute; no --out, --shard, --threads, --fresh). */
  readonly argv: readonly string[];
  readonly version: string;
  /** The code that computed the shard (runs/codeIdentity.ts); absent in shards written before code identities. */
  readonly code?: string;
  /** Hash of the whole grid (every key with its settings hash) and the version: equal for shards of one run. */
  readonly grid: string;
  readonly shard: ShardSpec;
  /** Every cell of the grid: key → settings hash stored in its file. */
  readonly cells: Readonly<Record<string, string>>;
  /** Keys of this shard. */
  readonly mine: readonly string[];
  /** Shard (1-based) of every key of the grid, so merge can name the shard of a missing cell. */
  readonly assignment: Readonly<Record<string, number>>;
  /**
   * Content hash (`contentHash`) of each file operand of `argv`, in its order: what merge compares when shards read the
   * same file at other paths (checkouts at different places on a cluster, a copy). Absent in shards written before.
   */
  readonly inputs?: readonly string[];
  /** Absolute report folder the shard was started with (merge's default --out). */
  readonly report: string;
  /** ISO time the shard finished. */
  readonly finishedAt?: string;
}

/** Hash of a grid (sorted key → settings hash pairs, with the version): 16 hex digits of SHA-256. */
export function gridHash(cells: Readonly<Record<string, string>>): string {
  const pairs = Object.keys(cells)
    .sort()
    .map((k) => [k, cells[k]]);
  return createHash('sha256')
    .update(JSON.stringify({ pairs, version: VERSION }))
    .digest('hex')
    .slice(0, 16);
}

/** 16 hex digits of the SHA-256 of a file's bytes, or '' when it cannot be read (`ShardManifest.inputs`). */
export function contentHash(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
  } catch {
    return '';
  }
}

/** Writes the manifest of a shard folder (atomically). */
export function writeShardManifest(dir: string, manifest: Omit<ShardManifest, 'format' | 'version' | 'code' | 'grid'>): ShardManifest {
  const full: ShardManifest = {
    format: 'supermarket-shard/1',
    version: VERSION,
    code: codeIdentity(),
    grid: gridHash(manifest.cells),
    ...manifest,
  };
  writeJsonAtomic(path.join(dir, 'shard.json'), full);
  return full;
}

/** A shard folder with its manifest. */
export interface FoundShard {
  readonly dir: string;
  readonly manifest: ShardManifest;
}

/**
 * The shard folders named by `dirs`: each is a shard folder (has shard.json) or a report folder whose
 * `shards/*` hold them. @throws {InvalidModelError} for a folder with neither, or a damaged manifest.
 */
export function findShards(dirs: readonly string[]): FoundShard[] {
  const found: FoundShard[] = [];
  const read = (dir: string) => {
    const file = path.join(dir, 'shard.json');
    let m: ShardManifest;
    try {
      m = JSON.parse(readFileSync(file, 'utf8')) as ShardManifest;
    } catch (e) {
      throw new InvalidModelError(`${file}: cannot read the shard manifest (${(e as Error).message.split('\n')[0]})`);
    }
    if (m?.format !== 'supermarket-shard/1' || typeof m.cells !== 'object' || !Array.isArray(m.mine)) {
      throw new InvalidModelError(`${file}: not a supermarket shard manifest`);
    }
    found.push({ dir, manifest: m });
  };
  for (const dir of dirs) {
    // a path error (exit 2 in the CLI, errors.ts PathError), not a folder without shards
    if (!existsSync(dir)) throw new PathError(`${dir}: no such folder`);
    if (!statSync(dir).isDirectory()) throw new PathError(`${dir} is a file, not a folder`);
    if (existsSync(path.join(dir, 'shard.json'))) {
      read(dir);
      continue;
    }
    const sub = path.join(dir, 'shards');
    const children = existsSync(sub)
      ? readdirSync(sub)
          .filter((c) => existsSync(path.join(sub, c, 'shard.json')))
          .sort()
      : [];
    if (children.length === 0)
      throw new InvalidModelError(
        `${dir}: no shard.json here nor in ${path.join(dir, 'shards', '*')}; give the folders written by --shard`,
      );
    for (const c of children) read(path.join(sub, c));
  }
  return found;
}

/** The stored cell of `key` in a cells folder if its settings hash is `settings` (absent, damaged or stale: undefined). */
export function storedCellText(cellsDir: string, key: string, settings: string): string | undefined {
  try {
    const text = readFileSync(path.join(cellsDir, cellFileName(key)), 'utf8');
    const stored = parseJsonText(text) as { key?: string; settings?: string; value?: unknown };
    return stored?.key === key && stored.settings === settings && stored.value !== undefined ? text : undefined;
  } catch {
    return undefined;
  }
}
