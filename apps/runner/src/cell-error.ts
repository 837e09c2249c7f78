/** A cell that could not produce a result; the message is what the user reads. */
export class CellError extends Error {}
