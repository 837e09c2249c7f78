/** The columns that name a cell, first in every per-cell table. */
export const CELL_COLUMNS = ['#', 'Client', 'Configuration', 'C', 'Repeat'];
