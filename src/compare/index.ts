export * from './sweep.ts';
export * from './fit.ts';
export * from './verdict.ts';
