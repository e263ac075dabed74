/**
 * Reasons said once, referenced where they apply: a fresh-user trial found simulate printing the same three-line
 * reason after E[T], E[Q], Little's E[Q]/λ and E[T/S], and run's ∞ footnote repeating it. Pure (no I/O): the CLI
 * (simulate) and the reports (run's ∞ footnote) use it.
 */

/**
 * Numbered reasons in order of first use: `mark(reason)` gives its mark ("[1]"), and `lines()` the reasons once each,
 * "[k] reason", where a reason that holds an earlier one whole (E[T/S]'s "E[T/S] ≥ E[W]·E[1/S] and E[W] = ∞: <E[T]'s
 * reason>") cites that one by its mark instead of repeating it.
 * @example const r = new ReasonNotes(); r.mark('E[S²] = ∞'); r.mark('E[W] = ∞: E[S²] = ∞'); r.mark('E[S²] = ∞');
 *   r.lines() // ['[1] E[S²] = ∞', '[2] E[W] = ∞: [1]']
 */
export class ReasonNotes {
  private readonly reasons: string[] = [];

  /** @param prefix before each mark's number ("w": "[w1]"), so two sets of notes on one page read apart; '' by default. */
  constructor(private readonly prefix = '') {}

  /** The mark of `reason`, "[k]" with k its place in order of first use (1-based); adds it on first use. */
  mark(reason: string): string {
    let k = this.reasons.indexOf(reason);
    if (k < 0) k = this.reasons.push(reason) - 1;
    return `[${this.prefix}${k + 1}]`;
  }

  /** How many distinct reasons were marked. */
  get size(): number {
    return this.reasons.length;
  }

  /** Each reason once, "[k] reason", an earlier reason held whole in a later one replaced by its mark. */
  lines(): string[] {
    return this.reasons.map((r, k) => {
      let text = r;
      // the longest earlier reasons first, so a short one inside a long one does not split it
      const earlier = this.reasons
        .slice(0, k)
        .map((e, j) => ({ e, j }))
        .sort((a, b) => b.e.length - a.e.length);
      for (const { e, j } of earlier) if (e.length > 0 && text.includes(e)) text = text.split(e).join(`[${this.prefix}${j + 1}]`);
      return `[${this.prefix}${k + 1}] ${text}`;
    });
  }
}
