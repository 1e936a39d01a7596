/**
 * Counts the elementary steps the aggregates take (a bucket touched, an index probed). Tests read it to prove an
 * authorization's work does not grow with history; it is never used for timing.
 */
export class OperationMeter {
  count = 0;

  tick(steps = 1): void {
    this.count += steps;
  }
}

/** The meter used when nobody is counting. */
export const NO_METER = new OperationMeter();
