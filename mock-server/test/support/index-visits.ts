import { vi } from 'vitest';
import { SortedSeqList } from '../../src/core/sorted-seq-list.js';

/**
 * Counts the stored objects visited through the collections' ordered indexes: every list page and every
 * fan-out (`Collection.values`) goes through `SortedSeqList.below`. Each call counts one step plus one per
 * value returned, so code that scanned a history (all events, all deliveries, a card's transactions) would count
 * more as the history grows. Undo with `vi.restoreAllMocks()`.
 */
export function countIndexVisits(): { take(): number } {
  let visited = 0;
  const below = SortedSeqList.prototype.below;
  vi.spyOn(SortedSeqList.prototype, 'below').mockImplementation(function (this: SortedSeqList<{ seq: number }>, bound, count) {
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
