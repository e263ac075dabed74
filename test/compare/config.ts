/** The comparison configurations of the tests: what they share is written here once. */
import type { ComparisonConfig } from '../../src/compare/index.ts';

/** What a test sets: the grid (λ, n), the budget and the seed, and whatever else differs from `testComparison`'s defaults. */
export type TestComparison = Pick<ComparisonConfig, 'lambdas' | 'ns' | 'jobs' | 'replications' | 'seed'> & Partial<ComparisonConfig>;

/**
 * A comparison config for a test: d = 2, sampling with replacement, warm-up 2 × the mean-field time to within
 * ε = 1e-3 of the fixed point, tails recorded to s_12, no trajectory, unless `over` says otherwise.
 */
export function testComparison(over: TestComparison): ComparisonConfig {
  return {
    ds: [2],
    sampling: 'with-replacement',
    warmupTolerance: 1e-3,
    warmupSafetyFactor: 2,
    maxLevel: 12,
    trajectory: null,
    ...over,
  };
}

/** A short simulated trajectory (n = 50, t = 0..5, two replications) for the report tests' transient figures. */
export const SHORT_TRAJECTORY = { ns: [50], tEnd: 5, dt: 1, replications: 2 };

/** A config for the report tests: as `testComparison`, but a coarse warm-up (ε = 1e-2) and tails to s_8. */
export function reportComparison(over: TestComparison): ComparisonConfig {
  return testComparison({ warmupTolerance: 1e-2, maxLevel: 8, ...over });
}
