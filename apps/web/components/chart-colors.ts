// Colour-blind-safe palette (Okabe-Ito); references (ideal, limits) are grey and dashed.
export const SERIES_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
export const REFERENCE_COLOR = '#8c959f';
