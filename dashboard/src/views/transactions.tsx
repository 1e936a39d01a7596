import { useState } from 'preact/hooks';
import type { Card, DashboardApi, Transaction } from '../api.js';
import { formatMoney, parseAmount } from '../format.js';
import { type Action, useAction, useApi, useQuery } from '../hooks.js';
import { cardName, type Names, useNames } from '../names.js';
import { RiskFlags } from '../risk-flags.js';
import { ActionStatus, Id, Loading, Page, ResourceTable, Section, SelectField, Status, TextField, Time } from '../ui.js';

async function loadTransactions(api: DashboardApi): Promise<{ transactions: Transaction[]; flags: Map<string, string[]> }> {
  const [transactions, flags] = await Promise.all([api.transactions(), api.riskFlags()]);
  return { transactions, flags };
}

/** A test-mode authorization at a merchant, as the card network would send it. */
function AuthorizeForm(props: { cards: Card[]; names: Names; action: Action }) {
  const api = useApi();
  const usable = props.cards.filter((card) => card.status !== 'closed');
  const [cardId, setCardId] = useState('');
  const [amount, setAmount] = useState('25.00');
  const [merchant, setMerchant] = useState('OpenAI');
  const [mcc, setMcc] = useState('');
  const [threeDS, setThreeDS] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const chosen = cardId || usable[0]?.id || '';

  const submit = (event: Event) => {
    event.preventDefault();
    const cents = parseAmount(amount);
    if (!chosen) return setProblem('Choose a card.');
    if (cents === undefined) return setProblem('The amount is a positive number of dollars, such as 25 or 12.50.');
    if (mcc && !/^\d{4}$/.test(mcc)) return setProblem('A merchant category code is four digits, such as 5734.');
    if (!merchant.trim()) return setProblem('Name the merchant.');
    setProblem(undefined);
    void props.action.run(
      'authorizing',
      () =>
        api.authorize({ cardId: chosen, amount: cents, merchant: { name: merchant.trim(), ...(mcc ? { mcc } : {}) }, threeDS }),
      (transaction) =>
        transaction.status === 'declined'
          ? `Declined (${transaction.declinedReason ?? 'no reason given'}): ${transaction.id}.`
          : `Approved: ${transaction.id} is ${transaction.status}.`,
    );
  };

  if (api.mode === 'live') return <p>Simulated authorizations are for test mode; a live key cannot make them.</p>;
  if (usable.length === 0) return <p class="muted">Issue a card first: there is no open card to authorize on.</p>;
  return (
    <form class="grid-form" onSubmit={submit} noValidate>
      <SelectField id="auth-card" label="Card" value={chosen} onValue={setCardId} wide>
        {usable.map((card) => (
          <option key={card.id} value={card.id}>
            {[cardName(card), props.names.agent(card.agentId), card.status === 'active' ? undefined : card.status]
              .filter(Boolean)
              .join(' · ')}
          </option>
        ))}
      </SelectField>
      <TextField id="auth-amount" label="Amount (USD)" inputMode="decimal" value={amount} onValue={setAmount} />
      <TextField id="auth-merchant" label="Merchant" maxLength={200} value={merchant} onValue={setMerchant} />
      <TextField
        id="auth-mcc"
        label="Category code (MCC, optional)"
        inputMode="numeric"
        maxLength={4}
        value={mcc}
        onValue={setMcc}
      />
      <label class="choice">
        <input type="checkbox" checked={threeDS} onChange={(event) => setThreeDS((event.target as HTMLInputElement).checked)} />
        Ask for a 3-D Secure challenge
      </label>
      {problem && (
        <p class="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" disabled={props.action.busy !== undefined}>
        Authorize
      </button>
    </form>
  );
}

function TransactionActions(props: { transaction: Transaction; action: Action; onDone(): void }) {
  const api = useApi();
  const { transaction, action } = props;
  const [reason, setReason] = useState('fraudulent');
  const [disputing, setDisputing] = useState(false);
  if (api.mode === 'live') return <span class="muted">—</span>;
  const busy = action.busy !== undefined;
  const label = <span class="visually-hidden"> {transaction.id}</span>;
  const run = (name: string, work: () => Promise<unknown>, done: string) => action.run(name, work, done).then(props.onDone);
  const canDispute =
    transaction.status === 'completed' || (transaction.status === 'reversed' && transaction.reversedAmount < transaction.amount);
  return (
    <div class="actions">
      {transaction.status === 'pending' && (
        <button
          type="button"
          disabled={busy}
          onClick={() => run('settling', () => api.settle(transaction.id), `Settled ${transaction.id}.`)}
        >
          Settle{label}
        </button>
      )}
      {(transaction.status === 'pending' || transaction.status === 'completed') && (
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => run('reversing', () => api.reverse(transaction.id), `Reversed ${transaction.id}.`)}
        >
          Reverse{label}
        </button>
      )}
      {canDispute && !disputing && (
        <button type="button" class="secondary" disabled={busy} onClick={() => setDisputing(true)}>
          Dispute{label}
        </button>
      )}
      {canDispute && disputing && (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            setDisputing(false);
            void run('disputing', () => api.dispute(transaction.id, reason.trim()), `Dispute opened on ${transaction.id}.`);
          }}
        >
          <label for={`dispute-${transaction.id}`}>Dispute reason</label>
          <input
            id={`dispute-${transaction.id}`}
            maxLength={200}
            value={reason}
            onInput={(event) => setReason((event.target as HTMLInputElement).value)}
          />
          <button type="submit" disabled={busy}>
            Open dispute
          </button>
          <button type="button" class="secondary" onClick={() => setDisputing(false)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}

/** What the risk engine flagged on a transaction, and whether it went without an attestation, each flag once. */
function riskFlags(transaction: Transaction, flagged: Map<string, string[]> | undefined): string[] {
  return [
    ...(flagged?.get(transaction.id) ?? []),
    ...(transaction.attestationStatus === 'unattested' ? ['unattested'] : []),
  ].filter((flag, index, all) => all.indexOf(flag) === index);
}

export function TransactionsView() {
  const loaded = useQuery(loadTransactions, [], ['transaction.', 'anomaly.', 'dispute.', 'spend.']);
  const cards = useQuery((api) => api.cards(), [], ['card.']);
  const names = useNames();
  const action = useAction();
  const data = loaded.data;
  const cardOf = (cardId: string) => cards.data?.find((card) => card.id === cardId);

  return (
    <Page
      title="Transactions"
      intro="Every authorization, approved or declined, with the decline reason and what the risk engine flagged. In test mode, simulate the card network here."
    >
      <Section title="Simulate an authorization" id="simulate">
        {cards.data ? <AuthorizeForm cards={cards.data} names={names} action={action} /> : <Loading what="cards" />}
        <ActionStatus action={action} />
      </Section>
      <Section title="Transactions" id="transactions">
        <ResourceTable
          list={{ data: data?.transactions, error: loaded.error }}
          what="transactions"
          empty="No transactions yet."
          label="Transactions"
          columns={['Merchant', { heading: 'Amount', numeric: true }, 'Status', 'Risk flags', 'Card', 'Created', 'Simulate']}
          row={(transaction) => {
            const card = cardOf(transaction.cardId);
            return (
              <tr key={transaction.id}>
                <th scope="row">
                  {transaction.merchant.name}
                  {transaction.merchant.mcc && <span class="sub">MCC {transaction.merchant.mcc}</span>}
                  <span class="sub">
                    <Id value={transaction.id} />
                  </span>
                </th>
                <td class="num">{formatMoney(transaction.amount, transaction.currency)}</td>
                <td>
                  <Status value={transaction.status} />
                  {transaction.declinedReason && (
                    <span class="sub">
                      <code>{transaction.declinedReason}</code>
                    </span>
                  )}
                </td>
                <td class="risk">
                  <RiskFlags flags={riskFlags(transaction, data?.flags)} />
                </td>
                <td>
                  {card ? cardName(card) : <span class="muted">a card</span>}
                  {card && names.agent(card.agentId) && <span class="sub">{names.agent(card.agentId)}</span>}
                  <span class="sub">
                    <Id value={transaction.cardId} />
                  </span>
                </td>
                <td>
                  <Time value={transaction.createdAt} />
                </td>
                <td>
                  <TransactionActions transaction={transaction} action={action} onDone={loaded.reload} />
                </td>
              </tr>
            );
          }}
        />
      </Section>
    </Page>
  );
}
