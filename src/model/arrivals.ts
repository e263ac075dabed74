/**
 * The arrival process of the single dispatcher (theory.md §14): jobs reach the dispatcher at total rate λn, one at a
 * time, and each is dispatched on its own (batches: model field `batch`).
 * - `exponential`: Poisson arrivals (the classic model; the default);
 * - `deterministic`, `erlang` (k phases), `hyperexponential` (balanced two-phase, squared coefficient of variation
 *   `scv` > 1): a renewal stream whose inter-arrival times have that law with mean 1/(λn);
 * - `mmpp`: a two-state Markov-modulated Poisson process. In phase i the arrival rate is λn·rᵢ/r̄ and the phase
 *   switches 1 → 2 at rate `switching[0]` = q₁₂, 2 → 1 at `switching[1]` = q₂₁ (per time unit, not scaled with
 *   n), where r̄ = π₁r₁ + π₂r₂ with π₁ = q₂₁/(q₁₂ + q₂₁), π₂ = 1 − π₁: the relative `rates` r₁, r₂ ≥ 0 are
 *   normalised so that the mean rate is λn. Short form `mmpp:R1,R2,Q12,Q21`.
 *
 * Mean field: a renewal stream of rate λn from one dispatcher has the Poisson fluid limit (only the rate survives the
 * law of large numbers); the MMPP's phase switches on the O(1) time scale, so its limit is an ODE driven by the phase
 * process, not the Poisson fixed point (theory.md §14).
 */
import { onFirstTouch, z } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';

/** The arrival kinds, Poisson first. */
export const ARRIVAL_KINDS = ['exponential', 'deterministic', 'erlang', 'hyperexponential', 'mmpp'] as const;
export type ArrivalKind = (typeof ARRIVAL_KINDS)[number];

/** The dispatcher's arrival process (module docstring). */
export type ArrivalSpec =
  | { readonly kind: 'exponential' }
  | { readonly kind: 'deterministic' }
  | { readonly kind: 'erlang'; readonly k: number }
  | { readonly kind: 'hyperexponential'; readonly scv: number }
  | { readonly kind: 'mmpp'; readonly rates: readonly [number, number]; readonly switching: readonly [number, number] };

/** A renewal arrival law (every kind but mmpp). */
export type RenewalArrivalSpec = Exclude<ArrivalSpec, { readonly kind: 'mmpp' }>;

/** The default: Poisson arrivals. */
export const POISSON_ARRIVALS: ArrivalSpec = Object.freeze({ kind: 'exponential' });

const FORMS = 'exp, det, erlang:K, hyperexp:SCV or mmpp:R1,R2,Q12,Q21';

const ALIASES: Record<string, ArrivalKind> = {
  exp: 'exponential',
  exponential: 'exponential',
  poisson: 'exponential',
  det: 'deterministic',
  deterministic: 'deterministic',
  erlang: 'erlang',
  hyperexp: 'hyperexponential',
  h2: 'hyperexponential',
  hyperexponential: 'hyperexponential',
  mmpp: 'mmpp',
};

const numeric = (v: unknown): unknown => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
const show = (v: unknown): string => (typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v)));
const num = (field: string, ok: (x: number) => boolean, bound: string) =>
  z.preprocess(
    numeric,
    z
      .number({ error: (iss) => `${field} must be a finite number, got ${show(iss.input)}` })
      .refine(ok, { error: (iss) => `${field} must be ${bound}, got ${show(iss.input)}` }),
  );

/**
 * Expands the short form `exp | det | erlang:K | hyperexp:SCV | mmpp:R1,R2,Q12,Q21` into the object form (numbers
 * still strings).
 * @throws {InvalidModelError} naming the expected forms.
 */
export function parseArrivalsShort(text: string): Record<string, unknown> {
  const [name, ...params] = text.trim().toLowerCase().split(':');
  const kind = ALIASES[name];
  if (kind === undefined) throw new InvalidModelError(`unknown arrivals ${JSON.stringify(text)}; expected ${FORMS}`);
  const need = (count: number, form: string): void => {
    if (params.length !== count) throw new InvalidModelError(`arrivals ${JSON.stringify(text)}: expected ${form}`);
  };
  switch (kind) {
    case 'exponential':
    case 'deterministic':
      need(0, name);
      return { kind };
    case 'erlang':
      need(1, 'erlang:K (K an integer ≥ 1)');
      return { kind, k: params[0] };
    case 'hyperexponential':
      need(1, 'hyperexp:SCV (SCV > 1)');
      return { kind, scv: params[0] };
    case 'mmpp': {
      need(1, 'mmpp:R1,R2,Q12,Q21 (relative rates R1, R2 ≥ 0; switching rates Q12, Q21 > 0 per time unit)');
      const parts = params[0].split(',');
      if (parts.length !== 4)
        throw new InvalidModelError(
          `arrivals ${JSON.stringify(text)}: expected mmpp:R1,R2,Q12,Q21 (four numbers: relative rates, then switching rates)`,
        );
      return { kind, rates: parts.slice(0, 2), switching: parts.slice(2) };
    }
    default:
      return unreachable(kind);
  }
}

/**
 * Upper bounds of the arrival parameters: beyond them the law is its limit within the simulation's resolution and the
 * run only slows down (an Erlang sample costs k draws; an MMPP draws one event per phase switch) or the balanced H₂
 * loses its slow branch to rounding (p₂ ≈ 1/(2·scv) underflows against 1 near scv ≈ 1e16, which would silently
 * double the arrival rate).
 */
export const ARRIVAL_LIMITS = { erlangK: 1000, hyperexpScv: 1e6, mmppSwitching: 1e3 } as const;

const rate = onFirstTouch(() => num('mmpp relative rate', (x) => x >= 0, '≥ 0'));
const switching = onFirstTouch(() =>
  num(
    'mmpp switching rate',
    (x) => x > 0 && x <= ARRIVAL_LIMITS.mmppSwitching,
    `in (0, ${ARRIVAL_LIMITS.mmppSwitching}] per time unit (faster switching averages to Poisson at the mean rate: use exp)`,
  ),
);

/** The arrival process as written in files and flags: an object `{ kind, … }` or a short form (`parseArrivalsShort`). */
export const arrivalsSchema = onFirstTouch(() =>
  z.preprocess(
    (value) => (typeof value === 'string' ? parseArrivalsShort(value) : value),
    z.discriminatedUnion(
      'kind',
      [
        z.object({ kind: z.literal('exponential') }).strict(),
        z.object({ kind: z.literal('deterministic') }).strict(),
        z
          .object({
            kind: z.literal('erlang'),
            k: num(
              'arrivals erlang k',
              (x) => Number.isInteger(x) && x >= 1 && x <= ARRIVAL_LIMITS.erlangK,
              `an integer in [1, ${ARRIVAL_LIMITS.erlangK}] (a larger k is det to within SCV 1/k: use det)`,
            ),
          })
          .strict(),
        z
          .object({
            kind: z.literal('hyperexponential'),
            scv: num(
              'arrivals hyperexponential scv',
              (x) => x > 1 && x <= ARRIVAL_LIMITS.hyperexpScv,
              `in (1, 1e6] (use erlang or exp for scv ≤ 1)`,
            ),
          })
          .strict(),
        z
          .object({
            kind: z.literal('mmpp'),
            rates: z
              .tuple([rate, rate], { error: () => 'mmpp rates must be two relative rates [r1, r2]' })
              .refine((r) => r[0] + r[1] > 0, { error: () => 'mmpp rates must not both be 0' }),
            switching: z.tuple([switching, switching], { error: () => 'mmpp switching must be two rates [q12, q21]' }),
          })
          .strict(),
      ],
      {
        error: (iss) =>
          typeof iss.input !== 'object' || iss.input === null
            ? `arrivals must be ${FORMS}, or an object such as {"kind":"erlang","k":2}`
            : `unknown arrivals kind ${show((iss.input as { kind?: unknown }).kind)}; expected one of: ${ARRIVAL_KINDS.join(', ')}`,
      },
    ),
  ),
);

/** The short form of an arrival spec: `exp`, `det`, `erlang:2`, `hyperexp:4`, `mmpp:1,3,0.1,0.2`. */
export function formatArrivals(arrivals: ArrivalSpec): string {
  switch (arrivals.kind) {
    case 'exponential':
      return 'exp';
    case 'deterministic':
      return 'det';
    case 'erlang':
      return `erlang:${arrivals.k}`;
    case 'hyperexponential':
      return `hyperexp:${arrivals.scv}`;
    case 'mmpp':
      return `mmpp:${[...arrivals.rates, ...arrivals.switching].join(',')}`;
    default:
      return unreachable(arrivals);
  }
}

/**
 * The canonical short form of an arrival process as written (`"Erlang:02"` → `"erlang:2"`, `"poisson"` → `"exp"`).
 * @throws {InvalidModelError} naming the expected forms or the parameter out of range.
 */
export function canonicalArrivals(text: string): string {
  const result = arrivalsSchema.safeParse(text);
  if (!result.success) throw new InvalidModelError(result.error.issues[0]?.message ?? `unknown arrivals ${JSON.stringify(text)}`);
  return formatArrivals(result.data as ArrivalSpec);
}

/** True for Poisson arrivals; tolerates model literals built without the field (older code). */
export function hasPoissonArrivals(model: { readonly arrivals?: ArrivalSpec }): boolean {
  return model.arrivals === undefined || model.arrivals.kind === 'exponential';
}

/** True for a renewal stream other than Poisson (deterministic, Erlang, hyperexponential). */
export function isRenewalArrivals(arrivals: ArrivalSpec): arrivals is RenewalArrivalSpec {
  return arrivals.kind !== 'mmpp';
}

/**
 * The MMPP's phase rates normalised to mean λ per server: [λr₁/r̄, λr₂/r̄], with the stationary phase law [π₁, π₂]
 * (module docstring). Multiply the rates by n for the dispatcher's stream.
 */
export function mmppPhaseRates(
  spec: Extract<ArrivalSpec, { kind: 'mmpp' }>,
  lambda: number,
): { rates: [number, number]; stationary: [number, number] } {
  const [q12, q21] = spec.switching;
  const p1 = q21 / (q12 + q21);
  const mean = p1 * spec.rates[0] + (1 - p1) * spec.rates[1];
  return { rates: [(lambda * spec.rates[0]) / mean, (lambda * spec.rates[1]) / mean], stationary: [p1, 1 - p1] };
}

/**
 * The squared coefficient of variation of the inter-arrival time of a renewal law (0 deterministic, 1/k Erlang,
 * 1 Poisson, scv hyperexponential).
 */
export function arrivalScv(arrivals: RenewalArrivalSpec): number {
  switch (arrivals.kind) {
    case 'exponential':
      return 1;
    case 'deterministic':
      return 0;
    case 'erlang':
      return 1 / arrivals.k;
    case 'hyperexponential':
      return arrivals.scv;
    default:
      return unreachable(arrivals);
  }
}

function unreachable(value: never): never {
  throw new Error(`internal error: no branch for arrivals ${JSON.stringify(value)}`);
}

/**
 * The error of a solver built on the Poisson fluid limit, called on an MMPP model (theory.md §14: the phase moves
 * on the O(1) time scale, so the limit is not the Poisson one); renewal streams pass (their limit is Poisson's).
 * @throws {InvalidModelError} for an MMPP.
 */
export function requirePoissonLimit(model: { readonly arrivals?: ArrivalSpec }): void {
  if (model.arrivals?.kind === 'mmpp')
    throw new InvalidModelError(
      `no mean-field solver for arrivals ${formatArrivals(model.arrivals)}: the phase switches at O(1) rates, so the n → ∞ limit is not the Poisson one (theory.md §14); use simulate`,
    );
}

/**
 * The error of a finite-n chain derived for Poisson arrivals (exact solver, occupancy-chain engine), called on a model
 * with another arrival process.
 * @throws {InvalidModelError} naming the arrivals and the engine.
 */
export function requirePoissonArrivals(model: { readonly arrivals?: ArrivalSpec }, what: string): void {
  if (model.arrivals !== undefined && model.arrivals.kind !== 'exponential')
    throw new InvalidModelError(
      `${what} is the Markov chain of Poisson arrivals, not arrivals ${formatArrivals(model.arrivals)} (theory.md §14); use simulate`,
    );
}
