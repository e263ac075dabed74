/** The job records of the priority engine: the ground-floor JobPool (src/jobs/jobPool.ts), shared with the cavity queue. */
export { JobPool } from '../jobs/jobPool.ts';
