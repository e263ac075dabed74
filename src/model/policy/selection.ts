/**
 * The selection table: one row per dispatcher rule (theory.md §1). A rule is a row; every place that acts on a
 * rule (the simulator's selection step, the mean-field capability query, the CLI help) reads this table or
 * dispatches on the rule name with a `switch` whose default is a `never` check, so adding a row without its
 * branches does not compile (docs/extending.md).
 */

/** What dispatcher state a rule reads to choose among the sampled servers. */
export type SelectionStateRead = 'none' | 'count' | 'work' | 'predicted work' | 'idleness' | 'memory';

/** One selection rule. */
export interface SelectionRow {
  /** What the rule reads of the sampled servers: 'none' (uniform random), job 'count', true 'work', 'predicted work', 'idleness', dispatcher 'memory'. */
  readonly stateRead: SelectionStateRead;
  /** Whether the rule samples d servers per arrival (false: d is ignored and taken as 1). */
  readonly samplesD: boolean;
  /** Whether the rule reads the jobs' predicted sizes. */
  readonly usesPrediction: boolean;
  /** A short description for `--help` and the README's "Choices". */
  readonly description: string;
}

const rows = {
  random: { stateRead: 'none', samplesD: false, usesPrediction: false, description: 'a uniformly random server (d = 1)' },
  jsq: { stateRead: 'count', samplesD: true, usesPrediction: false, description: 'JSQ(d) = SQ(d): the fewest jobs of d sampled' },
  sed: {
    stateRead: 'count',
    samplesD: true,
    usesPrediction: false,
    description: 'SED(d): the least expected delay (jobs + 1)/speed of d sampled (needs --speeds; equal speeds: jsq)',
  },
  lwl: { stateRead: 'work', samplesD: true, usesPrediction: false, description: 'LWL(d) = LL(d): the least true work left of d sampled' },
  lpw: {
    stateRead: 'predicted work',
    samplesD: true,
    usesPrediction: true,
    description: 'LPW(d): the least predicted work left of d sampled',
  },
  jiq: {
    stateRead: 'idleness',
    samplesD: false,
    usesPrediction: false,
    description:
      'JIQ: an idle server the dispatcher knows of (idle servers tell it; unbounded, or --memory ism:A), else a random one (d = 1)',
  },
} satisfies Record<string, SelectionRow>;

/**
 * Selection rule of the dispatcher (theory.md §1): `random` (= d = 1), `jsq` = JSQ(d) (fewest jobs), `sed` = SED(d) (least (jobs + 1)/speed, heterogeneous servers),
 * `lwl` = LWL(d) = LL(d) (least true work left), `lpw` = LPW(d) (least predicted work left), `jiq` = join-idle-queue
 * (theory.md §12).
 */
export type Selection = keyof typeof rows;

/** The selection table, keyed by rule name, in the order of `SELECTIONS`. */
export const SELECTION_TABLE: { readonly [K in Selection]: SelectionRow } = rows;

/** The selection rules, in table order. */
export const SELECTIONS = Object.keys(rows) as readonly Selection[] as readonly [Selection, ...Selection[]];

/** Compile-time exhaustiveness check for a `switch` on a policy name: unreachable when every case is handled. */
export function unknownPolicy(value: never, family: string): never {
  throw new Error(`internal error: no branch for ${family} ${JSON.stringify(value)}`);
}
