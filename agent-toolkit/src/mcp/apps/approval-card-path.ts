import type { ApprovalPath } from '../approval/approval-path.js';
import { callToolResult } from '../tool-result.js';
import { APPROVAL_CARD_META, type ApprovalCardMeta } from './card-protocol.js';
import { rendersApps } from './ui-extension.js';

/** What the model is told beside the intent when the card shows it. */
const CARD_SHOWN_NOTE = 'The client shows the person an approval card with this purchase, where they approve or reject it.';

/**
 * For a client that renders MCP Apps (`io.modelcontextprotocol/ui` with HTML views), first in the order: the tool's
 * result is the intent, as for any client, and the client renders it in the approval card the tool links
 * (`_meta.ui.resourceUri`), where a person sees the purchase and decides. The result's `_meta` carries the card's
 * decision capability for this intent (decision-capability.ts); the model gets the intent, a note, its link and the
 * `wait_for_approval` step, and waits there for the person's decision.
 */
export const approvalCardPath: ApprovalPath = {
  name: 'approval-card',
  applies: (client, settings) => settings.apps && rendersApps(client),
  async begin(call, declared, intent) {
    // The intent's lifetime, counted on this server's clock: the API's clock may be a test clock, frozen or moved on.
    const lifetime = Date.parse(intent.expiresAt) - Date.parse(intent.createdAt);
    if (!Number.isSafeInteger(lifetime) || lifetime <= 0) return callToolResult(declared);
    const capability = await call.capabilities.mint({ intentId: intent.id, expiresAt: Date.now() + lifetime });
    const meta: ApprovalCardMeta = { intentId: intent.id, capability };
    return { ...callToolResult(declared, CARD_SHOWN_NOTE), _meta: { [APPROVAL_CARD_META]: meta } };
  },
};
