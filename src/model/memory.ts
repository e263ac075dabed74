/**
 * Dispatcher memory (theory.md §12; T. Hellemans, PhD thesis, Univ. Antwerp 2021, ch. 6): the dispatcher keeps the
 * ids of servers it knows to be idle and sends a job to one of them when it has any, else by the selection rule on d
 * sampled servers (SQ(d) = JSQ(d) or LL(d) = LWL(d)). The schemes differ in how ids enter the memory:
 * - `none`: no memory (the classic rule);
 * - `ip`, interrupted probing: when the memory is empty the d probed servers' idle ones (other than the one that
 *   gets the job) are stored; no probes while the memory holds ids (it holds at most d − 1);
 * - `cp`, continuous probing: every arrival probes d servers and stores every idle one it finds; unbounded memory;
 * - `bcp`, bounded continuous probing: CP with at most `capacity` = A ids;
 * - `ism`, idle-server messages: a server that becomes idle tells the dispatcher, which stores its id if it holds
 *   fewer than A. With d = 1 this is join-idle-queue with memory A; `--selection jiq` is the classic JIQ (Lu et al.
 *   2011): every idle server known (unbounded memory), else a uniformly random server.
 */
import { onFirstTouch, z } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';

/** The memory schemes, in the thesis's order (ch. 6 §"Discovering idle servers"). */
export const MEMORY_SCHEMES = ['none', 'ip', 'cp', 'bcp', 'ism'] as const;
export type MemoryScheme = (typeof MEMORY_SCHEMES)[number];

/** The dispatcher's memory: a scheme, and for BCP and ISM the memory size A (ids, integer ≥ 1). */
export type MemorySpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'ip' }
  | { readonly kind: 'cp' }
  | { readonly kind: 'bcp'; readonly capacity: number }
  | { readonly kind: 'ism'; readonly capacity: number };

/** The default: no memory. */
export const NO_MEMORY: MemorySpec = Object.freeze({ kind: 'none' });

const FORMS = 'none, ip, cp, bcp:A or ism:A (A an integer ≥ 1)';

const capacitySchema = onFirstTouch(() =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
    z
      .number({
        error: (iss) =>
          iss.input === undefined
            ? 'memory capacity is missing: the memory size A, an integer ≥ 1'
            : `memory size A must be an integer ≥ 1, got ${JSON.stringify(iss.input)}`,
      })
      .refine((x) => Number.isInteger(x) && x >= 1, { error: (iss) => `memory size A must be an integer ≥ 1, got ${String(iss.input)}` }),
  ),
);

/**
 * Expands the short form `none | ip | cp | bcp:A | ism:A` into the object form (A still a string).
 * @throws {InvalidModelError} naming the expected forms (e.g. `bcp` without A, `ip:3`).
 */
export function parseMemoryShort(text: string): Record<string, unknown> {
  const [name, ...params] = text.trim().toLowerCase().split(':');
  if (!(MEMORY_SCHEMES as readonly string[]).includes(name)) {
    throw new InvalidModelError(`unknown memory ${JSON.stringify(text)}; expected ${FORMS}`);
  }
  const sized = name === 'bcp' || name === 'ism';
  if (sized && params.length !== 1) {
    throw new InvalidModelError(
      `memory ${JSON.stringify(text)}: ${name} needs a memory size, ${name}:A with A an integer ≥ 1` +
        (name === 'ism' ? ' (--selection jiq is JIQ with unbounded memory)' : ''),
    );
  }
  if (!sized && params.length !== 0) {
    throw new InvalidModelError(
      `memory ${JSON.stringify(text)}: ${name} takes no size (${name === 'cp' ? 'CP memory is unbounded; bcp:A bounds it' : 'IP holds at most d − 1 ids'})`,
    );
  }
  return sized ? { kind: name, capacity: params[0] } : { kind: name };
}

/** The memory as written in files and flags: an object `{ kind, capacity? }` or a short form (`parseMemoryShort`). */
export const memorySchema = onFirstTouch(() =>
  z.preprocess(
    (value) => (typeof value === 'string' ? parseMemoryShort(value) : value),
    z.discriminatedUnion(
      'kind',
      // a field its kind does not have ({ kind: 'bcp', A: 3 }): unknownKeyMessage (the parse's error map) names it and the kind's fields
      [
        z.object({ kind: z.literal('none') }).strict(),
        z.object({ kind: z.literal('ip') }).strict(),
        z.object({ kind: z.literal('cp') }).strict(),
        z.object({ kind: z.literal('bcp'), capacity: capacitySchema }).strict(),
        z.object({ kind: z.literal('ism'), capacity: capacitySchema }).strict(),
      ],
      {
        error: (iss) => {
          if (typeof iss.input !== 'object' || iss.input === null)
            return `memory must be ${FORMS}, or an object such as {"kind":"bcp","capacity":5}`;
          const kind = (iss.input as { kind?: unknown }).kind;
          if (kind === undefined)
            return `memory needs a kind (${MEMORY_SCHEMES.join(', ')}); got the field${Object.keys(iss.input).length === 1 ? '' : 's'} ${Object.keys(
              iss.input,
            )
              .map((k) => JSON.stringify(k))
              .join(', ')}`;
          return `unknown memory kind ${JSON.stringify(kind)}; expected one of: ${MEMORY_SCHEMES.join(', ')}`;
        },
      },
    ),
  ),
);

/** The short form of a memory spec: `none`, `ip`, `cp`, `bcp:5`, `ism:10`. */
export function formatMemory(memory: MemorySpec): string {
  switch (memory.kind) {
    case 'none':
    case 'ip':
    case 'cp':
      return memory.kind;
    case 'bcp':
    case 'ism':
      return `${memory.kind}:${memory.capacity}`;
    default:
      return unreachable(memory);
  }
}

/**
 * The memory a run acts on: the model's, except that `jiq` selection without a memory means ISM with unbounded
 * memory (capacity +∞: every idle server is known), the classic join-idle-queue.
 */
export interface EffectiveMemory {
  readonly kind: MemoryScheme;
  /** Ids the memory can hold: A for BCP and ISM, +∞ for CP and classic JIQ, d − 1 for IP, 0 for none. */
  readonly capacity: number;
}

/**
 * The effective memory of a (selection, d, memory) triple; see `EffectiveMemory`.
 * @param selection the model's selection rule name.
 */
export function effectiveMemory(selection: string, d: number, memory: MemorySpec): EffectiveMemory {
  if (selection === 'jiq' && memory.kind === 'none') return { kind: 'ism', capacity: Infinity };
  switch (memory.kind) {
    case 'none':
      return { kind: 'none', capacity: 0 };
    case 'ip':
      return { kind: 'ip', capacity: Math.max(0, d - 1) };
    case 'cp':
      return { kind: 'cp', capacity: Infinity };
    case 'bcp':
    case 'ism':
      return { kind: memory.kind, capacity: memory.capacity };
    default:
      return unreachable(memory);
  }
}

/**
 * Refuses memory settings with no meaning or no effect (one line each): memory with `random` (use `jiq`) or `lpw`
 * selection (the thesis covers SQ(d) and LL(d)); a probing scheme (IP, CP, BCP) with d = 1, where a probe never
 * finds a second idle server to remember; `jiq` with a probing scheme (jiq samples no servers: d is taken as 1, as
 * the selection table's samplesD says, like `random`).
 * @throws {InvalidModelError}
 */
export function checkMemory(selection: string, d: number, memory: MemorySpec): void {
  const error = memoryError(selection, d, memory);
  if (error !== undefined) throw new InvalidModelError(error);
}

/**
 * Why a memory cannot act with a selection rule at d (the sentence `checkMemory` throws), or undefined when it can.
 * Grid files apply a memory coordinate to the policies it can act on (as they apply a prediction), with this rule.
 */
export function memoryError(selection: string, d: number, memory: MemorySpec): string | undefined {
  if (selection === 'jiq') {
    if (memory.kind !== 'none' && memory.kind !== 'ism') {
      return `selection jiq learns idle servers from their messages: memory must be none (unbounded) or ism:A, got ${formatMemory(memory)}`;
    }
    return undefined;
  }
  if (memory.kind === 'none') return undefined;
  if (selection === 'random') {
    return `memory ${formatMemory(memory)} with random selection: use --selection jiq (d = 1 with ISM) or jsq/lwl with d samples`;
  }
  if (selection !== 'jsq' && selection !== 'lwl') {
    return `memory ${formatMemory(memory)} works with jsq (SQ(d)) or lwl (LL(d)) selection (thesis ch. 6), got ${selection}`;
  }
  if (d === 1 && memory.kind !== 'ism') {
    return `memory ${formatMemory(memory)} has no effect with d = 1: a probe never finds a second idle server to remember (use ism:A, or d ≥ 2)`;
  }
  return undefined;
}

/**
 * The canonical short form of a memory as written (`"BCP:05"` → `"bcp:5"`).
 * @throws {InvalidModelError} naming the expected forms.
 */
export function canonicalMemory(text: string): string {
  const result = memorySchema.safeParse(text);
  if (!result.success) throw new InvalidModelError(result.error.issues[0]?.message ?? `unknown memory ${JSON.stringify(text)}`);
  return formatMemory(result.data as MemorySpec);
}

/**
 * True when a model's dispatcher has a memory: a memory scheme other than none, or `jiq` selection (unbounded ISM).
 * Tolerates models built without the field (older literals).
 */
export function modelHasMemory(model: { readonly selection: string; readonly memory?: MemorySpec }): boolean {
  return isJiq(model.selection) || (model.memory !== undefined && model.memory.kind !== 'none');
}

/**
 * The error of a solver that has no memory term, called on a model with memory: `solveMeanField` answers such
 * models through the reduction theorem (meanfield/memory/reduction.ts); the solvers behind it must not drop the memory.
 */
export function memoryNotHere(model: { readonly selection: string; readonly memory?: MemorySpec }): InvalidModelError {
  const what =
    model.memory === undefined || model.memory.kind === 'none' ? `selection ${model.selection}` : `memory ${formatMemory(model.memory)}`;
  return new InvalidModelError(
    `this solver has no dispatcher memory term (${what}); use solveMeanField, which applies the reduction theorem (theory.md §12)`,
  );
}

function unreachable(value: never): never {
  throw new Error(`internal error: no branch for memory ${JSON.stringify(value)}`);
}

/** True for the classic join-idle-queue selection rule (`jiq`): d = 1, idle servers learned from their messages. */
export function isJiq(selection: string): boolean {
  return selection === 'jiq';
}

/**
 * Whether a memory (short form) can act with a selection rule at d (`memoryError` is undefined); `none` always can.
 * @throws {InvalidModelError} for a malformed memory.
 */
export function memoryApplies(selection: string, d: number, memory: string): boolean {
  return memoryError(selection, d, memorySchema.parse(memory) as MemorySpec) === undefined;
}
