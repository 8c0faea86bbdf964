// One error base for the whole service: a stable `code` that HTTP maps to problem+json once (app.ts),
// an optional offending `field` (JSON pointer-ish path) for validation faults, and the cause kept for logs.

export type TrawlErrorCode =
  | 'bad_request'
  | 'validation'
  | 'not_found'
  | 'conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unprocessable'
  | 'unavailable'
  | 'internal';

export class TrawlError extends Error {
  readonly code: TrawlErrorCode;
  readonly field: string | undefined;
  readonly detail: Record<string, unknown> | undefined;

  constructor(
    code: TrawlErrorCode,
    message: string,
    options: { cause?: unknown; field?: string; detail?: Record<string, unknown> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'TrawlError';
    this.code = code;
    this.field = options.field;
    this.detail = options.detail;
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, field: this.field, ...this.detail };
  }
}

/** A fault in user input that can point at a position (a query string, an uploaded file's line). */
export class InputError extends TrawlError {
  constructor(message: string, field: string, detail?: Record<string, unknown>) {
    super('validation', message, { field, ...(detail ? { detail } : {}) });
    this.name = 'InputError';
  }
}
