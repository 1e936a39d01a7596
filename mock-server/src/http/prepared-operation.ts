import type { Variant } from '../core/variant.js';
import type { OperationSpec } from '../spec/operations.js';
import type { OperationValidator } from '../spec/validator.js';

/**
 * A spec operation with its validators, loaded on the operation's first request: made by `prepareOperation` (a
 * LazyOperation, below), which loads them through the loader app.ts passes (`loadValidator` there).
 */
export interface PreparedOperation {
  spec: OperationSpec;
  /** The validator; only read once `ready` (the pipeline awaits `load()` first). */
  readonly validator: OperationValidator;
  /** Whether the validator is loaded, so a request can be answered without waiting. */
  readonly ready: boolean;
  load(): Promise<void>;
}

/** The operations of one path and method, by variant (a path may exist in one variant only). */
export type OperationsByVariant = Partial<Record<Variant, PreparedOperation>>;

/**
 * Loading every operation's checks would cost the whole start-up budget, and a test suite touches a few
 * operations; so each operation loads them on first use (an import of its variant's generated checks, or a
 * compilation for other documents), and every later request finds them ready.
 */
export function prepareOperation(
  spec: OperationSpec,
  load: (spec: OperationSpec) => Promise<OperationValidator>,
): PreparedOperation {
  return new LazyOperation(spec, load);
}

/**
 * One class for every operation, so that the pipeline's reads of `ready` and `validator` meet one object shape
 * (object literals with getters gave each operation a shape of its own, and those reads a megamorphic lookup).
 */
class LazyOperation implements PreparedOperation {
  ready = false;
  #validator: OperationValidator | undefined;
  #loading: Promise<void> | undefined;

  constructor(
    readonly spec: OperationSpec,
    private readonly loadValidator: (spec: OperationSpec) => Promise<OperationValidator>,
  ) {}

  get validator(): OperationValidator {
    if (this.#validator === undefined) {
      throw new Error(`The validator of ${this.spec.operationId} was read before it was loaded`);
    }
    return this.#validator;
  }

  load(): Promise<void> {
    this.#loading ??= this.loadValidator(this.spec).then(
      (loaded) => {
        this.#validator = loaded;
        this.ready = true;
      },
      (error: unknown) => {
        // A failed load (a chunk that did not arrive) is tried again by the operation's next request.
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading;
  }
}
