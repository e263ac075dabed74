export * from './model.ts';
export * from './validate.ts';
