/**
 * Where a person approves or rejects an intent: the page's address for an intent id, or null where no page is
 * served. It becomes the intent's `approvalUrl` when the intent is declared (and `intent.pending_approval`'s).
 */
export type ApprovalPage = (intentId: string) => string | null;

/** No page: every `approvalUrl` is null (in-process, and a server without its dashboard). */
export const NO_APPROVAL_PAGE: ApprovalPage = () => null;
