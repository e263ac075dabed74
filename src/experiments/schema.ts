/**
 * Experiment files: a declarative grid of λ, d, n, policies (selection × discipline), service laws and prediction
 * models, with budgets and a master seed. Validated with zod; every problem is reported with its JSON path.
 */
import { z } from 'zod';
import {
  BATCH_DISPATCHES,
  batchEntrySchema,
  DISCIPLINES,
  REDUNDANCIES,
  REPLICA_LAWS,
  SAMPLINGS,
  SELECTIONS,
  SERVER_SAMPLINGS,
} from '../model/index.ts';
import { conventionsInputSchema, parseWithSchema, refuseRepeatedEntries } from '../model/schema.ts';

const positiveInt = z.number().int().positive();
/** The lists whose values must differ: a repeat would run the same cells twice (speeds are a vector; batch: grid.ts, canonical forms). */
const GRID_LISTS = ['lambda', 'd', 'n', 'policies', 'selections', 'disciplines', 'memory', 'arrivals', 'service', 'prediction', 'claims'];
const policy = z
  .object({
    selection: z.enum(SELECTIONS),
    discipline: z.enum(DISCIPLINES),
    /** Dispatcher memory in short form (none | ip | cp | bcp:A | ism:A; theory.md §12), default none. */
    memory: z.string().min(1).optional(),
  })
  .strict();

/** A service law in short form ("exp", "weibull:0.5", …) or a trace reference. */
const serviceEntry = z.union([
  z.string().min(1),
  z.object({ trace: z.string().min(1), format: z.enum(['swf', 'swim']).optional(), status: z.number().int().optional() }).strict(),
]);
/** A prediction model in short form ("exact", "exp", "uniform:0.5", "lognormal:1") or "learned"/"user" for traces. */
const predictionEntry = z.string().min(1);

export const experimentSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, dot, dash or underscore (it names the report folder)'),
    description: z.string().optional(),
    /** λ per server; < 1 without server classes, and with them ρ = λE[S]/Σ f·speed < 1 per class (checked per cell). */
    lambda: z.array(z.number().positive()).min(1),
    d: z.array(positiveInt).min(1),
    n: z.array(positiveInt).min(1),
    /** Either an explicit list of policies or the cross product of selections × disciplines. */
    policies: z.array(policy).min(1).optional(),
    selections: z.array(z.enum(SELECTIONS)).min(1).optional(),
    disciplines: z.array(z.enum(DISCIPLINES)).min(1).optional(),
    /** Dispatcher memories crossed with selections × disciplines (short forms, theory.md §12); default ["none"]. */
    memory: z.array(z.string().min(1)).min(1).optional(),
    /** Arrival processes crossed with every cell (short forms exp, det, erlang:K, hyperexp:SCV, mmpp:…; theory.md §14); default ["exp"]. */
    arrivals: z.array(z.string().min(1)).min(1).optional(),
    /**
     * Batch sizes crossed with every cell (theory.md §15: Poisson batches of K at rate λn/K; K > 1 needs jsq or lwl):
     * an integer K or a size law geom:MEAN | pmf:P1,P2,… (whole dispatch only; canonical short form), default [1]; `batchDispatch` places a batch (spread: the K best of d; whole: one server), default spread.
     */
    batch: z.array(batchEntrySchema).min(1).optional(),
    batchDispatch: z.enum(BATCH_DISPATCHES).optional(),
    service: z.array(serviceEntry).min(1),
    prediction: z.array(predictionEntry).min(1).default(['exact']),
    /** with-replacement (default) or without; a batch cell always draws d distinct servers, and a with-replacement given with a batch is refused. */
    sampling: z.enum(SAMPLINGS).optional(),
    /** Heterogeneous servers for every cell (theory.md §13): class speeds, fractions (default equal), sampling. */
    servers: z
      .object({
        speeds: z.array(z.number()).min(1),
        fractions: z.array(z.number()).min(1).optional(),
        sampling: z.enum(SERVER_SAMPLINGS).optional(),
      })
      .strict()
      .optional(),
    /**
     * Redundancy-d for every cell (theory.md §16): none (default), cancel-on-start (FIFO: LWL(d)), cancel-on-complete
     * with `replicas` independent (default) or identical. The policies' selection is then left at jsq (lwl for
     * cancel-on-start).
     */
    redundancy: z.enum(REDUNDANCIES).optional(),
    replicas: z.enum(REPLICA_LAWS).optional(),
    conventions: conventionsInputSchema.optional(),
    jobs: positiveInt,
    replications: z.number().int().min(2),
    seed: z.number().int().nonnegative().default(1),
    /** Warm-up in time units, or "auto" (mean-field based for exponential JSQ, else a load- and SCV-scaled rule). */
    warmup: z.union([z.literal('auto'), z.number().nonnegative()]).default('auto'),
    /**
     * Cap on the automatic warm-up (time units); default none: the one warm-up rule as simulate, compare and table read
     * it (it was 5000, which cut the rule silently at d = 1 near λ = 1). A cap that binds is said per cell.
     */
    maxWarmup: z.number().positive().optional(),
    /**
     * Claim files judged on the cells (paths relative to the experiment file), e.g. "../analysis/h3-jsq-beats-lpw.json";
     * default: the seed study's H1–H3 (STUDY_CLAIM_FILES in analysis/); [] for none.
     */
    claims: z.array(z.string().min(1)).optional(),
  })
  .strict()
  .refine((e) => e.policies !== undefined || (e.selections !== undefined && e.disciplines !== undefined), {
    message: 'give either "policies" or both "selections" and "disciplines"',
  })
  .superRefine(
    (e, ctx) => {
      refuseRepeatedEntries(e, GRID_LISTS, ctx);
      // identical servers of speed 1: ρ = λE[S] with E[S] = 1 by default, so λ < 1 is checked here with its JSON path;
      // with server classes the capacity Σ f·speed sets the bound, checked per cell by parseModel (naming the class)
      if (e.servers !== undefined || !Array.isArray(e.lambda)) return;
      e.lambda.forEach((l, i) => {
        if (typeof l === 'number' && !(l < 1))
          ctx.addIssue({
            code: 'custom',
            path: ['lambda', i],
            message: `Too big: expected number to be <1 (λ per server of speed 1), got ${l}`,
          });
      });
    },
    // also when other entries failed, so every problem is listed in one pass
    { when: () => true },
  );

export type ExperimentSpec = z.infer<typeof experimentSchema>;

/**
 * Validates a parsed experiment file.
 * @param json the parsed JSON value; @param label file name used in messages.
 * @throws {InvalidModelError} listing every problem as `label: path: message` (at most 10).
 */
export function parseExperiment(json: unknown, label = 'experiment'): ExperimentSpec {
  return parseWithSchema(experimentSchema, json, label);
}
