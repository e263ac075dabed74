declare module '@stdlib/stats-base-dists-t-quantile' {
  /** Quantile function of Student's t distribution with v degrees of freedom; NaN on bad input. */
  export default function quantile(p: number, v: number): number;
}
