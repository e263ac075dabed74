/**
 * The one rule for settings that have no effect under a policy (issue 18 item 5), read from the policy tables: a
 * setting given explicitly that the policy's rows say it never reads is refused in one line by every entry (the CLI's
 * model commands, experiment and conjecture files), never dropped. Grid files apply a coordinate only to the policies
 * that read it (`settingApplies`), as they do for predictions.
 * Memory with a rule that cannot use it is `checkMemory`'s refusal (model/memory.ts), made by `validateModel` for
 * every entry.
 */
import { DISCIPLINE_TABLE, type Discipline } from './discipline.ts';
import { SELECTION_TABLE, SELECTIONS, type Selection } from './selection.ts';

/** The policy settings whose effect depends on the policy: d, the prediction model, the sampling of the d servers. */
export type PolicySetting = 'd' | 'prediction' | 'sampling';

/** A setting with no effect, and why in words (one clause, no trailing period: "selection jiq samples no servers …"). */
export interface IdleSetting {
  readonly setting: PolicySetting;
  readonly reason: string;
}

/** The policy part of a model that the rule reads. */
export interface PolicyOf {
  readonly selection: Selection;
  readonly discipline: Discipline;
  readonly d: number;
}

/** The rules that sample no servers (samplesD false: random, jiq), in table order. */
export function unsampledSelections(): Selection[] {
  return SELECTIONS.filter((s) => !SELECTION_TABLE[s].samplesD);
}

/** The disciplines whose row reads predictions (SPJF, PSPJF, SPRPT), in table order. */
export function predictedDisciplines(): Discipline[] {
  return (Object.keys(DISCIPLINE_TABLE) as Discipline[]).filter((d) => DISCIPLINE_TABLE[d].usesPrediction);
}

/** The selection rules whose row reads predictions (LPW), in table order. */
export function predictedSelections(): Selection[] {
  return SELECTIONS.filter((s) => SELECTION_TABLE[s].usesPrediction);
}

/**
 * Whether a setting acts under a policy, from the rows: d acts where the selection samples d servers; a prediction
 * where the discipline reads one, or the selection does and samples d ≥ 2 servers (at d = 1 it routes at random); the sampling (with or without replacement) where d ≥ 2 servers
 * are sampled.
 */
export function settingApplies(setting: PolicySetting, policy: PolicyOf): boolean {
  const row = SELECTION_TABLE[policy.selection];
  switch (setting) {
    case 'd':
      return row.samplesD;
    case 'prediction':
      // a rule that reads predictions to choose among d sampled servers reads none at d = 1: one server, random routing
      return (row.usesPrediction && policy.d >= 2) || DISCIPLINE_TABLE[policy.discipline].usesPrediction;
    case 'sampling':
      return row.samplesD && policy.d >= 2;
    default:
      return unknownSetting(setting);
  }
}

/**
 * The settings of `given` that have no effect under the policy, each with its reason. d = 1 under a rule that samples
 * no servers is the value the rule uses, so it is not idle; any other d is.
 * @example idleSettings({ selection: 'jiq', discipline: 'fifo', d: 2 }, ['d'])
 *   // [{ setting: 'd', reason: 'selection jiq samples no servers (it takes d = 1)' }]
 */
export function idleSettings(policy: PolicyOf, given: Iterable<PolicySetting>): IdleSetting[] {
  const out: IdleSetting[] = [];
  for (const setting of new Set(given)) {
    if (settingApplies(setting, policy)) continue;
    switch (setting) {
      case 'd':
        if (policy.d !== 1) out.push({ setting, reason: `selection ${policy.selection} samples no servers (it takes d = 1)` });
        break;
      case 'prediction':
        out.push({
          setting,
          reason: SELECTION_TABLE[policy.selection].usesPrediction
            ? `selection ${policy.selection} at d = 1 samples one server (random routing), so it compares no predictions, and discipline ${policy.discipline} reads none (selection ${predictedSelections().join(', ')} at d ≥ 2 and disciplines ${predictedDisciplines().join(', ')} do)`
            : `neither selection ${policy.selection} nor discipline ${policy.discipline} reads a prediction (selection ${predictedSelections().join(', ')} and disciplines ${predictedDisciplines().join(', ')} do)`,
        });
        break;
      case 'sampling':
        out.push({
          setting,
          reason: SELECTION_TABLE[policy.selection].samplesD
            ? 'with d = 1 one server is sampled'
            : `selection ${policy.selection} samples no servers`,
        });
        break;
      default:
        unknownSetting(setting);
    }
  }
  return out;
}

/** The `--d` help prose, from the selection table: which rules take d = 1 whatever is given. */
export function dHelp(): string {
  return (
    'number of servers sampled per arrival (choices), integer ≥ 1; ' +
    `${unsampledSelections().join(' and ')} sample none (d = 1): another d is refused there`
  );
}

function unknownSetting(value: never): never {
  throw new Error(`internal error: no branch for setting ${JSON.stringify(value)}`);
}

/**
 * The settings of a grid file (experiment, conjecture) that act on none of its policies at any of its d: a grid
 * coordinate acts on the policies that use it (`settingApplies`; the others run without it), and one that no policy
 * uses is refused like a command-line setting.
 * @param given the settings the file sets to a value other than the default.
 */
export function idleGridSettings(
  policies: readonly Omit<PolicyOf, 'd'>[],
  ds: readonly number[],
  given: Iterable<PolicySetting>,
): IdleSetting[] {
  const out: IdleSetting[] = [];
  for (const setting of new Set(given)) {
    if (policies.some((p) => ds.some((d) => settingApplies(setting, { ...p, d })))) continue;
    const d = ds.find((x) => x !== 1) ?? ds[0] ?? 1;
    const why = policies.length === 1 ? idleSettings({ ...policies[0], d }, [setting])[0]?.reason : undefined;
    out.push({
      setting,
      reason: why ?? `no policy of the grid uses it (${policies.map((p) => `${p.selection}+${p.discipline}`).join(', ')})`,
    });
  }
  return out;
}
