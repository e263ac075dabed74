/**
 * Policy combinations the rows allow one by one but not together. Read by `validateModel`, so every entry (CLI,
 * experiment files, library) refuses alike. (A prediction on a policy that reads none is `idlePrediction`'s rule.)
 */
import { DISCIPLINE_TABLE, type Discipline } from './discipline.ts';
import { SELECTION_TABLE, unknownPolicy, type Selection } from './selection.ts';

/**
 * Why a selection rule and a discipline cannot run together, in one line; undefined when they can. A selection that
 * reads predicted work (LPW) needs the predicted remaining work of the job in service (theory.md §1), which a sharing
 * server (PS, LAS: several jobs in service) does not have. (`validateModel` first resolves LPW with exact predictions,
 * which reads the true work left, to LWL: model.ts `lpwAsLwl`.)
 */
export function policyCombinationError(selection: Selection, discipline: Discipline): string | undefined {
  const server = DISCIPLINE_TABLE[discipline].server;
  switch (server) {
    case 'priority':
      return undefined;
    case 'sharing':
    case 'attained-service':
      return SELECTION_TABLE[selection].stateRead === 'predicted work'
        ? `selection ${selection} with discipline ${discipline} is not supported: ${selection.toUpperCase()}'s predicted remaining work assumes one job in service`
        : undefined;
    default:
      return unknownPolicy(server, 'server model');
  }
}
