import type { FaultRegistry } from '../core/faults.js';
import { faultInfo, faultRule, type FaultInfo, type FaultOptions } from './fault-options.js';

/** An injected fault: what it is now (hits so far), and how to remove it. */
export interface FaultHandle {
  /** `flt_...`: in the `Cardrail-Mock-Fault` header of every answer it changed, and in the request log. */
  readonly id: string;
  /** The fault as it stands (hits, remaining), or undefined once it is used up or cleared. */
  info(): FaultInfo | undefined;
  /** Removes the fault; requests it holds (`hang`) are dropped. */
  clear(): void;
}

/** `mock.faults`: failures on demand, on the requests a test chooses (docs/testing.md#failure-handling). */
export interface MockFaults {
  /**
   * Faults the matching requests: an error status in the API's format, a delay, a dropped connection, no answer, or
   * a failure after the commit. A faulted request changes nothing (unless `afterCommit`) and is marked by the
   * `Cardrail-Mock-Fault` header. Throws a TypeError naming the option when one is wrong.
   */
  inject(options: FaultOptions): FaultHandle;
  /** The faults in force, in the order they apply. */
  list(): FaultInfo[];
  /** Removes one fault by id (false when it was already gone); requests it holds are dropped. */
  remove(id: string): boolean;
  /** Removes every fault and drops the requests they hold. */
  clear(): void;
}

/** The faults API over the mock's registry (composeMockServer wires it; the pipeline reads the same registry). */
export function createMockFaults(registry: FaultRegistry, operationIds: () => readonly string[]): MockFaults {
  let made = 0;
  return {
    inject(options) {
      const rule = registry.add(faultRule(options, `flt_${++made}`, operationIds()));
      return {
        id: rule.id,
        info: () => {
          const current = registry.get(rule.id);
          return current && faultInfo(current);
        },
        clear: () => {
          registry.remove(rule.id);
        },
      };
    },
    list: () => registry.list().map(faultInfo),
    remove: (id) => registry.remove(id),
    clear: () => registry.clear(),
  };
}
