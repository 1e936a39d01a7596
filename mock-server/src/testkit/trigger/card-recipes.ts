import { type Recipe, TTL_SECONDS } from './recipe.js';

/** The lifecycle events of agents and cards. */
export const cardRecipes = {
  'agent.activated': {
    how: 'suspends a new agent, then activates it',
    async run(world) {
      const { agent } = await world.holder();
      await world.client.agents.suspend(agent);
      await world.client.agents.activate(agent);
      world.step(`suspended and activated ${agent}`);
    },
  },
  'agent.created': {
    how: 'creates an agent',
    async run(world) {
      await world.agent(await world.owner({ balance: 0 }));
    },
  },
  'agent.suspended': {
    how: 'suspends a new agent',
    async run(world) {
      const { agent } = await world.holder();
      await world.client.agents.suspend(agent);
      world.step(`suspended ${agent}`);
    },
  },
  'card.closed': {
    how: 'closes a new card',
    async run(world) {
      const { card } = await world.holder();
      await world.client.cards.close(card);
      world.step(`closed ${card}`);
    },
  },
  'card.created': {
    how: 'issues a card',
    async run(world) {
      await world.holder();
    },
  },
  'card.expired': {
    how: 'issues a card that lives one minute, then lets the minute pass',
    time: { seconds: TTL_SECONDS },
    async run(world) {
      await world.holder({ card: { shortLived: true } });
      await world.pass(TTL_SECONDS, "the card's time-to-live");
    },
  },
  'card.frozen': {
    how: 'freezes a new card',
    async run(world) {
      const { card } = await world.holder();
      await world.client.cards.freeze(card);
      world.step(`froze ${card}`);
    },
  },
} satisfies Record<string, Recipe>;
