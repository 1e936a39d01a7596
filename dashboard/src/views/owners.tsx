import type { Balance, DashboardApi, Owner } from '../api.js';
import { BALANCE_COLUMNS, BalanceCells } from '../balances.js';
import { useApi, useQuery } from '../hooks.js';
import { ownerName } from '../names.js';
import { Id, Page, ResourceTable, Status, Time } from '../ui.js';

async function loadOwners(api: DashboardApi): Promise<{ owner: Owner; balance: Balance | undefined }[]> {
  const owners = await api.owners();
  // A deleted owner has no balance to read; its row still shows.
  return Promise.all(owners.map(async (owner) => ({ owner, balance: await api.balance(owner.id).catch(() => undefined) })));
}

export function OwnersView() {
  const api = useApi();
  const title = api.ownerNoun === 'user' ? 'Users' : 'Customers';
  const owners = useQuery(loadOwners, [], ['user.', 'verification.', 'deposit.', 'transaction.', 'withdrawal.', 'dispute.']);
  return (
    <Page title={title} intro={`The account holders that own agents and cards, with their balances (KYC status and funds).`}>
      <ResourceTable
        list={owners}
        what={title.toLowerCase()}
        empty={`No ${title.toLowerCase()} yet: create one with the SDK or the API.`}
        label={title}
        columns={['Name', 'Status', 'KYC', ...BALANCE_COLUMNS, 'Created']}
        row={({ owner, balance }) => (
          <tr key={owner.id}>
            <th scope="row">
              {ownerName(owner)}
              {ownerName(owner) !== owner.email && <span class="sub">{owner.email}</span>}
              <span class="sub">
                <Id value={owner.id} />
              </span>
            </th>
            <td>
              <Status value={owner.status} />
            </td>
            <td>
              <Status value={owner.kycStatus} />
            </td>
            <BalanceCells balance={balance} />
            <td>
              <Time value={owner.createdAt} />
            </td>
          </tr>
        )}
      />
    </Page>
  );
}
