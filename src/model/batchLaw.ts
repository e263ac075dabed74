/**
 * Batch size laws (theory.md §15): the number X ≥ 1 of jobs per arrival epoch when it is random. Epochs come at rate
 * λn/E[X], so λ stays the job rate per server. The model field `batch` takes a fixed K (an integer) or a law:
 * - `geometric` (short form `geom:MEAN`): P(X = k) = (1 − q)q^{k−1}, k ≥ 1, q = 1 − 1/MEAN, MEAN > 1;
 * - `pmf` (short form `pmf:P1,P2,…`): P(X = k) = P_k, k = 1 … L, the P_k ≥ 0 summing to 1.
 * A pmf with one atom is that fixed K (the same model to the bit). A law needs `whole` dispatch: `spread` sends a
 * batch to K distinct servers of d, so K must be fixed. The normalised model keeps `batch` = E[X] and the law in
 * `batchLaw`.
 */
import { onFirstTouch, z } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';
import type { Rng } from '../stats/rng.ts';

/** A random batch size (module docstring). */
export type BatchSizeLaw = { readonly kind: 'geometric'; readonly mean: number } | { readonly kind: 'pmf'; readonly p: readonly number[] };

/** Largest geometric mean and pmf length accepted (a batch of 10³ jobs per epoch on average is far past any use). */
export const MAX_BATCH_MEAN = 1000;

const FORMS = 'an integer K ≥ 1, geom:MEAN (MEAN > 1) or pmf:P1,P2,… (P(X = 1), P(X = 2), …)';
const show = (v: unknown): string => (typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v)));
const numeric = (v: unknown): unknown => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);

/**
 * Expands the short form `geom:MEAN` | `geometric:MEAN` | `pmf:P1,P2,…` into the object form (numbers still strings).
 * @throws {InvalidModelError} naming the forms.
 */
export function parseBatchShort(text: string): Record<string, unknown> {
  const [name, ...rest] = text.trim().toLowerCase().split(':');
  const param = rest.join(':');
  switch (name) {
    case 'geom':
    case 'geometric':
      if (rest.length !== 1 || param === '') throw new InvalidModelError(`batch ${JSON.stringify(text)}: expected geom:MEAN (MEAN > 1)`);
      return { kind: 'geometric', mean: param };
    case 'pmf':
      if (rest.length !== 1 || param === '') throw new InvalidModelError(`batch ${JSON.stringify(text)}: expected pmf:P1,P2,… (P(X = k))`);
      return { kind: 'pmf', p: param.split(',') };
    default:
      throw new InvalidModelError(`unknown batch size ${JSON.stringify(text)}; expected ${FORMS}`);
  }
}

const geometricSchema = onFirstTouch(() =>
  z
    .object({
      kind: z.literal('geometric'),
      mean: z.preprocess(
        numeric,
        z
          .number({ error: (iss) => `batch geom mean must be a finite number, got ${show(iss.input)}` })
          .refine((m) => m > 1 && m <= MAX_BATCH_MEAN, {
            error: (iss) => `batch geom mean must be in (1, ${MAX_BATCH_MEAN}] (mean 1 is K = 1: give --batch 1), got ${show(iss.input)}`,
          }),
      ),
    })
    .strict(),
);

const pmfSchema = onFirstTouch(() =>
  z
    .object({
      kind: z.literal('pmf'),
      p: z
        .array(
          z.preprocess(
            numeric,
            z
              .number({ error: (iss) => `batch pmf entries must be finite numbers, got ${show(iss.input)}` })
              .refine((x) => x >= 0, { error: (iss) => `batch pmf entries must be ≥ 0, got ${show(iss.input)}` }),
          ),
        )
        .min(1, { error: 'batch pmf needs at least one entry P(X = 1)' })
        .max(MAX_BATCH_MEAN, { error: `batch pmf has at most ${MAX_BATCH_MEAN} entries (X ≤ ${MAX_BATCH_MEAN})` }),
    })
    .strict()
    .refine((law) => Math.abs(law.p.reduce((s, x) => s + x, 0) - 1) <= 1e-9, {
      error: (iss) => {
        const p = (iss.input as { p: number[] }).p;
        return `batch pmf entries must sum to 1 (within 1e-9), got ${p.reduce((s, x) => s + x, 0)}`;
      },
    }),
);

/** The object form of a law (after `parseBatchShort`). */
export const batchLawSchema = onFirstTouch(() =>
  z.discriminatedUnion('kind', [geometricSchema, pmfSchema], {
    error: (iss) => `unknown batch size ${show(iss.input)}; expected ${FORMS}`,
  }),
);

/**
 * A parsed law in normal form: trailing zeros of a pmf dropped and its entries divided by their sum (exactly 1); a
 * pmf with one atom K is returned as the number K (fixed batches).
 */
export function normaliseBatchLaw(law: BatchSizeLaw): BatchSizeLaw | number {
  if (law.kind === 'geometric') return Object.freeze({ kind: 'geometric', mean: law.mean });
  let last = law.p.length;
  while (last > 0 && law.p[last - 1] === 0) last--;
  const atoms = law.p.slice(0, last).filter((x) => x > 0).length;
  if (atoms === 1) return last;
  const total = law.p.slice(0, last).reduce((s, x) => s + x, 0);
  return Object.freeze({ kind: 'pmf', p: Object.freeze(law.p.slice(0, last).map((x) => x / total)) });
}

/** E[X] of a law (of a fixed K: K). */
export function batchMean(law: BatchSizeLaw | number): number {
  if (typeof law === 'number') return law;
  switch (law.kind) {
    case 'geometric':
      return law.mean;
    case 'pmf':
      return law.p.reduce((s, x, k) => s + (k + 1) * x, 0);
    default:
      return unknownLaw(law);
  }
}

/** E[X²]/E[X], the index of dispersion of the compound Poisson epochs' job count (K for a fixed K). */
export function batchDispersion(law: BatchSizeLaw | number): number {
  if (typeof law === 'number') return law;
  switch (law.kind) {
    case 'geometric':
      return 2 * law.mean - 1; // E[X²] = m²(1 + q) = 2m² − m
    case 'pmf':
      return law.p.reduce((s, x, k) => s + (k + 1) ** 2 * x, 0) / batchMean(law);
    default:
      return unknownLaw(law);
  }
}

/** The law in its short form: `geom:2.5`, `pmf:0.5,0,0.5`, or the fixed K as a string. */
export function formatBatch(law: BatchSizeLaw | number): string {
  if (typeof law === 'number') return String(law);
  switch (law.kind) {
    case 'geometric':
      return `geom:${law.mean}`;
    case 'pmf':
      return `pmf:${law.p.join(',')}`;
    default:
      return unknownLaw(law);
  }
}

/** Where a geometric law's table is cut: P(X ≥ L) below this. */
const GEOMETRIC_TAIL_CUT = 1e-18;

/**
 * The law as tables for the mean-field recursions: pmf[l] = P(X = l) and ccdf[l] = P(X ≥ l) for l = 1 … L (index 0
 * unused), the atoms (l with P(X = l) > 0, increasing) and the mean. A fixed K is the point mass (pmf[K] = 1,
 * ccdf[l] = 1 for l ≤ K); a geometric law is cut at the L where P(X ≥ L + 1) < 1e−18.
 */
export interface BatchSizeTable {
  readonly mean: number;
  readonly maxSize: number;
  readonly pmf: Float64Array;
  readonly ccdf: Float64Array;
  readonly atoms: Int32Array;
}

/** `BatchSizeTable` of a law or a fixed K (see the type). */
export function batchSizeTable(law: BatchSizeLaw | number): BatchSizeTable {
  let p: number[];
  if (typeof law === 'number') {
    p = new Array<number>(law).fill(0);
    p[law - 1] = 1;
  } else if (law.kind === 'geometric') {
    const q = 1 - 1 / law.mean;
    p = [];
    for (let tail = 1; tail >= GEOMETRIC_TAIL_CUT; tail *= q) p.push((1 - q) * tail);
  } else p = [...law.p];
  const L = p.length;
  const pmf = new Float64Array(L + 1);
  const ccdf = new Float64Array(L + 2);
  for (let l = 1; l <= L; l++) pmf[l] = p[l - 1];
  if (typeof law !== 'number' && law.kind === 'geometric') {
    const q = 1 - 1 / law.mean;
    for (let l = 1, tail = 1; l <= L; l++, tail *= q) ccdf[l] = tail; // exact P(X ≥ l) = q^{l−1}
  } else for (let l = L; l >= 1; l--) ccdf[l] = ccdf[l + 1] + pmf[l];
  const atoms = Int32Array.from(p.flatMap((x, i) => (x > 0 ? [i + 1] : [])));
  return { mean: batchMean(law), maxSize: L, pmf, ccdf: ccdf.subarray(0, L + 1), atoms };
}

/**
 * A sampler of batch sizes for the simulator: geometric by inversion (1 + ⌊log U / log q⌋), a pmf by its cdf (one
 * uniform per batch either way).
 */
export function batchSampler(law: BatchSizeLaw): (rng: Rng) => number {
  switch (law.kind) {
    case 'geometric': {
      const logQ = Math.log(1 - 1 / law.mean);
      return (rng) => 1 + Math.floor(Math.log(1 - rng.nextDouble()) / logQ);
    }
    case 'pmf': {
      const cdf = new Float64Array(law.p.length);
      let s = 0;
      law.p.forEach((x, i) => (cdf[i] = s += x));
      const last = law.p.length;
      return (rng) => {
        const u = rng.nextDouble() * s;
        let k = 0;
        while (k < last - 1 && cdf[k] <= u) k++;
        return k + 1;
      };
    }
    default:
      return unknownLaw(law);
  }
}

function unknownLaw(law: never): never {
  throw new InvalidModelError(`unknown batch size law ${JSON.stringify(law)}`);
}
