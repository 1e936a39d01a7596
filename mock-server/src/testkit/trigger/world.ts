import { type Cardrail, CardrailUsers } from '@cardrail/sdk';

/** The client a trigger drives: either variant, against any mock (in-process or over HTTP). */
export type TriggerClient = Cardrail | CardrailUsers;

type RiskUpdate = Parameters<Cardrail['settings']['risk']['update']>[0];
type Policy = NonNullable<Parameters<Cardrail['agents']['create']>[0]['policy']>;
type SpendingLimit = NonNullable<Parameters<Cardrail['agents']['create']>[0]['limits']>;

/** A card to issue: the same wishes whatever the variant's card body calls them. */
export interface CardWishes {
  single?: boolean;
  merchantHint?: string;
  /** Expires a minute after issue (the customer variant's `policy.ttlMinutes`; the user variant's agent policy). */
  shortLived?: boolean;
}

let holders = 0;

/**
 * How a recipe that needs time to pass gets it: `advance` moves the organization's test clock (for good: later
 * signatures carry its time), `real-time` waits for the wall clock (a running test clock follows it), so that a
 * receiver verifying against its own clock keeps accepting the organization's deliveries.
 */
export type TimePassing = 'advance' | 'real-time';

export interface TriggerWorldOptions {
  time?: TimePassing;
  /** Called with each step as it is taken. */
  onStep?: (step: string) => void;
}

/**
 * What recipes make and drive, through the client's API only: owners, agents and cards in the variant's own shapes,
 * authorizations, risk rules set for one recipe and put back after it, and the test clock. Each step it takes is
 * written down for the command to print.
 */
export class TriggerWorld {
  readonly steps: string[] = [];
  readonly #options: TriggerWorldOptions;

  constructor(
    readonly client: TriggerClient,
    options: TriggerWorldOptions = {},
  ) {
    this.#options = options;
  }

  /** Writes a step down (and tells the caller at once). */
  step(text: string): void {
    this.steps.push(text);
    this.#options.onStep?.(text);
  }

  get variant(): 'customer' | 'user' {
    return this.client instanceof CardrailUsers ? 'user' : 'customer';
  }

  /** A new owner (customer or user) with `balance` cents deposited; `kyc` approves its application first. */
  async owner(options: { balance?: number; kyc?: boolean } = {}): Promise<string> {
    const { balance = 1_000_000, kyc = false } = options;
    const email = `trigger-${Date.now().toString(36)}-${++holders}@example.com`;
    const { client } = this;
    const id =
      client instanceof CardrailUsers
        ? (await client.users.create({ email })).id
        : (await client.customers.create({ email, type: 'consumer' })).id;
    this.step(`created ${this.variant} ${id}`);
    if (kyc) await this.kyc(id, 'approved');
    if (balance > 0) {
      if (client instanceof CardrailUsers) await client.simulate.deposit({ userId: id, amount: balance });
      else await client.simulate.deposit({ customerId: id, amount: balance });
      this.step(`deposited ${balance} cents`);
    }
    return id;
  }

  async kyc(owner: string, status: 'approved' | 'denied' | 'needsInformation'): Promise<void> {
    const { client } = this;
    const outcome = {
      status,
      ...(status === 'denied' ? { reason: 'document expired' } : {}),
      ...(status === 'needsInformation' ? { requiredFields: ['address'] } : {}),
    };
    if (client instanceof CardrailUsers) await client.simulate.kyc({ userId: owner, ...outcome });
    else await client.simulate.kyc({ customerId: owner, ...outcome });
    this.step(`KYC of ${owner}: ${status}`);
  }

  async agent(owner: string, fields: { policy?: Policy; limits?: SpendingLimit } = {}): Promise<string> {
    const { client } = this;
    const body = { name: 'Triggered agent', ...fields };
    const id =
      client instanceof CardrailUsers
        ? (await client.agents.create({ ...body, userId: owner })).id
        : (await client.agents.create({ ...body, customerId: owner })).id;
    this.step(`created agent ${id}`);
    return id;
  }

  async card(owner: string, agent: string, wishes: CardWishes = {}): Promise<string> {
    const { client } = this;
    const hint = wishes.merchantHint === undefined ? {} : { merchantHint: wishes.merchantHint };
    const id =
      client instanceof CardrailUsers
        ? (await client.cards.create({ agentId: agent, type: wishes.single ? 'single' : 'multi', ...hint })).id
        : (
            await client.cards.create({
              customerId: owner,
              agentId: agent,
              usage: wishes.single ? 'single' : 'multi',
              ...hint,
              ...(wishes.shortLived ? { policy: { ttlMinutes: 1 } } : {}),
            })
          ).id;
    this.step(`issued card ${id}`);
    return id;
  }

  /** A funded owner, an agent (with `agent` fields) and a card of that agent. */
  async holder(options: { agent?: { policy?: Policy; limits?: SpendingLimit }; card?: CardWishes } = {}) {
    const owner = await this.owner();
    // The user variant's card has no policy of its own: a short life comes from its agent's policy.
    const shortLivedAgent = this.variant === 'user' && options.card?.shortLived;
    const agentFields = shortLivedAgent
      ? { ...options.agent, policy: { ...options.agent?.policy, ttlMinutes: 1 } }
      : options.agent;
    const agent = await this.agent(owner, agentFields);
    const card = await this.card(owner, agent, options.card);
    return { owner, agent, card };
  }

  async authorize(card: string, amount: number, merchant: string, extra: { threeDS?: boolean } = {}) {
    const transaction = await this.client.simulate.authorize({
      cardId: card,
      amount,
      currency: 'usd',
      merchant: { name: merchant, mcc: '5734' },
      ...extra,
    });
    this.step(
      `authorized ${amount} cents at ${merchant} on ${card}: ${transaction.id} ${transaction.status}${transaction.declinedReason ? ` (${transaction.declinedReason})` : ''}`,
    );
    return transaction;
  }

  /**
   * Runs `drive` with the organization's risk engine on the `permissive` preset plus `rules` (so that no other rule
   * of the organization interferes), then puts the organization's settings back as they were.
   */
  async withRisk<T>(rules: Omit<RiskUpdate, 'preset'>, drive: () => Promise<T>): Promise<T> {
    const risk = this.client.settings.risk;
    const saved = await risk.retrieve();
    await risk.update({ preset: 'permissive', ...rules });
    this.step(`set the risk engine to ${describeRules(rules)} for this trigger`);
    try {
      return await drive();
    } finally {
      const { object: _object, preset, ...rest } = saved;
      await risk.update(preset === 'custom' ? rest : { preset });
      if (preset !== 'custom' && (await risk.retrieve()).dryRun !== saved.dryRun) await risk.update({ dryRun: saved.dryRun });
      this.step(`put the risk settings back (${preset})`);
    }
  }

  /**
   * Lets `seconds` pass on the organization's test clock: advances it, or, in `real-time`, waits that long (and a
   * second more) for the wall clock, unless the clock is frozen, which only an advance moves.
   */
  async pass(seconds: number, why: string): Promise<void> {
    const { clock } = this.client.simulate;
    if (this.#options.time === 'real-time' && !(await clock.retrieve()).frozen) {
      this.step(`waiting ${formatDuration(seconds + 1)} for ${why} (the test clock runs with the wall clock)`);
      await new Promise((resolve) => setTimeout(resolve, (seconds + 1) * 1000));
      // A request applies the work that fell due meanwhile.
      await clock.retrieve();
      return;
    }
    await clock.advance({ seconds });
    this.step(`advanced the organization's test clock by ${formatDuration(seconds)} (${why})`);
  }
}

function describeRules(rules: object): string {
  const names = Object.keys(rules);
  return names.length === 0 ? 'no rules' : `only ${names.join(', ')}`;
}

function formatDuration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
