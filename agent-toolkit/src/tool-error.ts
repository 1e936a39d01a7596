/** What a model is told when a tool call fails: the API's error code and message, or the toolkit's own. */
export interface ToolErrorBody {
  /**
   * The API's error code (`card_not_active`, `intent_required`, `approval_required`, `not_found`, ...) or one of the
   * toolkit's: `out_of_scope` (the call names another agent's card or intent; nothing was sent), `invalid_input`
   * (the input does not fit the tool), `unknown_tool`, `internal_error`.
   */
  code: string;
  /** What went wrong, in words a model can act on. */
  message: string;
  /** The HTTP status when the API answered. */
  status?: number;
  /** Structured details from the API (such as `field`), when there are any. */
  details?: Record<string, unknown> | null;
  /** The API's `Request-Id`, for support. */
  requestId?: string;
}

/** A tool call that failed. Adapters turn it into their framework's tool error (MCP `isError`, AI SDK tool-error). */
export class ToolError extends Error {
  /** `'ToolError'`. */
  override readonly name = 'ToolError';
  /** The API's error code or the toolkit's (see ToolErrorBody.code). */
  readonly code: string;
  /** The HTTP status when the API answered. */
  readonly status: number | undefined;
  /** Structured details from the API, or null. */
  readonly details: Record<string, unknown> | null;
  /** The API's `Request-Id`, for support. */
  readonly requestId: string | undefined;

  constructor(body: ToolErrorBody) {
    super(body.message);
    this.code = body.code;
    this.status = body.status;
    this.details = body.details ?? null;
    this.requestId = body.requestId;
  }

  /** The error as the model is told it (what `JSON.stringify` gives). */
  toJSON(): ToolErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.details === null ? {} : { details: this.details }),
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
    };
  }
}

interface CardrailErrorLike {
  code: string;
  message: string;
  status?: unknown;
  details?: unknown;
  requestId?: unknown;
}

// Duck-typed rather than `instanceof CardrailError`: a client passed in may come from the SDK's other build (ESM or
// CommonJS), whose classes are different objects.
function isCardrailErrorLike(error: unknown): error is CardrailErrorLike {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}

/** Any failure as a ToolError; nothing a tool call throws escapes as anything else. */
export function toToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (isCardrailErrorLike(error)) {
    return new ToolError({
      code: error.code,
      message: error.message,
      ...(typeof error.status === 'number' ? { status: error.status } : {}),
      ...(error.details !== null && typeof error.details === 'object'
        ? { details: error.details as Record<string, unknown> }
        : {}),
      ...(typeof error.requestId === 'string' ? { requestId: error.requestId } : {}),
    });
  }
  return new ToolError({
    code: 'internal_error',
    message: `The tool failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
  });
}
