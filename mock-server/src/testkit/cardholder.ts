import { type Cardrail, CardrailUsers } from '@cardrail/sdk';

type CustomerCardBody = Parameters<Cardrail['cards']['create']>[0];
type UserCardBody = Parameters<CardrailUsers['cards']['create']>[0];
type CustomerAgentBody = Parameters<Cardrail['agents']['create']>[0];
type UserAgentBody = Parameters<CardrailUsers['agents']['create']>[0];

/** What `mock.cardholder()` sets up, in the client's variant's shapes. */
export interface CardholderOptions<Client extends Cardrail | CardrailUsers> {
  /** A client made by `mock.client()` (or any client of the mock); its organization gets the card holder. */
  client: Client;
  /** Deposited on the owner's balance, in cents. Default 1,000,000 ($10,000); 0 leaves the balance empty. */
  balance?: number;
  /** The owner's email. Default: a new address per call. */
  email?: string;
  /** The agent's fields (its name, limits, policy). */
  agent?: Omit<Client extends CardrailUsers ? UserAgentBody : CustomerAgentBody, 'customerId' | 'userId'>;
  /** The card's fields, as the client's variant takes them (limits, policy, merchantHint, ...). */
  card?: Omit<Client extends CardrailUsers ? UserCardBody : CustomerCardBody, 'customerId' | 'agentId'>;
}

/** What the client's variant answers when it creates an owner, an agent or a card. */
type Created<Client, Method extends 'owner' | 'agent' | 'card'> = Client extends CardrailUsers
  ? {
      owner: Awaited<ReturnType<CardrailUsers['users']['create']>>;
      agent: Awaited<ReturnType<CardrailUsers['agents']['create']>>;
      card: Awaited<ReturnType<CardrailUsers['cards']['create']>>;
    }[Method]
  : {
      owner: Awaited<ReturnType<Cardrail['customers']['create']>>;
      agent: Awaited<ReturnType<Cardrail['agents']['create']>>;
      card: Awaited<ReturnType<Cardrail['cards']['create']>>;
    }[Method];

/** A funded owner (customer or user) with an agent and a card, as the client's variant answers them. */
export interface Cardholder<Client extends Cardrail | CardrailUsers> {
  /** The customer (`Cardrail`) or user (`CardrailUsers`), with `balance` deposited. */
  owner: Created<Client, 'owner'>;
  /** The owner's agent, active, with the `agent` fields given. */
  agent: Created<Client, 'agent'>;
  /** The agent's card, with the `card` fields given. */
  card: Created<Client, 'card'>;
}

let holders = 0;

/** Creates, through the client's API, an owner with `balance` deposited, an active agent and a card of that agent. */
export async function createCardholder<Client extends Cardrail | CardrailUsers>(
  options: CardholderOptions<Client>,
): Promise<Cardholder<Client>> {
  const { client } = options;
  const email = options.email ?? `holder-${++holders}@example.com`;
  const balance = options.balance ?? 1_000_000;
  // Each branch calls its own variant's API; the conditional types above name exactly what that branch returns.
  if (client instanceof CardrailUsers) {
    const owner = await client.users.create({ email });
    if (balance > 0) await client.simulate.deposit({ userId: owner.id, amount: balance });
    const agent = await client.agents.create({
      name: 'Test agent',
      ...(options.agent as Partial<UserAgentBody>),
      userId: owner.id,
    });
    const card = await client.cards.create({ ...(options.card as Partial<UserCardBody>), agentId: agent.id });
    return { owner, agent, card } as Cardholder<Client>;
  }
  const owner = await client.customers.create({ email });
  if (balance > 0) await client.simulate.deposit({ customerId: owner.id, amount: balance });
  const agent = await client.agents.create({
    name: 'Test agent',
    ...(options.agent as Partial<CustomerAgentBody>),
    customerId: owner.id,
  });
  const card = await client.cards.create({
    ...(options.card as Partial<CustomerCardBody>),
    customerId: owner.id,
    agentId: agent.id,
  });
  return { owner, agent, card } as Cardholder<Client>;
}
