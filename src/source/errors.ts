/**
 * Fatal problems of the source stage: the folder cannot be used at all, or git failed. Problems inside
 * an otherwise usable tree are reported as Diagnostic records instead, so one bad file never stops a run.
 */
export class SourceError extends Error {
  readonly code: string;
  readonly hint?: string;

  constructor(code: string, message: string, hint?: string) {
    super(message);
    this.name = 'SourceError';
    this.code = code;
    if (hint !== undefined) this.hint = hint;
  }
}
