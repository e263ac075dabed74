export * from './render.ts';
export * from './figures.ts';
export * from './writeReport.ts';
export * from './experimentReport.ts';
export * from './writeFigure.ts';
