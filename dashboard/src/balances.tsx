// A balance's amounts as every table of balances shows them: three right-aligned columns.
import type { Balance } from './api.js';
import { formatMoney } from './format.js';
import type { Column } from './ui.js';

export const BALANCE_COLUMNS: readonly Column[] = [
  { heading: 'Available', numeric: true },
  { heading: 'Pending', numeric: true },
  { heading: 'Posted', numeric: true },
];

/** The amounts of a row, under BALANCE_COLUMNS: dashes for a balance that could not be read, dollars without a currency. */
export function BalanceCells(props: {
  balance: (Pick<Balance, 'available' | 'pending' | 'posted'> & { currency?: string }) | undefined;
}) {
  const { balance } = props;
  return (
    <>
      <td class="num">{formatMoney(balance?.available, balance?.currency)}</td>
      <td class="num">{formatMoney(balance?.pending, balance?.currency)}</td>
      <td class="num">{formatMoney(balance?.posted, balance?.currency)}</td>
    </>
  );
}
