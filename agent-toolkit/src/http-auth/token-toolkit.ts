import { CardrailToolkit } from '../toolkit.js';
import { ToolError } from '../tool-error.js';
import type { ToolCallOptions } from '../tools/tool-handler.js';

const refusedStatus = (error: unknown) => {
  const status = (error as { status?: unknown }).status;
  return status === 404 || status === 403;
};

/**
 * A toolkit for the agent an access token names. Before its first tool call it asks the API for that agent with the
 * organization's key: an agent the key cannot see (another organization's, or none) refuses every call with
 * `out_of_scope`, and nothing else is sent. Listing the tools sends nothing.
 */
export class TokenToolkit extends CardrailToolkit {
  #agentSeen: Promise<void> | undefined;

  override async run(name: string, input?: unknown, options: ToolCallOptions = {}): Promise<unknown> {
    await this.#agentVisible();
    return super.run(name, input, options);
  }

  #agentVisible(): Promise<void> {
    this.#agentSeen ??= this.client.agents.retrieve(this.agentId).then(
      () => undefined,
      (error: unknown) => {
        // Forgotten, so that the next call asks again (an agent created since, or the API back).
        this.#agentSeen = undefined;
        if (!refusedStatus(error)) throw error;
        throw new ToolError({
          code: 'out_of_scope',
          message:
            `The access token names agent ${this.agentId}, which this server's API key cannot see; nothing was done. ` +
            'The sign-in must issue tokens for an agent of the organization this server serves.',
          details: { agentId: this.agentId },
        });
      },
    );
    return this.#agentSeen;
  }
}
