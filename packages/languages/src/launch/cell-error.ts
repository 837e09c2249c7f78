import { redactEnvironment } from './environment';

/** A cell that could not produce a result; the message is what the user reads, stored publicly. */
export class CellError extends Error {
  constructor(message: string) {
    // Every stored cell error is made here: a Driver's stderr, an installer's or a Target's failure.
    super(redactEnvironment(message));
  }
}
