import { CardrailClient } from './cardrail-client.js';
import { ClientCore } from './core/client-core.js';
import type { ClientOptions } from './core/client-options.js';
import { USER_ROUTES } from './resources/owner-routes.js';
import { Owners, type Users } from './resources/owners.js';
import type { UserPaths } from './resources/variant-paths.js';

/**
 * Client of the user variant (`Api-Key: <key>`): users instead of customers, user-variant cards (`createdAt` in epoch
 * ms, `purpose`), and webhooks in the event-catalog envelope.
 */
export class CardrailUsers extends CardrailClient<UserPaths> {
  readonly users: Users;

  constructor(options: ClientOptions = {}) {
    const core = new ClientCore<UserPaths>(options, (apiKey) => ({ 'Api-Key': apiKey }));
    super(options, core, USER_ROUTES);
    this.users = new Owners(core, USER_ROUTES);
  }
}
