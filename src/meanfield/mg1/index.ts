/** Exact M/G/1 baselines (d = 1) for every discipline, with and without predictions (theory.md §7). */
export { mg1, mg1ResponseTimeAtSize, type Mg1Options, type Mg1Result } from './mg1.ts';
export {
  integrate,
  integrateVector,
  type QuadratureOptions,
  type QuadratureResult,
  type VectorIntegrand,
} from '../../numerics/quadrature.ts';
