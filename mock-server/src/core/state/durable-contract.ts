import type { Directory, TenantStore } from '../directory.js';
import type { TenantChangeSink } from '../tenant.js';
import type { MockSnapshot, ServerState } from './model.js';
import type { OrgGate } from './org-gate.js';

/**
 * What the HTTP layer needs to answer only once a request's changes are stored (http/commit-step.ts): a count of the
 * commits refused so far, read before the request runs, and the commit after it.
 */
export interface AnswerCommits {
  /** Commits the store refused so far. */
  readonly refusals: number;
  /**
   * Commits what the request changed, with everything else changed meanwhile (group commit). Gives why its answer
   * must not be sent (the commit it waited for was refused, or one made while the request was in flight, which may
   * have held its changes), or undefined when it may: at once when nothing waits to be committed, else once the
   * batch's commit has run.
   */
  commitAnswer(method: string, refusalsBefore: number): string | undefined | Promise<string | undefined>;
}

/** What the mock needs from the durable-state wiring (the same shape with and without a store). */
export interface DurableState extends AnswerCommits {
  /** Where tenants report their changes (undefined without a store). */
  readonly changes: TenantChangeSink | undefined;
  /** Where the directory reads tenants from and lets them go (a store that keeps every tenant). */
  readonly tenantStore: TenantStore | undefined;
  /** Runs `work` without recording its changes (putting back saved state). */
  quietly<T>(work: () => T): T;
  /** Commits what is pending now (throws CommitRefusedError when the store refuses it). */
  commit(): void;
  /** Resolves once no commit is scheduled or in flight (what changed so far is committed, or refused). */
  settled(): Promise<void>;
  /** The whole state: the tenants in memory, and those the store keeps out of it. */
  snapshot(): MockSnapshot;
  /** After `restore`: the store gets the restored state in place of its own, in one commit. */
  restored(): void;
  /** After `reset`: the store forgets everything, in one commit. */
  reset(): void;
  /** Before a server-wide advance of `ms`: tenants out of memory with work due within it are loaded, to run it in order. */
  beforeAdvance(ms: number): void;
  /** Starts waking stored tenants whose work falls due (after the state is attached). */
  start(): void;
  /** Stops waking them (shutdown). */
  stop(): void;
  /** With a store several processes share (a PostgreSQL state): its locks and whole-state operations. */
  readonly shared?: SharedState | undefined;
}

export interface DurableStateOptions {
  /** The live directory (replaced on reset and restore). */
  directory(): Directory;
  /** Server-wide state a commit carries. */
  serverState(): ServerState;
  /** Puts back the server-wide state a store kept (at start, before any request). */
  putBackServer(state: ServerState): void;
  /** The base clock plus the server-wide advance: the scale stored tenants' due times are kept on. */
  serverNow(): number;
  /** Whether the clocks are frozen (then due work runs only on advances, never on timers). */
  frozen: boolean;
  /** A shared store's state was reset or restored through another process: a new directory, every copy gone. */
  onGeneration(): void;
}

/** What only a shared store has: its organizations' locks, and the whole-state operations that are round trips. */
export interface SharedState {
  readonly gate: OrgGate;
  /** Forgets everything, in the store and here (every other process drops its copies at its next request). */
  reset(): Promise<void>;
  /** Replaces everything with a snapshot, in the store; organizations are read from it as they are used. */
  replace(snapshot: MockSnapshot): Promise<void>;
  /** The whole state, read from the store in one consistent snapshot. */
  read(): Promise<MockSnapshot>;
  /** A server-wide clock advance: stored, then every organization with work due within it is entered and caught up. */
  advance(ms: number): Promise<void>;
  /** Resolves once this process has no due work left and its webhook attempts (and their outcomes) are done. */
  idle(): Promise<void>;
}
