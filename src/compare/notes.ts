/**
 * The notes of a comparison (`ComparisonResult.notes`: what was skipped and why), grouped by kind into one line each
 * that names the option which changes the limit, for the command's summary and the report. The patterns are the
 * sentences comparison.ts writes; a note of no known kind stays a line of its own.
 */

/** One kind of note: how to recognise it, what to keep of each, and the line that sums them up. */
interface NoteKind {
  readonly pattern: RegExp;
  /** The part of the note that goes into the summary line (e.g. "d = 2, λ = 0.95, n = 5"). */
  readonly item: (m: RegExpExecArray) => string;
  /** A key that splits the kind further (e.g. the state limit), '' for none. */
  readonly key: (m: RegExpExecArray) => string;
  readonly line: (items: string[], key: string) => string;
}

const list = (items: string[]) => items.join('; ');

/** "d = 2, λ = 0.9: n = 5; d = 2, λ = 0.95: n = 3, 4, 5" from items "<model>\0<n>". */
function byModel(items: string[]): string {
  const ns = new Map<string, string[]>();
  for (const item of items) {
    const [model, n] = item.split('\u0000');
    ns.set(model, [...(ns.get(model) ?? []), n]);
  }
  return [...ns.entries()].map(([model, n]) => `${model}: n = ${n.join(', ')}`).join('; ');
}

const KINDS: readonly NoteKind[] = [
  {
    pattern: /^No exact point at (d = \d+, λ = [\d.e-]+), n = (\d+): state space too large: ([\d.e+]+) states.*limits ([\d.e+]+) states/,
    item: (m) => `${m[1]}\u0000${m[2]}`,
    key: (m) => m[4],
    line: (items, limit) =>
      `exact points skipped, chain over ${Number(limit).toExponential(0)} states (raise --exact-max-states, or drop them with --exact-n): ${byModel(items)}`,
  },
  {
    pattern: /^No exact point at (d = \d+), λ = ([\d.e-]+), n = (\d+): n = \d+ < d = \d+/,
    item: (m) => `${m[1]}, n = ${m[3]}`,
    key: () => '',
    line: (items) => `exact points skipped where n < d (choose --exact-n ≥ d): ${[...new Set(items)].join('; ')}`,
  },
  {
    pattern: /^No exact points for (.*): the exact solver has (.*)\.$/,
    item: (m) => m[1],
    key: (m) => m[2],
    line: (items, has) => `no exact points for ${list(items)}: the exact solver has ${has} (--exact-n none asks for none)`,
  },
  {
    pattern: /^no 1\/n² term for (d = \d+, λ = [\d.e-]+): (.*)$/,
    item: (m) => m[1],
    key: (m) => m[2],
    line: (items, why) => `no 1/n² term (c₂ not checked) for ${list(items)}: ${why}`,
  },
  {
    pattern: /^Transient from empty skipped for (.*): (compare has a transient mean field .*)$/,
    item: (m) => m[1],
    key: (m) => m[2],
    line: (items, why) => `transient from empty skipped for ${list(items)}: ${why} (--no-trajectory asks for none)`,
  },
];

/**
 * Groups `notes` by kind: one line per kind (and per limit or reason within it), in the order each kind first
 * appears, each naming the option that changes it; notes of no known kind are kept as they are (once each).
 * @example groupNotes(['No exact point at d = 3, λ = 0.7, n = 2: n = 2 < d = 3.', 'No exact point at d = 3, λ = 0.9, n = 2: n = 2 < d = 3.'])
 * // ['exact points skipped where n < d (choose --exact-n ≥ d): d = 3, n = 2']
 */
export function groupNotes(notes: readonly string[]): string[] {
  const groups = new Map<string, { kind: NoteKind | null; key: string; items: string[] }>();
  for (const note of notes) {
    let placed = false;
    for (const [k, kind] of KINDS.entries()) {
      const m = kind.pattern.exec(note);
      if (!m) continue;
      const key = kind.key(m);
      const id = `${k}\u0000${key}`;
      const g = groups.get(id) ?? { kind, key, items: [] };
      g.items.push(kind.item(m));
      groups.set(id, g);
      placed = true;
      break;
    }
    if (!placed && !groups.has(`note\u0000${note}`)) groups.set(`note\u0000${note}`, { kind: null, key: note, items: [] });
  }
  return [...groups.values()].map((g) => (g.kind ? g.kind.line(g.items, g.key) : g.key));
}
