/**
 * Expands an experiment spec into cells: one finite-n simulation each (λ, d, n, policy, service, prediction).
 * Prediction-blind policies (no LPW selection, no predicted discipline) run once, whatever the prediction list.
 */
import { InvalidModelError, UnstableModelError } from '../errors.ts';
import {
  batchCoordinate,
  batchLabel,
  canonicalArrivals,
  formatArrivals,
  formatMemory,
  idleGridSettings,
  parseModel,
  randomAtD,
  selectionName,
  settingApplies,
  usesPrediction,
  type BatchDispatch,
  type Discipline,
  type PolicySetting,
  type Selection,
  type SupermarketModel,
} from '../model/index.ts';
export { simulationWarmup } from '../meanfield/warmup.ts';
import { simulationWarmup, type SimulationStart, type StartChoice } from '../meanfield/warmup.ts';
import { cellSeed } from '../stats/index.ts';
import type { ExperimentSpec } from './schema.ts';
import type { CellCoordinates } from '../claims/index.ts';

export interface ExperimentCell extends CellCoordinates {
  /** Stable identifier, used for the stored result file (resume) and the per-cell seed. */
  readonly key: string;
  /** Policy label as in the seed paper's figures, e.g. "JSQ+SRPT", "LPW+SPRPT". */
  readonly policy: string;
  /**
   * The validated model. Trace cells get the experiment's selection, discipline, sampling and conventions with the
   * default service (sizes are the trace's, rescaled to mean 1) and no prediction model (predictions come per job).
   */
  readonly model: SupermarketModel;
  readonly trace?: { readonly path: string; readonly format?: 'swf' | 'swim'; readonly status?: number };
  readonly jobs: number;
  readonly replications: number;
  readonly seed: number;
  /** Warm-up per replication (time units). */
  readonly warmupTime: number;
  /** How the warm-up was chosen. */
  readonly warmupRule: string;
  /**
   * The one rule's warm-up (time units) when the file's `maxWarmup` cut it to `warmupTime` (`SimulationWarmup.uncappedTime`);
   * absent when no cap bound. The run says so per cell (`cappedWarmupWarning`). Not a setting of the stored value: its
   * warm-up is `warmupTime` (cli/commands/run.ts `cellSettings`).
   */
  readonly uncappedWarmupTime?: number;
  /**
   * τ of the warm-up rule (`SimulationWarmup.relaxationTime`, model time units), for the heavy-tail budget's 100τ window
   * (`heavyTailBudgetWarnings`); absent where the rule gives none or was not read (a warm-up given, empty start), as in
   * simulate. Not a setting of the stored value (cli/commands/run.ts `cellSettings`).
   */
  readonly relaxationTime?: number;
  /** Where every replication starts ('auto' resolved by the one rule, `simulationWarmup`; trace replays: empty). */
  readonly start: SimulationStart;
  /** The start's tail s_0..s_K (round(n·s_i) servers hold ≥ i jobs) for the fixed-point start; absent for empty. */
  readonly startTail?: readonly number[];
}

export { usesPrediction } from '../model/index.ts';

export interface ExpandOptions {
  /** Where the cells' replications start (default 'empty'; the CLI's --start, default 'auto'): see `simulationWarmup`. */
  readonly start?: StartChoice;
}

/**
 * E.g. "JSQ+SRPT", "JSQ+FIFO+IP" (a memory), "JSQ+FIFO (arrivals det)" (non-Poisson arrivals, theory.md §14),
 * "JSQ+FIFO (batch 2 (spread))", "JSQ+FIFO (batch geom:2 (whole))" (batches and size laws, §15). d has its own column
 * or panel, so the rule is named without it, except where d makes it another rule: a rule that samples d servers at
 * d = 1 without a memory is random routing (`randomAtD`), named as `selectionName` names it, "RANDOM (d = 1)+FIFO"
 * (it read "JSQ+FIFO (RANDOM at d = 1)", a JSQ label for a policy that compares nothing).
 * @param d the cell's d; omitted, the label names the rule for every d.
 */
export function policyLabel(
  selection: Selection,
  discipline: Discipline,
  memory = 'none',
  arrivals = 'exp',
  batch: number | string = 1,
  batchDispatch: BatchDispatch = 'spread',
  d?: number,
): string {
  const random = d !== undefined && randomAtD({ selection, d, memory: { kind: memory } });
  const stream = [arrivals === 'exp' ? '' : `arrivals ${arrivals}`, batchLabel(batch, batchDispatch)].filter((x) => x !== '').join(', ');
  const rule = random ? selectionName({ selection, d: 1 }) : selection === 'random' ? 'Random' : selection.toUpperCase();
  return `${rule}+${discipline.toUpperCase()}${memory === 'none' ? '' : `+${memory.toUpperCase()}`}${stream === '' ? '' : ` (${stream})`}`;
}

function policies(spec: ExperimentSpec): { selection: Selection; discipline: Discipline; memory: string }[] {
  if (spec.policies) return spec.policies.map((p) => ({ ...p, memory: p.memory ?? 'none' }));
  const out: { selection: Selection; discipline: Discipline; memory: string }[] = [];
  for (const memory of spec.memory ?? ['none'])
    for (const selection of spec.selections ?? [])
      for (const discipline of spec.disciplines ?? []) out.push({ selection, discipline, memory });
  return out;
}

/**
 * Expands the grid in a fixed order: service, d, n, policy, prediction, λ, arrivals, batch.
 * @throws {InvalidModelError | UnstableModelError} for any combination that does not make a valid model
 *   (e.g. d > n, a malformed service), naming the cell.
 */
export function expandGrid(spec: ExperimentSpec, options: ExpandOptions = {}): ExperimentCell[] {
  const start = options.start ?? 'empty';
  const cells: ExperimentCell[] = [];
  refuseIdleGridSettings(spec);
  // the cap acts on the rule's warm-up only: a warm-up given in the file, or trace replays (warm-up in jobs), take none
  if (spec.maxWarmup !== undefined && (typeof spec.warmup === 'number' || spec.service.every((s) => typeof s !== 'string')))
    throw new InvalidModelError(
      `entry "maxWarmup" = ${spec.maxWarmup} has no effect: ${typeof spec.warmup === 'number' ? `"warmup" = ${spec.warmup} gives every cell its warm-up` : 'every service is a trace, replayed with a warm-up in jobs'}; drop it`,
    );
  if (spec.batchDispatch !== undefined && (spec.batch ?? [1]).every((k) => k === 1))
    throw new InvalidModelError(
      `entry "batchDispatch" = ${JSON.stringify(spec.batchDispatch)} has no effect: every batch size of "batch" is 1; drop it or add a batch size K ≥ 2`,
    );
  // batch entries are canonical (schema: K or a law's short form); two spellings of one law would share a key
  const batchList = spec.batch ?? [1];
  const twice = batchList.find((b, i) => batchList.indexOf(b) !== i);
  if (twice !== undefined)
    throw new InvalidModelError(
      `entry "batch" lists the batch size ${JSON.stringify(twice)} twice (after canonical forms: pmf:0,1 is 2); give each once`,
    );
  // canonical short forms ("Erlang:02" → "erlang:2", "poisson" → "exp"), so keys and labels do not depend on the spelling
  const arrivalsList = (spec.arrivals ?? ['exp']).map((a, i) => {
    try {
      return canonicalArrivals(a);
    } catch (error) {
      if (error instanceof InvalidModelError) throw new InvalidModelError(`arrivals[${i}] = ${JSON.stringify(a)}: ${error.message}`);
      throw error;
    }
  });
  // redundancy extends the key (cells without it keep theirs)
  const redundancy =
    spec.redundancy === undefined || spec.redundancy === 'none'
      ? ''
      : `-red-${spec.redundancy}${spec.replicas === undefined ? '' : `-${spec.replicas}`}`;
  for (const service of spec.service) {
    const serviceLabel =
      typeof service === 'string'
        ? service
        : `trace:${service.trace
            .split('/')
            .pop()!
            .replace(/\.(swf|tsv)(\.gz)?$/, '')}`;
    for (const d of spec.d) {
      for (const n of spec.n) {
        for (const { selection, discipline, memory } of policies(spec)) {
          const predictions = usesPrediction(selection, discipline) ? spec.prediction : ['none'];
          for (const prediction of predictions) {
            const streams = spec.lambda.flatMap((l) => arrivalsList.flatMap((a) => batchList.map((b) => [l, a, b] as const)));
            const batchDispatch = spec.batchDispatch ?? 'spread';
            for (const [lambda, arrivals, batch] of streams) {
              // non-Poisson arrivals and batches extend the key (Poisson cells of single jobs keep theirs); a size law
              // writes its canonical short form (batch-geom:2-whole), never a K's key; cellFileName slugs the ':'
              const policyKey =
                `${selection}-${discipline}${memory === 'none' ? '' : `-${memory}`}${arrivals === 'exp' ? '' : `-arrivals-${arrivals}`}` +
                `${batch === 1 ? '' : `-batch-${batch}${batchDispatch === 'whole' ? '-whole' : ''}`}${redundancy}`;
              const key = `${serviceLabel}|d${d}|n${n}|${policyKey}|${prediction}|lambda${lambda}`.replace(/[^A-Za-z0-9.|:_-]/g, '_');
              const base = {
                key,
                policy:
                  spec.redundancy === 'cancel-on-complete'
                    ? `RED+${discipline.toUpperCase()} (cancel-on-complete, ${spec.replicas ?? 'independent'} replicas)`
                    : `${policyLabel(selection, discipline, memory, arrivals, batch, batchDispatch, d)}${redundancy === '' ? '' : ` (redundancy ${spec.redundancy})`}`,
                selection,
                discipline,
                service: serviceLabel,
                prediction,
                lambda,
                d,
                n,
                jobs: spec.jobs,
                replications: spec.replications,
                seed: cellSeed(spec.seed, key),
              };
              let model: SupermarketModel;
              try {
                model = parseModel({
                  lambda,
                  // the d coordinate acts on the rules that sample d servers; the others (random, jiq) take d = 1
                  d: settingApplies('d', { selection, discipline, d }) ? d : 1,
                  selection,
                  discipline,
                  ...(spec.sampling === undefined ? {} : { sampling: spec.sampling }), // a batch's own default: parseModel
                  memory,
                  ...(spec.servers === undefined ? {} : { servers: spec.servers }),
                  ...(spec.redundancy === undefined ? {} : { redundancy: spec.redundancy }),
                  ...(spec.replicas === undefined ? {} : { replicas: spec.replicas }),
                  arrivals,
                  batch,
                  ...(batch === 1 ? {} : { batchDispatch }),
                  conventions: spec.conventions,
                  ...(typeof service === 'string' ? { service, prediction: prediction === 'none' ? undefined : prediction } : {}),
                });
              } catch (error) {
                // name the entries of the file that make the model, as the schema errors name their JSON path
                if (error instanceof InvalidModelError) {
                  throw new InvalidModelError(
                    `service[${spec.service.indexOf(service)}] = ${JSON.stringify(service)}, policy ${selection}/${discipline}${prediction === 'none' ? '' : `, prediction ${JSON.stringify(prediction)}`}${memory === 'none' ? '' : `, memory ${JSON.stringify(memory)}`}${arrivals === 'exp' ? '' : `, arrivals ${JSON.stringify(arrivals)}`}${batch === 1 ? '' : `, batch ${JSON.stringify(batch)}`}${spec.servers === undefined ? '' : `, servers ${JSON.stringify(spec.servers)}`}: ${error.message}`,
                  );
                }
                // an overloaded class (speeds): the cell's λ named beside the class
                if (error instanceof UnstableModelError)
                  throw new UnstableModelError(
                    `lambda ${lambda}${spec.servers === undefined ? '' : `, servers ${JSON.stringify(spec.servers)}`}: ${error.message}`,
                  );
                throw error;
              }
              if (d > n)
                throw new InvalidModelError(`d = ${d} exceeds n = ${n} (entries "d" and "n"): cannot sample more servers than exist`);
              if (typeof service !== 'string') {
                if (arrivals !== 'exp' || batch !== 1)
                  throw new InvalidModelError(
                    `service[${spec.service.indexOf(service)}] is a trace: its arrival times are the trace's, so ${arrivals !== 'exp' ? `arrivals ${JSON.stringify(arrivals)}` : `batch ${JSON.stringify(batch)}`} would have no effect (leave "${arrivals !== 'exp' ? 'arrivals" at ["exp"]' : 'batch" at [1]'})`,
                  );
                const warm = typeof spec.warmup === 'number' ? spec.warmup : 0;
                cells.push({
                  ...base,
                  ...stream(model),
                  memory: formatMemory(model.memory),
                  model,
                  trace: { path: service.trace, format: service.format, status: service.status },
                  warmupTime: warm,
                  warmupRule: 'trace replay: warm-up in jobs, see the runner',
                  start: 'empty',
                });
                continue;
              }
              // the one rule gives the start (and its warm-up at n); a warm-up given in the file keeps its time from either start
              // uncapped unless the file gives maxWarmup (then a cap that binds is said per cell: `uncappedWarmupTime`)
              const rule =
                typeof spec.warmup === 'number' && start === 'empty'
                  ? undefined
                  : simulationWarmup(model, { cap: spec.maxWarmup ?? Number.POSITIVE_INFINITY, start, n });
              const warm = typeof spec.warmup === 'number' ? { time: spec.warmup, rule: 'given in the experiment file' } : rule!;
              cells.push({
                ...base,
                ...stream(model),
                memory: formatMemory(model.memory),
                model,
                warmupTime: warm.time,
                warmupRule: warm.rule,
                ...(typeof spec.warmup !== 'number' && rule?.uncappedTime !== undefined ? { uncappedWarmupTime: rule.uncappedTime } : {}),
                ...(rule?.relaxationTime === undefined ? {} : { relaxationTime: rule.relaxationTime }),
                start: rule?.start ?? 'empty',
                ...(rule?.from === undefined ? {} : { startTail: rule.from }),
              });
            }
          }
        }
      }
    }
  }
  return cells;
}

/** The stream coordinates of a validated model (canonical arrivals, batch and its dispatch). */
function stream(model: SupermarketModel): Pick<CellCoordinates, 'arrivals' | 'batch' | 'batchDispatch'> {
  return { arrivals: formatArrivals(model.arrivals), batch: batchCoordinate(model), batchDispatch: model.batchDispatch };
}

/**
 * Refuses a grid setting of the file that acts on none of its policies (`idleGridSettings`, from the policy tables):
 * d ≠ 1 where every policy samples no servers, a prediction other than exact where no policy reads one, sampling
 * without replacement where no policy samples two servers.
 * @throws {InvalidModelError} one line naming the entry.
 */
function refuseIdleGridSettings(spec: ExperimentSpec): void {
  const given: PolicySetting[] = [];
  if (spec.d.some((d) => d !== 1)) given.push('d');
  if (spec.prediction.some((p) => p !== 'exact')) given.push('prediction');
  if (spec.sampling === 'without-replacement') given.push('sampling');
  const [idle] = idleGridSettings(policies(spec), spec.d, given);
  if (idle)
    throw new InvalidModelError(
      `entry "${idle.setting}" = ${JSON.stringify(spec[idle.setting])} has no effect: ${idle.reason}; drop it (or give ${idle.setting === 'd' ? '[1]' : 'the default'}) or add a policy that uses it`,
    );
}
