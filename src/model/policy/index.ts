/**
 * The policy wing: one table per policy axis (selection rules, disciplines). A policy is a row; see
 * docs/extending.md for what a new row needs.
 */
import { DISCIPLINE_TABLE, type Discipline } from './discipline.ts';
import { SELECTION_TABLE, type Selection } from './selection.ts';

export * from './selection.ts';
export * from './discipline.ts';
export * from './batch.ts';

/** True when a policy looks at predictions: a selection or discipline whose table row says it does (LPW; SPJF, PSPJF, SPRPT). */
export function usesPrediction(selection: Selection, discipline: Discipline): boolean {
  return SELECTION_TABLE[selection].usesPrediction || DISCIPLINE_TABLE[discipline].usesPrediction;
}

/** `name = description; …` of every row of a table, for `--help` prose and the README's "Choices". */
function describeRows(table: Readonly<Record<string, { readonly description: string }>>): string {
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

/** The disciplines whose row reads predictions (SPJF, PSPJF, SPRPT), in table order. */
export function predictedDisciplines(): Discipline[] {
  return (Object.keys(DISCIPLINE_TABLE) as Discipline[]).filter((d) => DISCIPLINE_TABLE[d].usesPrediction);
}

/** The selection rules whose row reads predictions (LPW), in table order. */
export function predictedSelections(): Selection[] {
  return (Object.keys(SELECTION_TABLE) as Selection[]).filter((s) => SELECTION_TABLE[s].usesPrediction);
}

/**
 * The one rule for a prediction setting on a policy that reads none (issue 18 item 5): undefined when the selection
 * or the discipline reads predictions (their table rows), else the sentence saying why a prediction has no effect.
 */
export function idlePrediction(selection: Selection, discipline: Discipline): string | undefined {
  if (usesPrediction(selection, discipline)) return undefined;
  return (
    `neither selection ${selection} nor discipline ${discipline} reads a prediction ` +
    `(selection ${predictedSelections().join(', ')} and disciplines ${predictedDisciplines().join(', ')} do)`
  );
}

/**
 * The policy as output headers name it: `JSQ(2) + FIFO`; a rule that samples no servers (random, jiq) without `(d)`,
 * since d has no effect there; a dispatcher memory appended when the model has one (`, memory ip`, `ism:A` …).
 * @example policyName({ selection: 'jsq', d: 2, discipline: 'fifo' }) // 'JSQ(2) + FIFO'
 */
export function policyName(model: {
  readonly selection: Selection;
  readonly d: number;
  readonly discipline: Discipline;
  readonly memory?: { readonly kind: string; readonly capacity?: number };
}): string {
  const sel = SELECTION_TABLE[model.selection].samplesD ? `${model.selection.toUpperCase()}(${model.d})` : model.selection.toUpperCase();
  const m = model.memory;
  const memory = m && m.kind !== 'none' ? `, memory ${m.kind}${m.capacity !== undefined ? `:${m.capacity}` : ''}` : '';
  return `${sel} + ${model.discipline.toUpperCase()}${memory}`;
}
