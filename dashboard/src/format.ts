// How amounts and times read on the page. Amounts are integers in minor units (docs/money.md).

export function formatMoney(cents: number | null | undefined, currency = 'usd'): string {
  if (cents === null || cents === undefined) return '—';
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

export function formatTime(time: string | number | null | undefined): string {
  if (time === null || time === undefined) return '—';
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? String(time) : dateTime.format(date);
}

/** A duration in seconds as the largest units that say it exactly: `2 h 30 min`, `3 d`. */
export function formatDuration(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = Math.abs(Math.round(seconds));
  for (const [size, label] of units) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${label}`);
      rest %= size;
    }
  }
  return parts.length === 0 ? '0 s' : parts.join(' ');
}

/** A decimal amount typed by a person (`12.5`) in minor units, or undefined when it is not a positive amount. */
export function parseAmount(text: string): number | undefined {
  if (!/^\d+(\.\d{1,2})?$/.test(text.trim())) return undefined;
  const cents = Math.round(Number(text) * 100);
  return cents > 0 ? cents : undefined;
}
