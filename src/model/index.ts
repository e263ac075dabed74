export * from './model.ts';
export * from './moments.ts';
