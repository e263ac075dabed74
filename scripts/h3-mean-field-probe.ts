/**
 * A quick look at H3 in the limit (issue 20 item 2): E[T] of JSQ(d) and LPW(d) under SPRPT from solveMeanField (JSQ and
 * LPW cavities, 95 % CIs) for six prediction models at one (λ, d). The full study is analysis/h3-limit-crossover.json.
 * `nice npx tsx scripts/h3-mean-field-probe.ts [λ, default 0.9] [d, default 2]` (a few minutes). Prints markdown rows
 * | d | λ | prediction | JSQ | LPW |.
 */
import { solveMeanField } from '../src/meanfield/index.ts';
import { parseModel } from '../src/model/index.ts';
const lambda = Number(process.argv[2] ?? 0.9);
const d = Number(process.argv[3] ?? 2);
for (const prediction of ['exact', 'uniform:0.5', 'lognormal:0.5', 'lognormal:1', 'lognormal:2', 'exp']) {
  const row: string[] = [];
  for (const selection of ['jsq', 'lpw']) {
    try {
      const s = solveMeanField(parseModel({ lambda, d, selection, discipline: 'sprpt', prediction }), { seed: 5 });
      row.push(`${s.meanResponseTime.toFixed(4)} ± ${(s.estimate?.halfWidth ?? 0).toFixed(4)}`);
    } catch (e) {
      row.push(`refused: ${(e as Error).message.slice(0, 60)}`);
    }
  }
  console.log(`| ${d} | ${lambda} | ${prediction} | ${row.join(' | ')} |`);
}
