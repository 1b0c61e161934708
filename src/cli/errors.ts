/** Errors the CLI prints without a stack trace, with the exit code they map to. */
export class UserError extends Error {
  constructor(message: string, readonly exitCode = 2, readonly hint?: string) {
    super(message);
    this.name = 'UserError';
  }
}
