import { vi } from 'vitest';
import { SortedNumberList } from '../../src/core/sorted-number-list.js';

/**
 * Counts the stored objects visited through the collections' ordered indexes: every list page and every
 * fan-out (`Collection.values`) goes through `SortedNumberList.below`. Each call counts one step plus one per
 * value returned, so code that scanned a history (all events, all deliveries, a card's transactions) would count
 * more as the history grows. Undo with `vi.restoreAllMocks()`.
 */
export function countIndexVisits(): { take(): number } {
  let visited = 0;
  const below = SortedNumberList.prototype.below;
  vi.spyOn(SortedNumberList.prototype, 'below').mockImplementation(function (this: SortedNumberList, bound, count) {
    const values = below.call(this, bound, count);
    visited += values.length + 1;
    return values;
  });
  return {
    take() {
      const value = visited;
      visited = 0;
      return value;
    },
  };
}
