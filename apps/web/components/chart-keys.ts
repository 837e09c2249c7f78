/** The key of a column's modeled ceiling in a qps chart point: the server computes it, the chart draws it. */
export const ceilingKey = (column: string) => `${column} ceiling`;
