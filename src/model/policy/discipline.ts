/**
 * The discipline table: one row per in-queue discipline (theory.md §1 table). What a discipline *is* — its server
 * model, whether an arrival may preempt, what it ranks jobs by, whether it reads predictions — is written here
 * once; engines, solvers, the moments room, the M/G/1 room, `--help` and the README read it, and every dispatch on
 * a discipline name is a `switch` with a `never` default (docs/extending.md).
 */

/**
 * How a server shares its capacity: 'priority' (one job at a time, the smallest rank key first, equal keys FIFO),
 * 'sharing' (all jobs present share the server equally), 'attained-service' (the jobs with the least attained
 * service share the server).
 */
export type ServerModel = 'priority' | 'sharing' | 'attained-service';

/**
 * What a priority discipline ranks by (smallest first): 'arrival' time, true 'size' S, 'remaining size' S − a,
 * 'predicted size' Y, 'predicted remaining' Y − a (a = attained service). Conventions may change the preemption
 * test (psjfPreemption) or clip the key (sprptOverrun); the row gives the default.
 */
export type RankKey = 'arrival' | 'size' | 'remaining size' | 'predicted size' | 'predicted remaining';

/** One discipline. */
export interface DisciplineRow {
  readonly server: ServerModel;
  /** Whether an arrival may interrupt the job in service (preemptive-resume). */
  readonly preemptive: boolean;
  /** Rank key of a priority server ('arrival' for FIFO); undefined for sharing servers. */
  readonly rank: RankKey | undefined;
  /** Whether the discipline reads the jobs' predicted sizes Y (the server always drains the true size). */
  readonly usesPrediction: boolean;
  /** A short description for `--help` and the README's "Choices". */
  readonly description: string;
}

const rows = {
  fifo: { server: 'priority', preemptive: false, rank: 'arrival', usesPrediction: false, description: 'first in, first out' },
  sjf: { server: 'priority', preemptive: false, rank: 'size', usesPrediction: false, description: 'shortest job first (true size)' },
  psjf: {
    server: 'priority',
    preemptive: true,
    rank: 'size',
    usesPrediction: false,
    description: 'preemptive shortest job first (true size)',
  },
  srpt: {
    server: 'priority',
    preemptive: true,
    rank: 'remaining size',
    usesPrediction: false,
    description: 'shortest remaining processing time (true size)',
  },
  spjf: {
    server: 'priority',
    preemptive: false,
    rank: 'predicted size',
    usesPrediction: true,
    description: 'shortest predicted job first',
  },
  pspjf: {
    server: 'priority',
    preemptive: true,
    rank: 'predicted size',
    usesPrediction: true,
    description: 'preemptive shortest predicted job first',
  },
  sprpt: {
    server: 'priority',
    preemptive: true,
    rank: 'predicted remaining',
    usesPrediction: true,
    description: 'shortest predicted remaining processing time (Y − a)',
  },
} satisfies Record<string, DisciplineRow>;

/**
 * In-queue discipline (theory.md §1 table): FIFO; SJF, PSJF, SRPT rank by the true size; SPJF, PSPJF, SPRPT rank by
 * the prediction Y while the server drains the true size. Smallest key first, equal keys FIFO.
 */
export type Discipline = keyof typeof rows;

/** The discipline table, keyed by name, in the order of `DISCIPLINES`. */
export const DISCIPLINE_TABLE: { readonly [K in Discipline]: DisciplineRow } = rows;

/** The disciplines, in table order (the simulator's D_* codes follow this order). */
export const DISCIPLINES = Object.keys(rows) as readonly Discipline[] as readonly [Discipline, ...Discipline[]];
