/**
 * The project's one JSON text encoding of non-finite numbers, pure (no I/O: the CLI, the report writers, the cell
 * store and the browser explorer all use it; src/io/json.ts re-exports it). JSON has no Infinity, and JSON.stringify
 * writes it as null and loses why. Every JSON file and `--json` output of the project is written by `jsonText`
 * (README "JSON formats of ∞"):
 *
 * - a mean infinite in theory (E[T], E[Q], E[U], E[T/S], a limit E[T]∞), computed or simulated, is the one ∞ object
 *   `{ "mean": null, "infinite": true, "reason": "E[S²] = ∞ (pareto α = 1.5 ≤ 2): …" }` (`infiniteJson`, `meanJson`),
 *   with no interval fields, not even null ones. A simulated estimate (stats/tInterval.ts `infiniteEstimate`) adds what
 *   the run was, `replications` and `sampleMean` (the run's finite average, which estimates nothing):
 *   `{ "mean": null, "infinite": true, "reason", "replications", "sampleMean" }`. `parseJsonText` reads the ∞ object
 *   back as mean = +∞, and an estimate's (it has `replications`) with ci95 = [+∞, +∞] and halfWidth = +∞ as
 *   `infiniteEstimate` builds it in memory (the library's form: `simulate()` returns that). The older estimate form
 *   with `ci95: null, halfWidth: null` (files before 2026-12-03) is read back the same way;
 * - a finite estimate whose interval is open at an end (a percentile whose cdf interval reaches level 1: upper end +∞)
 *   has that end and halfWidth null and `ci95Infinite: true`, read back as ±∞ (null lower −∞, upper +∞).
 *
 * Flat rows (figure data, CSV) cannot hold an object: there the value is null beside `infinite: true` (and `reason`),
 * report/figures.ts `estimateFields`. A limit with no value that is not ∞ (not settled, or finite but not computed) is
 * `{ "mean": null, "unsettled": true, "reason" }` or `{ "mean": null, "notComputed": true, "reason" }` (`unvaluedJson`),
 * read back as the status it is: its flag and reason kept, mean NaN (no number, in memory as compare holds it), never
 * a bare null mean; `unvaluedStatusOf` names the status. A simulated mean not settled (stats/tInterval.ts
 * `unsettledEstimate`) is that object with its run, `{ "mean": null, "unsettled": true, "reason", "replications",
 * "sampleMean" }` (`unsettledObject`), read back with mean, ci95 and halfWidth NaN as the library holds it; the form of
 * 2026-12-03 (`mean` the run's average, `unsettled` the reason) reads back the same. A bare null (or a bare non-finite number, which JSON.stringify writes as null)
 * means "no such value" (NaN), never ∞: a writer gives an infinite mean as `meanJson(x, reason)`.
 */

/** The JSON form of a quantity that is infinite in theory (a mean, a limit): null mean, the flag and why. */
export interface InfiniteJson {
  readonly mean: null;
  readonly infinite: true;
  /** Why it is infinite, in words (model/moments.ts `estimandFiniteness` and `meanFieldFiniteness` give them). */
  readonly reason: string;
}

/**
 * The ∞ object of a quantity infinite in theory.
 * @param reason why, in words (non-empty). @example infiniteJson('E[S²] = ∞ (pareto α = 1.5 ≤ 2)')
 *   // { mean: null, infinite: true, reason: 'E[S²] = ∞ (pareto α = 1.5 ≤ 2)' }
 */
export function infiniteJson(reason: string): InfiniteJson {
  return { mean: null, infinite: true, reason };
}

/**
 * The JSON form of a limit that has no value but is not ∞ (compare's E[T]∞ and E[Q]∞, compare/verdict.ts
 * `UnvaluedStatus`): null mean and what is known, `unsettled: true` (neither proven finite nor ∞, model/moments.ts
 * `meanFieldUnsettled`) or `notComputed: true` (proven finite, no number here), and why. Never `infinite`.
 */
export type UnvaluedJson =
  | { readonly mean: null; readonly unsettled: true; readonly reason: string }
  | { readonly mean: null; readonly notComputed: true; readonly reason: string };

/**
 * The object of a limit with no value (`UnvaluedJson`). @param status 'not-settled' or 'not-computed'.
 * @param reason why, in words. @example unvaluedJson('not-settled', 'E[T]∞ not settled: …')
 *   // { mean: null, unsettled: true, reason: 'E[T]∞ not settled: …' }
 */
export function unvaluedJson(status: 'not-settled' | 'not-computed', reason: string): UnvaluedJson {
  return status === 'not-settled' ? { mean: null, unsettled: true, reason } : { mean: null, notComputed: true, reason };
}

/**
 * The status of a limit with no value as `unvaluedJson` writes it and `parseJsonText` reads it back (mean null or
 * NaN beside `unsettled: true` or `notComputed: true`): 'not-settled' or 'not-computed' (compare/verdict.ts
 * `UnvaluedStatus`), or null for any other value (a number, the ∞ object, a bare null).
 * @example unvaluedStatusOf(parseJsonText('{"mean":null,"notComputed":true,"reason":"r"}')) // 'not-computed'
 */
export function unvaluedStatusOf(value: unknown): 'not-settled' | 'not-computed' | null {
  if (value === null || typeof value !== 'object' || !('mean' in value)) return null;
  const v = value as { mean: unknown; unsettled?: unknown; notComputed?: unknown };
  if (!(v.mean === null || (typeof v.mean === 'number' && Number.isNaN(v.mean)))) return null;
  if (v.unsettled === true) return 'not-settled';
  if (v.notComputed === true) return 'not-computed';
  return null;
}

/**
 * A mean as JSON: the number when finite, the ∞ object (`infiniteJson`) when +∞, null when NaN (no such value).
 * @param x the mean (time units, jobs, … as its field says). @param reason why it is infinite, used only when x = +∞.
 * @throws {RangeError} if x is −∞ (no mean of ours is).
 */
export function meanJson(x: number, reason: string): number | InfiniteJson | null {
  if (Number.isFinite(x)) return x;
  if (x === Infinity) return infiniteJson(reason);
  if (Number.isNaN(x)) return null;
  throw new RangeError(`a mean of −∞ has no JSON form (${reason})`);
}

/** The JSON form of a simulated estimate of a mean infinite in theory: the ∞ object and the run it came from. */
export interface InfiniteEstimateJson extends InfiniteJson {
  /** Replications (or batches) of the run. */
  readonly replications: number;
  /** The run's finite average: it grows with the run and estimates nothing. */
  readonly sampleMean: number;
}

/**
 * The one ∞ object of a value marked infinite (a quantity's ∞ object, or an estimate from `infiniteEstimate`): mean
 * null, the flag and the reason first, then its other fields but the interval ones (`ci95`, `halfWidth`), which a mean
 * of +∞ has none of. @example infiniteObject({ mean: Infinity, ci95: [Infinity, Infinity], halfWidth: Infinity,
 * infinite: true, reason: 'E[1/S] = ∞', replications: 5, sampleMean: 8.3 })
 * // { mean: null, infinite: true, reason: 'E[1/S] = ∞', replications: 5, sampleMean: 8.3 }
 */
export function infiniteObject(value: { infinite: true; reason?: string; [key: string]: unknown }): InfiniteJson & Record<string, unknown> {
  const { mean: _m, ci95: _c, halfWidth: _h, infinite: _i, reason, ...rest } = value;
  return { mean: null, infinite: true, reason: reason ?? 'infinite in theory', ...rest };
}

/**
 * The JSON form of a simulated mean that may be infinite with no rule settling it (stats/tInterval.ts
 * `unsettledEstimate`): the not-settled object of `unvaluedJson` and the run it came from, as the ∞ estimate has them.
 */
export interface UnsettledEstimateJson {
  readonly mean: null;
  readonly unsettled: true;
  /** Why the mean may be infinite and what leaves it open (model/moments.ts `meanResponseTimeUnsettled`). */
  readonly reason: string;
  /** Replications (or batches) of the run. */
  readonly replications: number;
  /** The run's average: an observation (it may grow with the run), not an estimate. */
  readonly sampleMean: number;
}

/**
 * The one not-settled object of a value marked `unsettled: true` (a limit's `unvaluedJson`, or an estimate from
 * `unsettledEstimate`): mean null, the flag and the reason first, then its other fields but the interval ones (`ci95`,
 * `halfWidth`), which a mean that is not settled has none of. @example unsettledObject({ mean: NaN, ci95: [NaN, NaN],
 * halfWidth: NaN, unsettled: true, reason: 'E[T] may be infinite: …', replications: 3, sampleMean: 1.45 })
 * // { mean: null, unsettled: true, reason: 'E[T] may be infinite: …', replications: 3, sampleMean: 1.45 }
 */
export function unsettledObject(value: { unsettled: true; reason?: string; [key: string]: unknown }): Record<string, unknown> {
  const { mean: _m, ci95: _c, halfWidth: _h, unsettled: _u, reason, ...rest } = value;
  return { mean: null, unsettled: true, reason: reason ?? 'not settled', ...rest };
}

/** Whether a value is marked not settled in the one form (`unsettled: true` beside a `mean`, in memory or JSON). */
function isUnsettledValue(value: unknown): value is { unsettled: true; reason?: string; [key: string]: unknown } {
  return value !== null && typeof value === 'object' && (value as { unsettled?: unknown }).unsettled === true && 'mean' in value;
}

/** Whether a value read back by `parseJsonText` (or built in memory) is the ∞ object or an infinite estimate. */
export function isInfiniteJson(value: unknown): value is { mean: number | null; infinite: true; reason?: string } {
  return value !== null && typeof value === 'object' && (value as { infinite?: unknown }).infinite === true && 'mean' in value;
}

function encodeInfinite(_key: string, value: unknown): unknown {
  if (isInfiniteJson(value)) return infiniteObject(value);
  if (isUnsettledValue(value)) return unsettledObject(value);
  if (isOpenInterval(value)) {
    const v = value as { ci95: [number, number]; halfWidth?: number };
    const { ci95, halfWidth } = v;
    return {
      ...v,
      ci95: ci95.map((x) => (Number.isFinite(x) ? x : null)),
      ...(halfWidth === undefined ? {} : { halfWidth: Number.isFinite(halfWidth) ? halfWidth : null }),
      ci95Infinite: true,
    };
  }
  return value;
}

/** A finite estimate whose interval has an infinite end (a percentile's `cdfSectioningInterval` reaching level 1). */
function isOpenInterval(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || !('mean' in value)) return false;
  const ci95 = (value as { ci95?: unknown }).ci95;
  return Array.isArray(ci95) && ci95.length === 2 && ci95.some((x) => typeof x === 'number' && !Number.isFinite(x) && !Number.isNaN(x));
}

function decodeInfinite(_key: string, value: unknown): unknown {
  // a limit with no value (`unvaluedJson`): the status it is, mean NaN (no number) beside its flag, not a bare null; a
  // simulated mean not settled (it has `replications`) in memory as `unsettledEstimate` builds it, interval NaN too
  if (unvaluedStatusOf(value) !== null && (value as { mean: unknown }).mean === null)
    return 'replications' in (value as object)
      ? { ...(value as object), mean: Number.NaN, ci95: [Number.NaN, Number.NaN], halfWidth: Number.NaN }
      : { ...(value as object), mean: Number.NaN };
  // the form simulate and run --json wrote on 2026-12-03 before the one form: the run's average as `mean`, the reason
  // as `unsettled` (a string), no interval: read back as the one form, the average an observation (`sampleMean`)
  if (
    value !== null &&
    typeof value === 'object' &&
    'replications' in value &&
    typeof (value as { unsettled?: unknown }).unsettled === 'string'
  ) {
    const { mean, unsettled, ...rest } = value as unknown as { mean?: unknown; unsettled: string };
    if (typeof mean === 'number')
      return {
        ...rest,
        mean: Number.NaN,
        ci95: [Number.NaN, Number.NaN],
        halfWidth: Number.NaN,
        unsettled: true,
        reason: unsettled,
        sampleMean: mean,
      };
  }
  if (value !== null && typeof value === 'object' && (value as { infinite?: unknown }).infinite === true) {
    const v = value as { mean?: unknown };
    // an estimate (it has `replications`; older files: null interval fields) in memory as `infiniteEstimate` builds it
    if (v.mean === null)
      return 'replications' in value || 'ci95' in value
        ? { ...value, mean: Infinity, ci95: [Infinity, Infinity], halfWidth: Infinity }
        : { ...value, mean: Infinity };
  }
  if (value !== null && typeof value === 'object' && (value as { ci95Infinite?: unknown }).ci95Infinite === true) {
    const { ci95Infinite: _, ...rest } = value as { ci95Infinite: true; ci95: [number | null, number | null]; halfWidth?: number | null };
    return {
      ...rest,
      ci95: [rest.ci95[0] ?? -Infinity, rest.ci95[1] ?? Infinity],
      ...(rest.halfWidth === undefined ? {} : { halfWidth: rest.halfWidth ?? Infinity }),
    };
  }
  return value;
}

/**
 * Whether JSON text may hold an estimate marked infinite or a limit with no value: it names a key "infinite",
 * "ci95Infinite", "unsettled" or "notComputed" (also true of other such keys, and
 * of none when false: then the encoding changes nothing). The replacer and reviver above cost a call per value, about
 * half of the time of writing or reading a stored cell or results.json, so text without the key goes without them.
 */
function mayHoldInfinite(text: string): boolean {
  return text.includes('"infinite"') || text.includes('"ci95Infinite"') || text.includes('"unsettled"') || text.includes('"notComputed"');
}

/** Whether JSON.stringify's text may have written an infinite interval end as null (`null]` or `[null`, any spacing). */
function mayHoldOpenInterval(text: string): boolean {
  return /null\s*\]|\[\s*null/.test(text);
}

/** JSON text of `value` with infinite quantities and estimates in the project's encoding (above). @param indent as JSON.stringify's. */
export function jsonText(value: unknown, indent?: number): string {
  const plain = JSON.stringify(value, null, indent);
  // no object marked infinite, no key "infinite" in the text: the replacer would have returned every value unchanged
  return plain !== undefined && (mayHoldInfinite(plain) || mayHoldOpenInterval(plain))
    ? JSON.stringify(value, encodeInfinite, indent)
    : plain;
}

/**
 * Parses JSON text, reading infinite estimates (above) back as +∞ and a limit with no value as its status (mean NaN,
 * flag and reason kept). @throws {SyntaxError} as JSON.parse.
 */
export function parseJsonText(text: string): unknown {
  return mayHoldInfinite(text) ? JSON.parse(text, decodeInfinite) : JSON.parse(text);
}
