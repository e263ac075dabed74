/**
 * The one resumable cell store of the project, shared by `compare`, `run` and `conjecture`: each finished cell (a
 * simulation, a solve, a comparison cell) is written at once, atomically, to `<dir>/<key>.json` together with the
 * hash of the settings its value depends on and the code identity (runs/codeIdentity.ts), so an interrupted run
 * resumes where it stopped and a stored cell is reused only for the same settings; a cell computed by other code is
 * refused in one line (unless --allow-mixed-code). A damaged file is recomputed, never trusted.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseJsonText, writeJsonAtomic } from '../io/index.ts';
import { VERSION } from '../version.ts';
import { checkSameCode, codeIdentity } from './codeIdentity.ts';

/**
 * Hash of the settings a stored value depends on, with the package version (16 hex digits of SHA-256 of the JSON
 * text). Objects hash by their JSON text, so key order matters: build settings the same way each time.
 */
export function settingsHash(settings: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify({ settings, version: VERSION }))
    .digest('hex')
    .slice(0, 16);
}

/** File name of a key: its letters, digits, dot, dash and underscore (≤ 80), then 10 hex digits of its hash (unique). */
export function cellFileName(key: string): string {
  const slug = key.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return `${slug}-${createHash('sha256').update(key).digest('hex').slice(0, 10)}.json`;
}

interface StoredCell<V> {
  readonly key: string;
  readonly settings: string;
  /** The code that computed the value (runs/codeIdentity.ts); absent in cells written before code identities. */
  readonly code?: string;
  readonly value: V;
}

/**
 * A folder of finished cells, one JSON file per key: `{ key, settings, value, ...extra }`.
 * @example
 *   const store = new CellStore<Summary>('reports/x/cells', { fresh: false });
 *   const v = store.get(key, settings) ?? compute();   // then store.put(key, settings, v)
 */
export class CellStore<V> {
  /** Distinct cells read back from disk by `get` in this run (a key asked for twice — a model's early tasks, then its plan — counts once). */
  get resumed(): number {
    return this.readBack.size;
  }
  /** The keys `resumed` counts, in the order first read (to count them by kind: compare's cells and trajectories). */
  get resumedKeys(): readonly string[] {
    return [...this.readBack];
  }
  private readonly readBack = new Set<string>();
  /** Cells written by `put` in this run. */
  written = 0;
  private readonly fresh: boolean;

  /** @param dir folder of the cells (created on the first `put`). @param options.fresh ignore stored cells. */
  constructor(
    readonly dir: string,
    options: { readonly fresh?: boolean } = {},
  ) {
    this.fresh = Boolean(options.fresh);
  }

  /** Path of the file of `key`. */
  fileOf(key: string): string {
    return path.join(this.dir, cellFileName(key));
  }

  /**
   * The stored value of `key` if it was stored with the same settings (and version); undefined when absent, stale,
   * damaged, or the store is fresh.
   * @throws {SupermarketError} when the cell was computed by other code (`checkSameCode`), unless mixed code is allowed.
   */
  get(key: string, settings: unknown): V | undefined {
    if (this.fresh) return undefined;
    let stored: StoredCell<V>;
    try {
      stored = parseJsonText(readFileSync(this.fileOf(key), 'utf8')) as StoredCell<V>;
    } catch {
      return undefined; // absent or damaged: recompute
    }
    if (stored?.key !== key || stored.settings !== settingsHash(settings) || stored.value === undefined) return undefined;
    checkSameCode(stored.code, `the stored cell ${this.fileOf(key)}`); // resuming with other code: refused in one line
    this.readBack.add(key);
    return stored.value;
  }

  /**
   * Stores `value` for `key` atomically (temporary file, then rename).
   * @param extra more fields kept in the file for readers (e.g. the simulation request), not read back.
   */
  put(key: string, settings: unknown, value: V, extra: Record<string, unknown> = {}): void {
    writeJsonAtomic(this.fileOf(key), { ...extra, key, settings: settingsHash(settings), code: codeIdentity(), value });
    this.written++;
  }

  /** Cells this run holds (resumed + written), for progress and interrupt messages. */
  get saved(): number {
    return this.resumed + this.written;
  }
}
