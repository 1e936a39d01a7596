// Objects as a person knows them: an agent by the name its owner gave it, an owner by name or email, a card by its
// last four digits; the id beside each, secondary (Id). Views that refer to agents and owners load their names here.
import type { Agent, Card, Owner } from './api.js';
import { useQuery } from './hooks.js';
import { Id } from './ui.js';

/** An owner's name as the API holds it, else the email address. */
export function ownerName(owner: Owner): string {
  const name = [owner.name?.first, owner.name?.last].filter(Boolean).join(' ');
  return name || owner.email;
}

/** A card as its holder sees it: the last four digits. */
export const cardName = (card: Pick<Card, 'last4'>) => `•••• ${card.last4 ?? '????'}`;

/** The names of the organization's agents and owners, by id (empty until loaded). */
export interface Names {
  agent(id: string | null | undefined): string | undefined;
  owner(id: string | null | undefined): string | undefined;
}

function lookup<T extends { id: string }>(items: readonly T[] | undefined, name: (item: T) => string) {
  const byId = new Map((items ?? []).map((item) => [item.id, name(item)]));
  return (id: string | null | undefined) => (id ? byId.get(id) : undefined);
}

/** Loads the names of agents and owners, again when one is created or changed. */
export function useNames(): Names {
  const agents = useQuery((api) => api.agents(), [], ['agent.']);
  const owners = useQuery((api) => api.owners(), [], ['customer.', 'user.']);
  return {
    agent: lookup<Agent>(agents.data, (agent) => agent.name),
    owner: lookup<Owner>(owners.data, ownerName),
  };
}

/** An object a row refers to: its name first, its id under it; a dash for none. */
export function Named(props: { name: string | undefined; id: string | null | undefined }) {
  if (!props.id) return <span class="muted">—</span>;
  return (
    <>
      {props.name ?? <span class="muted">unnamed</span>}
      <span class="sub">
        <Id value={props.id} />
      </span>
    </>
  );
}
