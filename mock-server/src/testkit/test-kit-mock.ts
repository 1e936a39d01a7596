import type { MockSnapshot } from '../core/state/model.js';
import type { FaultOptions } from './fault-options.js';
import type { TestKit } from './test-kit.js';

/**
 * What the in-process mock (`createMockServer`, `startMockServer`'s `mock`) and a remote one (`connectMock`) have in
 * common, so that a helper written against it works with either: the test kit as it is, and the control calls
 * awaited (in-process they answer at once, remotely they are HTTP calls).
 */
export interface TestKitMock extends TestKit {
  reset(): void | Promise<void>;
  snapshot(): MockSnapshot | Promise<MockSnapshot>;
  restore(snapshot: MockSnapshot): void | Promise<void>;
  idle(): Promise<void>;
  clock: { now(apiKey?: string): Date | Promise<Date>; advance(seconds: number): Promise<void> };
  faults: {
    inject(
      options: FaultOptions,
    ): { id: string; clear(): void | Promise<void> } | Promise<{ id: string; clear(): Promise<void> }>;
    clear(): void | Promise<void>;
  };
}
