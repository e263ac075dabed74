export * from './comparison.ts';
export * from './fit.ts';
export * from './verdict.ts';
export * from './lwlReference.ts';
export * from './exactPoints.ts';
export * from './secondOrder.ts';
export * from './notes.ts';
export * from './quantileCells.ts';
