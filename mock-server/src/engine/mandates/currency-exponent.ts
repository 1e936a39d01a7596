/**
 * The ISO 4217 minor-unit exponent of a currency (2 for USD, 0 for JPY, 3 for KWD), from the runtime's own currency
 * data (Intl, CLDR), so that a major-unit figure such as AP2's `payment.budget.max` converts without a table of ours.
 */
function currencyExponent(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

/** Minor units as major units (2550 USD cents are 25.5). */
export function toMajorUnits(minor: number, currency: string): number {
  return minor / 10 ** currencyExponent(currency);
}

/** Major units as minor units, or null when the figure has more decimals than the currency has. */
export function toMinorUnits(major: number, currency: string): number | null {
  const minor = major * 10 ** currencyExponent(currency);
  const rounded = Math.round(minor);
  return Math.abs(minor - rounded) < 1e-6 && Number.isSafeInteger(rounded) ? rounded : null;
}
