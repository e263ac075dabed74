/**
 * The policy wing: one table per policy axis (selection rules, disciplines). A policy is a row; see
 * docs/extending.md for what a new row needs.
 */
import { formatBatch, type BatchSizeLaw } from '../batchLaw.ts';
import { DISCIPLINE_TABLE, type Discipline } from './discipline.ts';
import { SELECTION_TABLE, type Selection } from './selection.ts';

import { idleSettings } from './idle.ts';
import { redundancyName, type RedundancySpec } from './redundancy.ts';

export * from './selection.ts';
export * from './discipline.ts';
export * from './idle.ts';
export * from './batch.ts';
export * from './redundancy.ts';

/** True when a policy looks at predictions: a selection or discipline whose table row says it does (LPW; SPJF, PSPJF, SPRPT). */
export function usesPrediction(selection: Selection, discipline: Discipline): boolean {
  return SELECTION_TABLE[selection].usesPrediction || DISCIPLINE_TABLE[discipline].usesPrediction;
}

/** `name = description; …` of every row of a table, for `--help` prose and the README's "Choices". */
export function describeRows(table: Readonly<Record<string, { readonly description: string }>>): string {
  return Object.entries(table)
    .map(([name, row]) => `${name} = ${row.description}`)
    .join('; ');
}

/** The `--selection` help prose, from the selection table. */
export function selectionHelp(): string {
  return `selection rule: ${describeRows(SELECTION_TABLE)}`;
}

/** The `--discipline` help prose, from the discipline table. */
export function disciplineHelp(): string {
  return `in-queue discipline: ${describeRows(DISCIPLINE_TABLE)}`;
}

/**
 * The rule for a prediction setting on a policy that reads none (issue 18 item 5; `idleSettings`, one rule for every
 * idle setting): undefined when the selection or the discipline reads predictions (their table rows), else the
 * sentence saying why a prediction has no effect.
 */
export function idlePrediction(selection: Selection, discipline: Discipline): string | undefined {
  // at d ≥ 2, where a selection that reads predictions compares them (at d = 1 it routes at random: `settingApplies`)
  return idleSettings({ selection, discipline, d: 2 }, ['prediction'])[0]?.reason;
}

/**
 * The selection rule as every output names it (one name function: `policyName`, compare's labels, reports): `JSQ(2)`,
 * `LWL(3)`, `RED(2)` for redundancy-d; `JIQ` without `(d)`; and random routing (`routesAtRandom`: `random`, or a rule
 * that samples d servers, at d = 1 without a dispatcher memory) `RANDOM (d = 1)`: one sampled server leaves nothing to
 * compare, so the arrival joins a uniformly random server (random routing, theory.md §7: each server an M/G/1 queue at
 * every n), whatever the rule would compare. With a memory (ism:A at d = 1) the rule keeps its name: the memory chooses.
 * @param d the d to print, default the model's; `'d'` names the family (`JSQ(d)`) and keeps the rule's name.
 * @example selectionName({ selection: 'lwl', d: 1 }) // 'RANDOM (d = 1)'
 */
export function selectionName(model: NamedSelection, d: number | 'd' = model.d): string {
  if (model.redundancy !== undefined) return `RED(${d})`;
  if (d !== 'd' && routesAtRandom(model, d)) return 'RANDOM (d = 1)';
  if (!SELECTION_TABLE[model.selection].samplesD) return model.selection.toUpperCase();
  return `${model.selection.toUpperCase()}(${d})`;
}

/** The fields of a model that name its selection rule (`selectionName`, `randomAtD`, `selectionFamilyName`). */
export interface NamedSelection {
  readonly selection: Selection;
  readonly d: number;
  readonly memory?: { readonly kind: string };
  readonly redundancy?: RedundancySpec;
}

/**
 * Whether the selection rule, at this d, is random routing because it samples one server: a rule that samples d
 * servers (JSQ, LWL, LPW) at d = 1 without a dispatcher memory and without redundancy (`selectionName` then writes
 * `RANDOM (d = 1)`). A rule that samples no servers (random, jiq) is named by its own name and answers false here.
 */
export function randomAtD(model: NamedSelection, d: number = model.d): boolean {
  return (
    d === 1 &&
    model.redundancy === undefined &&
    SELECTION_TABLE[model.selection].samplesD &&
    (model.memory === undefined || model.memory.kind === 'none')
  );
}

/**
 * Whether the model routes every arrival to a uniformly random server at this d: `random` selection, or a rule that
 * samples d servers at d = 1 without a memory (`randomAtD`). One policy however it is spelt (theory.md §7: each server
 * an independent M/G/1 queue at every n): `selectionName` names it `RANDOM (d = 1)`, and `randomRoutingTwin`
 * (model.ts) runs and solves it as JSQ(1).
 * @example routesAtRandom({ selection: 'random', d: 1 }) // true
 */
export function routesAtRandom(model: NamedSelection, d: number = model.d): boolean {
  return (model.selection === 'random' && model.redundancy === undefined) || randomAtD(model, d);
}

/**
 * The selection rule of a grid over d as a heading or title names it (one name with `selectionName`): the family,
 * `JSQ(d)`; a grid whose d are all 1, where the rule is random routing (every server an M/M/1 queue at every n with
 * exponential sizes, theory.md §7), `RANDOM (d = 1: random routing)`; d = 1 beside d ≥ 2,
 * `JSQ(d) (RANDOM at d = 1: random routing)`.
 * @param ds the grid's values of d (any order, repeats allowed).
 * @example selectionFamilyName({ selection: 'jsq', d: 2 }, [1, 2]) // 'JSQ(d) (RANDOM at d = 1: random routing)'
 */
export function selectionFamilyName(model: NamedSelection, ds: readonly number[]): string {
  const family = selectionName(model, 'd');
  const atOne = ds.filter((d) => routesAtRandom(model, d)).length;
  if (atOne === 0) return family;
  return atOne === ds.length ? 'RANDOM (d = 1: random routing)' : `${family} (RANDOM at d = 1: random routing)`;
}

/**
 * The policy as output headers name it: `JSQ(2) + FIFO`, the selection as `selectionName` writes it (`RANDOM (d = 1) +
 * FIFO` for a sampling rule at d = 1); a dispatcher memory appended when the model has one (`, memory ip`, `ism:A` …), and
 * server classes (`, speeds 1,2 fractions 0.5,0.5 (uniform sampling)`) and batches of K > 1 (`, batch 2 (whole)`); redundancy-d
 * as `RED(d)` with its mode and replicas (`RED(2) + FIFO, cancel-on-complete (independent replicas)`).
 * @example policyName({ selection: 'jsq', d: 2, discipline: 'fifo' }) // 'JSQ(2) + FIFO'
 */
export function policyName(model: {
  readonly selection: Selection;
  readonly d: number;
  readonly discipline: Discipline;
  readonly memory?: { readonly kind: string; readonly capacity?: number };
  readonly servers?: { readonly speeds: readonly number[]; readonly fractions: readonly number[]; readonly sampling: string };
  readonly batch?: number;
  readonly batchLaw?: BatchSizeLaw;
  readonly batchDispatch?: string;
  readonly redundancy?: RedundancySpec;
}): string {
  const sel = selectionName(model);
  const m = model.memory;
  const memory = m && m.kind !== 'none' ? `, memory ${m.kind}${m.capacity !== undefined ? `:${m.capacity}` : ''}` : '';
  const s = model.servers;
  const servers = s ? `, speeds ${s.speeds.join(',')} fractions ${s.fractions.join(',')} (${s.sampling} sampling)` : '';
  const size =
    model.batchLaw !== undefined ? formatBatch(model.batchLaw) : model.batch !== undefined && model.batch > 1 ? model.batch : undefined;
  const batch = size !== undefined ? `, batch ${size} (${model.batchDispatch ?? 'spread'})` : '';
  return `${sel} + ${model.discipline.toUpperCase()}${memory}${servers}${batch}${redundancyName(model.redundancy)}`;
}
