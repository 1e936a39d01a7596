// The CLI's option values, checked with messages that say what to pass instead.

/** `--port`: 0 to 65535, where 0 picks a free port. */
export function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new Error(`--port must be a port number from 0 to 65535 (0 picks a free port), got ${text}`);
  }
  return port;
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** `--frozen-clock`: an ISO 8601 instant, a date and a time with `Z` or an offset (2026-11-21T12:00:00Z). */
export function parseInstant(text: string): string {
  const match = INSTANT.exec(text);
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = (match?.slice(1) ?? []).map(
    (part) => part ?? '0',
  );
  // Date.parse would also take `2026`, a local time, or 30 February (as 2 March): the fields are checked one by one.
  const valid =
    match !== null &&
    new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDate() === Number(day) &&
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHours) <= 23 &&
    Number(offsetMinutes) <= 59;
  if (!valid) {
    throw new Error(`--frozen-clock must be an ISO 8601 instant with a time zone, such as 2026-11-21T12:00:00Z; got ${text}`);
  }
  return text;
}

/**
 * parseArgs reads `--port -1` as a missing value (`-1` looks like a flag); a negative number after an option is
 * joined to it (`--port=-1`) so that the option's own check explains what is wrong.
 */
export function joinNegativeValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (const arg of argv) {
    const previous = joined.at(-1);
    if (/^-\d/.test(arg) && previous?.startsWith('--') && !previous.includes('='))
      joined[joined.length - 1] = `${previous}=${arg}`;
    else joined.push(arg);
  }
  return joined;
}
