// Worker-thread entry: registers tsx's loader in this thread, then loads the TypeScript worker named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
