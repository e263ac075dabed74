export * from './sweep.ts';
export * from './fit.ts';
export * from './verdict.ts';
export * from './limitFit.ts';
export * from './withoutV.ts';
export * from './lwlReference.ts';
export * from './general.ts';
