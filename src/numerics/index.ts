/**
 * The numerics room (ground floor): the odex driver, Newton on banded systems, tridiagonal / banded / dense
 * solvers, Lyapunov equations, adaptive quadrature, Anderson acceleration and FFT convolution. Imports nothing of
 * ours but the typed errors.
 */
export * from './odex.ts';
export * from './newton.ts';
export * from './tridiagonal.ts';
export * from './lyapunov.ts';
export * from './bandedMatrix.ts';
export * from './dense.ts';
export * from './lyapunovDense.ts';
export * from './quadrature.ts';
export * from './anderson.ts';
export * from './convolution.ts';
export * from './clamp.ts';
