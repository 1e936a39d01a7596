import { FAULT_STATUSES, type FaultRule, type FaultStatus } from '../core/faults.js';
import { keyDigest } from '../core/key-digest.js';
import { closestWords } from '../core/edit-distance.js';

/** What `mock.faults.inject()` takes: which requests to fault (every condition given must hold) and what to do. */
export interface FaultOptions {
  /** Only requests of this key's organization and mode (any of its keys). Default: every organization. */
  apiKey?: string | undefined;
  /** Only requests of this operationId (of either variant), e.g. `createCard`. */
  operation?: string | undefined;
  /** Only requests to this path (`/cards/card_123`, with or without `/v1`) or spec path template (`/cards/{cardId}`). */
  path?: string | undefined;
  /** How many matching requests to fault, then the fault is gone. Default: every one until cleared. */
  times?: number | undefined;
  /** The chance (0 to 1) that a matching request is faulted, drawn from `seed`. Default 1. */
  rate?: number | undefined;
  /** The seed of `rate`'s draws: the same seed faults the same requests of a run. Default `cardrail`. */
  seed?: string | undefined;
  /** Answer this status in the API's error format: 429 (with `Retry-After` and `RateLimit-*`), 500, 502, 503 (`Retry-After`). */
  status?: FaultStatus | undefined;
  /** `Retry-After` of a 429 or 503, in seconds (0 to 60). Default 1. */
  retryAfter?: number | undefined;
  /** Real milliseconds to wait before answering, up to 60000: alone, a slow answer; with the others, a slow failure. */
  delayMs?: number | undefined;
  /** Close the connection without an answer (in-process, the fetch rejects as on a network error). */
  drop?: boolean | undefined;
  /** Never answer: the request waits until its client gives up (its timeout or abort) or the fault is cleared. */
  hang?: boolean | undefined;
  /**
   * Run the request first (its changes are kept, its answer is stored under its Idempotency-Key), then fail with
   * `status` or `drop`: a retry with the same key replays the committed answer (`Idempotent-Replayed: true`).
   */
  afterCommit?: boolean | undefined;
}

/** A fault as `mock.faults.list()` shows it. */
export interface FaultInfo {
  /** `flt_...`, also in the `Cardrail-Mock-Fault` header of the answers it changed and in the request log. */
  id: string;
  /** The operationId it is limited to. */
  operation?: string | undefined;
  /** The path or path template it is limited to (without `/v1`). */
  path?: string | undefined;
  /** Whether the fault is scoped to an organization (the key itself is never kept). */
  scopedToKey: boolean;
  /** The status it answers, if any. */
  status?: FaultStatus | undefined;
  /** The delay it adds, in milliseconds. */
  delayMs: number;
  /** Whether it drops the connection. */
  drop: boolean;
  /** Whether it never answers. */
  hang: boolean;
  /** Whether it fails after the request was applied. */
  afterCommit: boolean;
  /** The share of matching requests it faults (1: each). */
  rate: number;
  /** Matching requests still to fault; undefined: every one until cleared. */
  remaining?: number | undefined;
  /** Requests faulted so far. */
  hits: number;
}

/** A fault option the mock refuses; `field` names it (the control API answers 400 with `/body/<field>`). */
export class FaultOptionError extends TypeError {
  constructor(
    /** The option at fault (`operation`, `status`...; `options` for the whole). */
    readonly field: string,
    message: string,
  ) {
    super(`mock.faults.inject: ${field}: ${message}`);
    this.name = 'FaultOptionError';
  }
}

const KNOWN = new Set([
  'apiKey',
  'operation',
  'path',
  'times',
  'rate',
  'seed',
  'status',
  'retryAfter',
  'delayMs',
  'drop',
  'hang',
  'afterCommit',
]);

/** Checks the options (throws FaultOptionError naming the first problem) and makes the rule the registry keeps. */
export function faultRule(options: FaultOptions, id: string, operationIds: readonly string[]): Omit<FaultRule, 'hits'> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new FaultOptionError('options', 'must be an object');
  }
  for (const name of Object.keys(options)) {
    if (!KNOWN.has(name)) throw new FaultOptionError(name, `unknown option; the options are ${[...KNOWN].join(', ')}`);
  }
  const text = (name: keyof FaultOptions, max: number) => {
    const value = options[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length === 0 || value.length > max) {
      throw new FaultOptionError(name, `must be a string of 1 to ${max} characters`);
    }
    return value;
  };
  const flag = (name: 'drop' | 'hang' | 'afterCommit') => {
    const value = options[name];
    if (value !== undefined && typeof value !== 'boolean') throw new FaultOptionError(name, 'must be true or false');
    return value === true;
  };
  const number = (name: 'times' | 'rate' | 'retryAfter' | 'delayMs', min: number, max: number, integer: boolean) => {
    const value = options[name];
    if (value === undefined) return undefined;
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value < min ||
      value > max ||
      (integer && !Number.isInteger(value))
    ) {
      throw new FaultOptionError(name, `must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`);
    }
    return value;
  };
  const apiKey = text('apiKey', 256);
  const operation = text('operation', 100);
  if (operation !== undefined && !operationIds.includes(operation)) {
    const near = closestWords(operation, operationIds, 3);
    throw new FaultOptionError('operation', `no operation ${operation}; the closest are ${near.join(', ')}`);
  }
  let path = text('path', 2048);
  if (path !== undefined) {
    if (!path.startsWith('/')) throw new FaultOptionError('path', 'must start with / (such as /cards/{cardId})');
    if (path === '/v1' || path.startsWith('/v1/')) path = path.slice(3);
  }
  const status = options.status;
  if (status !== undefined && !(FAULT_STATUSES as readonly unknown[]).includes(status)) {
    throw new FaultOptionError('status', `must be one of ${FAULT_STATUSES.join(', ')}`);
  }
  const drop = flag('drop');
  const hang = flag('hang');
  const afterCommit = flag('afterCommit');
  const delayMs = number('delayMs', 0, 60_000, true) ?? 0;
  if ([status !== undefined, drop, hang].filter(Boolean).length > 1) {
    throw new FaultOptionError('status', 'status, drop and hang exclude each other: a request gets one outcome');
  }
  if (status === undefined && !drop && !hang && delayMs === 0) {
    throw new FaultOptionError('options', 'a fault needs status, delayMs, drop or hang');
  }
  if (afterCommit && status === undefined && !drop) {
    throw new FaultOptionError('afterCommit', 'needs status or drop: what the client gets instead of the committed answer');
  }
  const times = number('times', 1, 1_000_000, true);
  return {
    id,
    keyDigest: apiKey === undefined ? undefined : keyDigest(apiKey),
    operation,
    path,
    status,
    retryAfterSeconds: number('retryAfter', 0, 60, true) ?? 1,
    delayMs,
    drop,
    hang,
    afterCommit,
    remaining: times,
    rate: number('rate', 0, 1, false) ?? 1,
    seed: text('seed', 200) ?? 'cardrail',
  };
}

/** How a registered rule is shown. */
export function faultInfo(rule: FaultRule): FaultInfo {
  return {
    id: rule.id,
    operation: rule.operation,
    path: rule.path,
    scopedToKey: rule.keyDigest !== undefined,
    status: rule.status,
    delayMs: rule.delayMs,
    drop: rule.drop,
    hang: rule.hang,
    afterCommit: rule.afterCommit,
    rate: rule.rate,
    remaining: rule.remaining,
    hits: rule.hits,
  };
}
