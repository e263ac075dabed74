/** The tiny experiment file that the shard and Slurm tests split and merge. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `<dir>/<name>` (default tiny.json), the experiment "tiny": λ ∈ {0.5, 0.8} × n ∈ {10, 20} of JSQ(2) FIFO with exponential sizes (four cells), two
 * replications of `jobs` measured jobs after a warm-up of 5, master seed `seed`. @returns the file's path.
 */
export function writeTinyExperiment(dir: string, { jobs, seed }: { jobs: number; seed: number }, name = 'tiny.json'): string {
  const file = path.join(dir, name);
  const spec = {
    name: 'tiny',
    lambda: [0.5, 0.8],
    d: [2],
    n: [10, 20],
    selections: ['jsq'],
    disciplines: ['fifo'],
    service: ['exp'],
    prediction: ['exact'],
    jobs,
    replications: 2,
    seed,
    warmup: 5,
  };
  writeFileSync(file, JSON.stringify(spec));
  return file;
}
