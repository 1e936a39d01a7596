import type { Agent } from '../api.js';
import { formatMoney } from '../format.js';
import { useAction, useApi, useQuery } from '../hooks.js';
import { Named, useNames } from '../names.js';
import { ActionStatus, Id, Page, ResourceTable, Status, Time } from '../ui.js';

function limitOf(agent: Agent): string {
  if (!agent.limits) return 'none';
  const interval = agent.limits.interval ? ` ${agent.limits.interval.replace(/_/g, ' ')}` : '';
  return `${formatMoney(agent.limits.amount, agent.limits.currency)}${interval}`;
}

export function AgentsView() {
  const api = useApi();
  const agents = useQuery((client) => client.agents(), [], ['agent.', 'card.']);
  const names = useNames();
  const action = useAction();
  const act = (agent: Agent, suspend: boolean) =>
    action
      .run(
        `${suspend ? 'suspending' : 'activating'} ${agent.name}`,
        () => (suspend ? api.suspendAgent(agent.id) : api.activateAgent(agent.id)),
        `${agent.name} is ${suspend ? 'suspended: its cards are frozen' : 'active again'}.`,
      )
      .then(agents.reload);

  return (
    <Page
      title="Agents"
      intro="The agents that spend on behalf of their owner. Suspending one freezes its cards and declines its spending until it is activated again."
    >
      <ActionStatus action={action} />
      <ResourceTable
        list={agents}
        what="agents"
        empty="No agents yet."
        label="Agents"
        columns={['Agent', 'Owner', 'Status', 'Spending limit', 'Created', 'Actions']}
        row={(agent) => (
          <tr key={agent.id}>
            <th scope="row">
              {agent.name}
              <span class="sub">
                <Id value={agent.id} />
              </span>
            </th>
            <td>
              <Named name={names.owner(agent.ownerId)} id={agent.ownerId} />
            </td>
            <td>
              <Status value={agent.status} />
            </td>
            <td>{limitOf(agent)}</td>
            <td>
              <Time value={agent.createdAt} />
            </td>
            <td>
              {agent.status === 'active' ? (
                <button type="button" disabled={action.busy !== undefined} onClick={() => act(agent, true)}>
                  Suspend<span class="visually-hidden"> {agent.name}</span>
                </button>
              ) : (
                <button type="button" disabled={action.busy !== undefined} onClick={() => act(agent, false)}>
                  Activate<span class="visually-hidden"> {agent.name}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </Page>
  );
}
