export * from './schema.ts';
export * from './grid.ts';
export * from './outcome.ts';
export * from './findings.ts';
