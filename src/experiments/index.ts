export * from './schema.ts';
export * from './grid.ts';
export * from './outcome.ts';
export * from './claims.ts';
export * from './traceCells.ts';
