// Worker-thread entry when running from the TypeScript sources (vitest, tsx): registers tsx's loader in this thread,
// then loads the TypeScript worker named in workerData. The compiled package (dist/) starts its .js worker directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
