// What the approval card's server side and its view agree on: where the capability travels and the tools' names.
// Types and constants only, so that the view's bundle takes nothing else of the server with it.
import type { AppToolName } from '../../generated/tool-schemas.js';

/**
 * The key of a tool result's `_meta` that carries the approval card's decision capability to its view. MCP Apps
 * hosts hand a result's `_meta` to the view and keep it out of the model's context (the extension's spec, "Data
 * Passing": `_meta` is "not intended for model context"); `content` and `structuredContent` never carry it.
 */
export const APPROVAL_CARD_META = 'dev.cardrail/approvalCard';

/** What `_meta[APPROVAL_CARD_META]` holds. */
export interface ApprovalCardMeta {
  intentId: string;
  capability: string;
}

/** The card's tool that reads what it shows (and waits for a decision made elsewhere). */
export const READ_TOOL: AppToolName = 'approval_card_read';
/** The card's tool that approves or rejects. */
export const DECIDE_TOOL: AppToolName = 'approval_card_decide';
/** How long one read of the card waits for a decision made elsewhere, in seconds (its schema allows 25). */
export const FOLLOW_SECONDS = 20;
