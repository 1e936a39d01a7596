import type { OperationSpec } from '../spec/operations.js';
import type { OperationValidator } from '../spec/validator.js';

/** A spec operation with its validators, loaded on the operation's first request. */
export interface PreparedOperation {
  spec: OperationSpec;
  /** The validator; only read once `ready` (the pipeline awaits `load()` first). */
  readonly validator: OperationValidator;
  /** Whether the validator is loaded, so a request can be answered without waiting. */
  readonly ready: boolean;
  load(): Promise<void>;
}

/**
 * Loading every operation's checks would cost the whole start-up budget, and a test suite touches a few
 * operations; so each operation loads them on first use (an import of its variant's generated checks, or a
 * compilation for other documents), and every later request finds them ready.
 */
export function prepareOperation(
  spec: OperationSpec,
  load: (spec: OperationSpec) => Promise<OperationValidator>,
): PreparedOperation {
  let validator: OperationValidator | undefined;
  let loading: Promise<void> | undefined;
  return {
    spec,
    get validator() {
      if (validator === undefined) throw new Error(`The validator of ${spec.operationId} was read before it was loaded`);
      return validator;
    },
    get ready() {
      return validator !== undefined;
    },
    load() {
      loading ??= load(spec).then(
        (loaded) => {
          validator = loaded;
        },
        (error: unknown) => {
          // A failed load (a chunk that did not arrive) is tried again by the operation's next request.
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}
