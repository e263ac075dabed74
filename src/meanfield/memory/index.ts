/**
 * The dispatcher-memory room of the mean field (theory.md §12; Hellemans 2021, PhD thesis, ch. 6): π₀ per memory
 * scheme, the reduction theorem (memory at rate λ ≡ no memory at rate λπ₀^{1/d}) and the cavity-ODE transient.
 */
export * from './pi0.ts';
export * from './reduction.ts';
export * from './transient.ts';
export * from './sizedTransient.ts';
