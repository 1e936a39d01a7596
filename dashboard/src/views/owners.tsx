import type { Balance, DashboardApi, Owner } from '../api.js';
import { formatMoney } from '../format.js';
import { useApi, useQuery } from '../hooks.js';
import { Empty, ErrorNotice, Id, Loading, Page, Status, TableWrap, Time } from '../ui.js';

async function loadOwners(api: DashboardApi): Promise<{ owner: Owner; balance: Balance | undefined }[]> {
  const owners = await api.owners();
  // A deleted owner has no balance to read; its row still shows.
  return Promise.all(owners.map(async (owner) => ({ owner, balance: await api.balance(owner.id).catch(() => undefined) })));
}

function displayName(owner: Owner): string {
  const name = [owner.name?.first, owner.name?.last].filter(Boolean).join(' ');
  return name || owner.email;
}

export function OwnersView() {
  const api = useApi();
  const title = api.ownerNoun === 'user' ? 'Users' : 'Customers';
  const owners = useQuery(loadOwners, [], ['user.', 'verification.', 'deposit.', 'transaction.', 'withdrawal.', 'dispute.']);
  return (
    <Page title={title} intro={`The account holders that own agents and cards, with their balances (KYC status and funds).`}>
      <ErrorNotice error={owners.error} />
      {!owners.data && !owners.error && <Loading what={title.toLowerCase()} />}
      {owners.data?.length === 0 && <Empty>No {title.toLowerCase()} yet: create one with the SDK or the API.</Empty>}
      {owners.data && owners.data.length > 0 && (
        <TableWrap label={title}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
              <th scope="col">Status</th>
              <th scope="col">KYC</th>
              <th scope="col" class="num">
                Available
              </th>
              <th scope="col" class="num">
                Pending
              </th>
              <th scope="col" class="num">
                Posted
              </th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {owners.data.map(({ owner, balance }) => (
              <tr key={owner.id}>
                <th scope="row">
                  {displayName(owner)}
                  <span class="sub">{owner.email}</span>
                </th>
                <td>
                  <Id value={owner.id} />
                </td>
                <td>
                  <Status value={owner.status} />
                </td>
                <td>
                  <Status value={owner.kycStatus} />
                </td>
                <td class="num">{formatMoney(balance?.available, balance?.currency)}</td>
                <td class="num">{formatMoney(balance?.pending, balance?.currency)}</td>
                <td class="num">{formatMoney(balance?.posted, balance?.currency)}</td>
                <td>
                  <Time value={owner.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </Page>
  );
}
