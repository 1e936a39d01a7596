// How amounts and times read on the page. Amounts are integers in minor units (docs/money.md).

// Amounts and times read the same on the intent's page here and on the MCP App approval card: one module says both.
export { formatMoney, formatTime } from '../../agent-toolkit/src/mcp/apps/intent-words.js';

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
