/**
 * Conjecture files (JSON): a claim over named quantities, a parameter grid and an evaluation budget. Validated with
 * zod; every problem is reported with its JSON path, and the claim is parsed (claim.ts) so a bad expression fails
 * before anything runs.
 */
import { z } from 'zod';
import { InvalidModelError } from '../errors.ts';
import { BATCH_DISPATCHES, batchEntrySchema, SAMPLINGS } from '../model/index.ts';
import { conventionsInputSchema, parseWithSchema, refuseRepeatedEntries } from '../model/schema.ts';
import { parseClaim, type ParsedClaim } from './claim.ts';
import { START_CHOICES, type StartChoice } from '../meanfield/warmup.ts';

const positiveInt = z.number().int().positive();

export const conjectureSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, dot, dash or underscore (it names the report folder)'),
    description: z.string().default(''),
    /** Where the claim comes from, e.g. "theory.md §1 H3 (Mitzenmacher & Dell'Amico 2022)". */
    source: z.string().default(''),
    /** mathjs expression over quantities T/S/P50/P95/P99(selection, discipline); see claim.ts. */
    claim: z.string().min(1),
    grid: z
      .object({
        lambda: z.array(z.number().positive().lt(1)).min(1),
        d: z.array(positiveInt).min(1),
        /** Service laws in short form (exp, weibull:0.5, hyperexp:4, …); default ["exp"]. */
        service: z.array(z.string().min(1)).min(1).default(['exp']),
        /** Prediction models in short form (exact, exp, uniform:0.5, lognormal:1); default ["exact"]. */
        prediction: z.array(z.string().min(1)).min(1).default(['exact']),
        /**
         * Dispatcher memories in short form (none, ip, cp, bcp:A, ism:A; theory.md §12); default ["none"]. Each acts on
         * the quantities without their own memory whose rule can use it (jsq, lwl at d ≥ 2; jiq with ism:A).
         */
        memory: z.array(z.string().min(1)).min(1).default(['none']),
        /**
         * Arrival processes in short form (exp, det, erlang:K, hyperexp:SCV, mmpp:R1,R2,Q12,Q21; theory.md §14); default
         * ["exp"]. Every quantity of a point is read at the point's arrivals.
         */
        arrivals: z.array(z.string().min(1)).min(1).default(['exp']),
        /**
         * Batch sizes (theory.md §15; K > 1 needs jsq or lwl quantities): an integer K or a size law geom:MEAN |
         * pmf:P1,P2,… (whole dispatch only; canonical short form); default [1].
         */
        batch: z.array(batchEntrySchema).min(1).default([1]),
        /** How a batch of K > 1 is placed: spread (the K best of d; SQ(d,K), LL(d,K)) or whole (BSQ); default spread. */
        batchDispatch: z.enum(BATCH_DISPATCHES).default('spread'),
      })
      .strict()
      // a repeated value would judge the same points twice (batch sizes: evaluate.ts, after canonical forms)
      .superRefine((g, ctx) => refuseRepeatedEntries(g, ['lambda', 'd', 'service', 'prediction', 'memory', 'arrivals'], ctx)),
    /** with-replacement (default) or without; a batch cell always draws d distinct servers, and a with-replacement given with a batch is refused. */
    sampling: z.enum(SAMPLINGS).optional(),
    conventions: conventionsInputSchema.optional(),
    evaluation: z
      .object({
        /** Servers of the finite-n simulations (default 1000). */
        n: positiveInt.default(1000),
        /** Measured jobs per replication (default 1e5). */
        jobs: positiveInt.default(100_000),
        /** Independent replications per simulation, ≥ 2 (default 5). */
        replications: z.number().int().min(2).default(5),
        /** Master seed (default 1). */
        seed: z.number().int().nonnegative().default(1),
        /** 'mean-field' (default): a solver where one exists, else simulation; 'simulation': simulate every quantity. */
        prefer: z.enum(['mean-field', 'simulation']).default('mean-field'),
        /**
         * true (default): at one grid point, mean-field values may meet finite-n simulations. false: if any quantity of a
         * grid point needs simulation, simulate all of them at the same n (no O(1/n) bias between the two sides).
         */
        mixSources: z.boolean().default(true),
        /** Use solver answers of kind 'approximation' (e.g. a two-moment PH fit) as exact values (default false: simulate). */
        acceptApproximation: z.boolean().default(false),
        /**
         * true (default): widen the CIs at a grid point (Bonferroni over its m estimated quantities) so all hold jointly
         * with 95% confidence; false: each quantity keeps its own 95% CI.
         */
        simultaneous: z.boolean().default(true),
        /** Warm-up per replication in time units, or "auto" (simulationWarmup, theory.md §8). */
        warmup: z.union([z.literal('auto'), z.number().nonnegative()]).default('auto'),
        /**
         * Where each replication starts (simulationWarmup, theory.md §8 "Start"): empty (default here; the CLI's --start
         * defaults to auto when the file names none), fixed-point (SQ(d) models), or auto (the fixed point where the model has one).
         */
        start: z.enum(START_CHOICES as [StartChoice, ...StartChoice[]]).default('empty'),
        /**
         * Cap on the automatic warm-up (time units); default none: the one warm-up rule as simulate, compare and table
         * read it (it was 5000, which cut the rule silently at d = 1 near λ = 1). A cap that binds is said per quantity.
         */
        maxWarmup: z.number().positive().optional(),
        /** Horizon of LWL cavity queues (time units, default 2e5); see solveMeanField. */
        cavityHorizon: z.number().positive().default(2e5),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type ConjectureSpec = z.infer<typeof conjectureSchema>;
export type EvaluationSpec = ConjectureSpec['evaluation'];

/** A validated conjecture with its parsed claim. */
export interface Conjecture {
  readonly spec: ConjectureSpec;
  readonly claim: ParsedClaim;
}

/**
 * Validates a parsed conjecture file and parses its claim.
 * @param json the parsed JSON value. @param label file name used in messages.
 * @throws {InvalidModelError} listing every schema problem as `label: path: message` (at most 10), a grid d above
 *   evaluation.n, or the claim's parse error (`label: claim "…" at char k (…): message`).
 */
export function parseConjecture(json: unknown, label = 'conjecture'): Conjecture {
  const spec = parseWithSchema(conjectureSchema, json, label);
  // the rule of every command (model.ts checkServers): the simulations' n holds the largest d of the grid
  // the cap acts on the rule's warm-up only (evaluate.ts): a warm-up given in the file takes none
  if (spec.evaluation.maxWarmup !== undefined && typeof spec.evaluation.warmup === 'number')
    throw new InvalidModelError(
      `${label}: "evaluation.maxWarmup" = ${spec.evaluation.maxWarmup} has no effect: "evaluation.warmup" = ${spec.evaluation.warmup} gives every simulation its warm-up; drop it`,
    );
  const d = Math.max(...spec.grid.d);
  if (d > spec.evaluation.n)
    throw new InvalidModelError(
      `${label}: d = ${d} exceeds n = ${spec.evaluation.n} (entries "grid.d" and "evaluation.n"): cannot sample more servers than exist`,
    );
  try {
    return { spec, claim: parseClaim(spec.claim) };
  } catch (error) {
    throw new InvalidModelError(`${label}: ${(error as Error).message}`);
  }
}
