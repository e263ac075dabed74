/**
 * Redundancy-d (theory.md §16): each job is replicated to d sampled servers instead of joining one by a selection
 * rule. A row per redundancy mode and per replica-size law; `resolveRedundancy` is the one place a model's
 * redundancy settings are checked and normalised:
 * - `none`: one copy per job (the field is dropped: the model is the plain one, to the bit);
 * - `cancel-on-start`: the first replica to start service runs, the others are cancelled. With FIFO servers the
 *   replica that starts first is the one at the sampled server with the least work left, so the job's response time
 *   is LL(d)'s: the alias resolves to selection `lwl` here, and the model is LWL(d)'s to the bit;
 * - `cancel-on-complete`: the replicas all queue; when the first completes the job leaves and its other replicas are
 *   removed (from the queue, or from service). Replica sizes: `independent` (iid from the service law; Gardner et
 *   al., Oper. Res. 2017) or `identical` (one size per job; Hellemans' thesis ch. 3).
 * Sources: Gardner, Harchol-Balter, Scheller-Wolf, Velednitsky & Zbarsky, "Redundancy-d: the power of d choices for
 * redundancy", Operations Research 65(4), 2017; T. Hellemans, PhD thesis, Univ. Antwerp 2021, ch. 3.
 */
import { InvalidModelError } from '../../errors.ts';
import { unknownPolicy } from './selection.ts';

/** One redundancy mode. */
export interface RedundancyRow {
  /** What happens to a job's replicas, for `--help` and the README. */
  readonly description: string;
}

export const REDUNDANCY_TABLE = {
  none: { description: 'one copy per job, placed by the selection rule' },
  'cancel-on-start': {
    description:
      'a replica on each of d sampled servers; the first to start runs, the others are cancelled (FIFO: the same as --selection lwl, LL(d))',
  },
  'cancel-on-complete': {
    description:
      'a replica on each of d sampled servers (FIFO); the first to complete ends the job, the others are removed from queue or service',
  },
} as const satisfies Record<string, RedundancyRow>;

/** A redundancy mode, as written in files and flags. */
export type Redundancy = keyof typeof REDUNDANCY_TABLE;
export const REDUNDANCIES = Object.keys(REDUNDANCY_TABLE) as [Redundancy, ...Redundancy[]];

export const REPLICA_TABLE = {
  independent: { description: "each replica's size drawn independently from the service law" },
  identical: { description: 'every replica of a job has the same size' },
} as const satisfies Record<string, RedundancyRow>;

/** How the sizes of a job's replicas relate (cancel-on-complete). */
export type ReplicaLaw = keyof typeof REPLICA_TABLE;
export const REPLICA_LAWS = Object.keys(REPLICA_TABLE) as [ReplicaLaw, ...ReplicaLaw[]];

/** The redundancy a normalised model keeps: cancel-on-complete with its replica law (the other modes resolve away). */
export interface RedundancySpec {
  readonly kind: 'cancel-on-complete';
  readonly replicas: ReplicaLaw;
}

/** The model fields `resolveRedundancy` reads. */
export interface RedundancyInput {
  readonly redundancy: Redundancy;
  readonly replicas?: ReplicaLaw;
  readonly selection: string;
  readonly discipline: string;
  readonly d: number;
  readonly memoryKind: string;
  readonly batch: number;
  readonly hetero: boolean;
}

/**
 * Checks the redundancy settings and resolves them (module docstring): `none` → nothing; `cancel-on-start` →
 * selection `lwl` (FIFO only); `cancel-on-complete` → the spec (replicas default `independent`).
 * The selection must be left at its default (`jsq`) or, for cancel-on-start, be `lwl`: redundancy places the job.
 * @returns `{ selection }` to override, and the spec to keep (absent for `none`, `cancel-on-start`).
 * @throws {InvalidModelError} one line: a replica law without cancel-on-complete, a discipline other than FIFO, a
 *   selection rule, a dispatcher memory, batches, or server speeds with cancel-on-complete.
 */
export function resolveRedundancy(m: RedundancyInput): { selection?: 'lwl'; spec?: RedundancySpec } {
  const mode = m.redundancy;
  if (mode !== 'cancel-on-complete' && m.replicas !== undefined)
    throw new InvalidModelError(`replicas ${m.replicas} has no effect without redundancy cancel-on-complete; drop it`);
  if (mode === 'none') return {};
  const what = `redundancy ${mode}`;
  if (m.selection !== 'jsq' && !(mode === 'cancel-on-start' && m.selection === 'lwl'))
    throw new InvalidModelError(
      `${what} places a replica on each of the d sampled servers: selection ${m.selection} has no effect; drop it`,
    );
  if (m.memoryKind !== 'none') throw new InvalidModelError(`${what} with a dispatcher memory (${m.memoryKind}) is not supported`);
  if (m.batch > 1) throw new InvalidModelError(`${what} with batches (batch size ${m.batch}) is not supported`);
  switch (mode) {
    case 'cancel-on-start':
      if (m.discipline !== 'fifo')
        throw new InvalidModelError(
          `redundancy cancel-on-start is LL(d) only with FIFO servers (the first replica to start is at the least-loaded server); discipline ${m.discipline} is not supported`,
        );
      return { selection: 'lwl' };
    case 'cancel-on-complete':
      if (m.discipline !== 'fifo')
        throw new InvalidModelError(
          `redundancy cancel-on-complete is implemented for FIFO servers; discipline ${m.discipline} is not supported`,
        );
      if (m.hetero) throw new InvalidModelError('redundancy cancel-on-complete with server speeds is not supported');
      return { spec: { kind: 'cancel-on-complete', replicas: m.replicas ?? 'independent' } };
    default:
      return unknownPolicy(mode, 'redundancy');
  }
}

/** The redundancy's words for output headers: `, cancel-on-complete (independent replicas)`; '' without. */
export function redundancyName(spec: RedundancySpec | undefined): string {
  return spec === undefined ? '' : `, ${spec.kind} (${spec.replicas} replicas)`;
}
