/*
 * @scb/shared/compare: comparisons of jobs or cells, "did this client version or configuration make
 * us slower?"
 *
 * query.ts reads the selection from URL parameters; build.ts (buildComparison, comparisonCharts)
 * measures and never formats; text.ts formats and never measures. types.ts holds the shapes.
 */
export * from './types';
export * from './query';
export * from './build';
export * from './text';
