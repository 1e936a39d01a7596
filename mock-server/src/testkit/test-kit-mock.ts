import type { MockSnapshot } from '../core/state/model.js';
import type { FaultOptions } from './fault-options.js';
import type { TestKit } from './test-kit.js';

/**
 * What the in-process mock (`createMockServer`, `startMockServer`'s `mock`) and a remote one (`connectMock`) have in
 * common, so that a helper written against it works with either: the test kit as it is, and the control calls
 * awaited (in-process they answer at once, remotely they are HTTP calls). `approver` is in-process only.
 */
export interface TestKitMock extends Omit<TestKit, 'approver'> {
  /** Forgets every organization, object, event, pending delivery and fault. */
  reset(): void | Promise<void>;
  /** The whole state as JSON. */
  snapshot(): MockSnapshot | Promise<MockSnapshot>;
  /** Replaces the state with a snapshot. */
  restore(snapshot: MockSnapshot): void | Promise<void>;
  /** Resolves once no due work is left and every webhook attempt started has finished. */
  idle(): Promise<void>;
  /** The test clocks. */
  clock: TestKitClock;
  /** Faults on demand. */
  faults: TestKitFaults;
}

/** The test clocks, as both mocks offer them. */
export interface TestKitClock {
  /** An organization's test-clock time (by key), or the base time. */
  now(apiKey?: string): Date | Promise<Date>;
  /** Advances every organization's clock by `seconds`. */
  advance(seconds: number): Promise<void>;
}

/** An injected fault, as both mocks hand it back. */
export interface TestKitFault {
  /** `flt_...`. */
  readonly id: string;
  /** Removes the fault. */
  clear(): void | Promise<void>;
}

/** Faults, as both mocks offer them. */
export interface TestKitFaults {
  /** Faults the matching requests (`mock.faults.inject`). */
  inject(options: FaultOptions): TestKitFault | Promise<TestKitFault>;
  /** Removes every fault. */
  clear(): void | Promise<void>;
}
