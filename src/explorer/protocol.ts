/**
 * Messages between the explorer page and its Web Workers (structured-cloned), and the worker's side of them: a
 * `view` request solves one model (`exploreView`), a `units` request runs simulation replications (the units of
 * `planSimulation`, folded by the page's `SimulationCollector`, as the CLI's worker threads do: src/cli/pool.ts).
 */
import { parseModel, type ModelInput } from '../model/index.ts';
import { planSimulation, runReplications, type ReplicationPart } from '../sim/simulate.ts';
import type { SimulateOptions } from '../sim/simulate.ts';
import { exploreView, type ExplorerView } from './view.ts';

export type Request =
  | { readonly type: 'view'; readonly id: number; readonly input: Record<string, unknown>; readonly n: number }
  | {
      readonly type: 'units';
      readonly id: number;
      readonly input: Record<string, unknown>;
      readonly options: SimulateOptions;
      readonly first: number;
      readonly count: number;
    };

export type Reply =
  | { readonly type: 'view'; readonly id: number; readonly view: ExplorerView }
  | { readonly type: 'progress'; readonly id: number; readonly events: number }
  | { readonly type: 'units'; readonly id: number; readonly parts: ReplicationPart[] }
  | { readonly type: 'error'; readonly id: number; readonly message: string };

/** Answers one request; `post` sends the replies (progress first, the answer last). Never throws: errors are replies. */
export function handleRequest(request: Request, post: (reply: Reply) => void): void {
  const { id } = request;
  try {
    switch (request.type) {
      case 'view':
        post({ type: 'view', id, view: exploreView(request.input, request.n) });
        return;
      case 'units': {
        const plan = planSimulation(parseModel(request.input as unknown as ModelInput), request.options);
        // the engines report every 2^20 events
        const parts = runReplications(plan, request.first, request.count, (events) => post({ type: 'progress', id, events }));
        post({ type: 'units', id, parts });
        return;
      }
      default: {
        const never: never = request;
        throw new Error(`unknown request ${JSON.stringify(never)}`);
      }
    }
  } catch (e) {
    post({ type: 'error', id, message: e instanceof Error ? e.message : String(e) });
  }
}
