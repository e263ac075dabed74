export * from './render.ts';
export * from './figures.ts';
export * from './page.ts';
export * from './comparisonFigures.ts';
export * from './comparisonReport.ts';
export * from './experimentReport.ts';
export * from './claimReport.ts';
export * from './writeFigure.ts';
