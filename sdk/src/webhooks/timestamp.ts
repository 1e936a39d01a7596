/** A point in time as a Date or as unix seconds (the unit of the header's `t=`). */
export type UnixTime = Date | number;

export function toUnixSeconds(time: UnixTime | undefined): number {
  if (time === undefined) return Math.floor(Date.now() / 1000);
  const seconds = time instanceof Date ? time.getTime() / 1000 : time;
  // An invalid Date or NaN would make every tolerance comparison false, silently accepting any timestamp.
  if (!Number.isFinite(seconds)) throw new TypeError(`Expected a valid Date or unix seconds, got ${String(time)}.`);
  return Math.floor(seconds);
}
