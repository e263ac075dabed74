/**
 * Policy combinations the rows allow one by one but not together (issue 18 item 5: a setting with no effect is
 * refused, never dropped). Read by `parseModel`, so every entry (CLI, experiment files, library) refuses alike.
 */
import { DISCIPLINE_TABLE, type Discipline } from './discipline.ts';
import { unknownPolicy, type Selection } from './selection.ts';
import { usesPrediction } from './index.ts';

/**
 * Why a selection rule, discipline and prediction model cannot run together, in one line; undefined when they can.
 * - A sharing discipline (PS, LAS) reads no prediction: with a selection that reads none either, a prediction model
 *   other than exact would have no effect.
 * - LPW(d) with a sharing discipline: LPW's predicted remaining work (theory.md §1) is defined for one job in service.
 */
export function policyCombinationError(selection: Selection, discipline: Discipline, predictionKind: string): string | undefined {
  const row = DISCIPLINE_TABLE[discipline];
  switch (row.server) {
    case 'priority':
      return undefined;
    case 'sharing':
    case 'attained-service':
      if (selection === 'lpw')
        return `selection lpw with discipline ${discipline} is not supported: LPW's predicted remaining work assumes one job in service`;
      if (predictionKind !== 'exact' && !usesPrediction(selection, discipline))
        return `discipline ${discipline} uses no predictions (nor does selection ${selection}): prediction ${predictionKind} would have no effect; drop it`;
      return undefined;
    default:
      return unknownPolicy(row.server, 'server model');
  }
}
