/**
 * Interval arithmetic and three-valued verdicts for conjecture claims.
 *
 * Every quantity is an interval [lo, hi]: a 95% CI for simulated or cavity estimates, [v − ε, v + ε] for a
 * deterministic solver with numerical error ε (ε = 0 gives a degenerate interval). The operations below return an
 * enclosure of { f(x, y) : x ∈ X, y ∈ Y } (Moore, *Interval Analysis*, 1966), so if every input interval holds its
 * true value, so does the result. A quantity used twice is treated as two independent intervals (the dependency
 * effect), which can only widen the result: the rule stays conservative.
 *
 * Verdict of a comparison L op R (op one of <, <=, >, >=): `holds` if the relation is true for every l ∈ L, r ∈ R;
 * `fails` if it is false for every pair; `undecided` otherwise. Connectives use Kleene's three-valued logic.
 */
import { InvalidModelError } from '../errors.ts';

/** A closed interval [lo, hi] with lo ≤ hi (±Infinity allowed when a division straddles 0). */
export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

export type Verdict = 'holds' | 'fails' | 'undecided';
export type ComparisonOperator = '<' | '<=' | '>' | '>=';

/** The degenerate interval [x, x]. */
export function point(x: number): Interval {
  return { lo: x, hi: x };
}

/**
 * Interval [lo, hi]. @throws {InvalidModelError} if an end is NaN or lo > hi.
 */
export function interval(lo: number, hi: number): Interval {
  if (Number.isNaN(lo) || Number.isNaN(hi) || lo > hi) throw new InvalidModelError(`interval needs lo ≤ hi, got [${lo}, ${hi}]`);
  return { lo, hi };
}

const ENTIRE: Interval = { lo: -Infinity, hi: Infinity };

function hull(values: readonly number[]): Interval {
  if (values.some(Number.isNaN)) return ENTIRE;
  return { lo: Math.min(...values), hi: Math.max(...values) };
}

/** X + Y = [a + c, b + d]. */
export function add(x: Interval, y: Interval): Interval {
  return { lo: x.lo + y.lo, hi: x.hi + y.hi };
}

/** X − Y = [a − d, b − c]. */
export function sub(x: Interval, y: Interval): Interval {
  return { lo: x.lo - y.hi, hi: x.hi - y.lo };
}

/** −X = [−b, −a]. */
export function neg(x: Interval): Interval {
  return { lo: -x.hi, hi: -x.lo };
}

/** X × Y: hull of the four end products (0 × ∞ counts as 0). */
export function mul(x: Interval, y: Interval): Interval {
  const p = (a: number, b: number) => (a === 0 || b === 0 ? 0 : a * b);
  return hull([p(x.lo, y.lo), p(x.lo, y.hi), p(x.hi, y.lo), p(x.hi, y.hi)]);
}

/** X ÷ Y: X × [1/d, 1/c] when 0 ∉ Y; the whole line (−∞, ∞) when Y contains 0 (nothing can then be decided). */
export function div(x: Interval, y: Interval): Interval {
  if (y.lo <= 0 && y.hi >= 0) return ENTIRE;
  return mul(x, { lo: 1 / y.hi, hi: 1 / y.lo });
}

/**
 * X ^ p for a real constant p. Bases with negative values are allowed only for integer p.
 * @throws {InvalidModelError} if X has negative values and p is not an integer, or 0 ∈ X and p < 0.
 */
export function pow(x: Interval, p: number): Interval {
  if (p === 0) return point(1);
  if (x.lo < 0 && !Number.isInteger(p)) throw new InvalidModelError(`power ^${p} of an interval with negative values [${x.lo}, ${x.hi}]`);
  if (p < 0 && x.lo <= 0 && x.hi >= 0) throw new InvalidModelError(`negative power ^${p} of an interval containing 0 [${x.lo}, ${x.hi}]`);
  const a = x.lo ** p;
  const b = x.hi ** p;
  if (x.lo < 0 && x.hi > 0 && p % 2 === 0) return { lo: 0, hi: Math.max(a, b) };
  return hull([a, b]);
}

/** f(X) for f non-decreasing on X (exp, log, sqrt, …): [f(a), f(b)]. @throws {InvalidModelError} outside f's domain. */
export function monotone(name: string, f: (v: number) => number, x: Interval, domainLo = -Infinity, openLo = false): Interval {
  if (x.lo < domainLo || (openLo && x.lo === domainLo)) {
    throw new InvalidModelError(`${name}() of an interval [${x.lo}, ${x.hi}] that leaves its domain (${openLo ? '>' : '≥'} ${domainLo})`);
  }
  return { lo: f(x.lo), hi: f(x.hi) };
}

/** |X|. */
export function abs(x: Interval): Interval {
  if (x.lo >= 0) return x;
  if (x.hi <= 0) return neg(x);
  return { lo: 0, hi: Math.max(-x.lo, x.hi) };
}

/** min(X, Y) and max(X, Y), end-wise. */
export function min(x: Interval, y: Interval): Interval {
  return { lo: Math.min(x.lo, y.lo), hi: Math.min(x.hi, y.hi) };
}
export function max(x: Interval, y: Interval): Interval {
  return { lo: Math.max(x.lo, y.lo), hi: Math.max(x.hi, y.hi) };
}

/**
 * Verdict of `left op right` for every pair of values in the two intervals (module rule above):
 * `<`: holds iff left.hi < right.lo, fails iff left.lo ≥ right.hi; `<=`: holds iff left.hi ≤ right.lo, fails iff
 * left.lo > right.hi; `>` and `>=` mirror these.
 * @example compareIntervals({ lo: 1, hi: 2 }, '<', { lo: 2.5, hi: 3 }) // 'holds'
 */
export function compareIntervals(left: Interval, op: ComparisonOperator, right: Interval): Verdict {
  switch (op) {
    case '<':
      return left.hi < right.lo ? 'holds' : left.lo >= right.hi ? 'fails' : 'undecided';
    case '<=':
      return left.hi <= right.lo ? 'holds' : left.lo > right.hi ? 'fails' : 'undecided';
    case '>':
      return compareIntervals(right, '<', left);
    case '>=':
      return compareIntervals(right, '<=', left);
  }
}

/** Kleene conjunction: fails if any fails, holds if all hold, else undecided (true for an empty list). */
export function and(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes('fails')) return 'fails';
  return verdicts.every((v) => v === 'holds') ? 'holds' : 'undecided';
}

/** Kleene disjunction: holds if any holds, fails if all fail, else undecided. */
export function or(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes('holds')) return 'holds';
  return verdicts.every((v) => v === 'fails') ? 'fails' : 'undecided';
}

/** Kleene negation. */
export function not(v: Verdict): Verdict {
  return v === 'holds' ? 'fails' : v === 'fails' ? 'holds' : 'undecided';
}
