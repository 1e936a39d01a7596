/** How the MCP server asks for a person's decision when a tool left an intent waiting for one (see docs/agents.md). */
export interface ApprovalElicitationOptions {
  /**
   * `false` never shows the approval card (MCP Apps) to a client that renders MCP Apps: such a client is asked the
   * way it would be without the extension (for hosts you do not trust to keep a tool result's `_meta` from the model;
   * docs/agents.md, the threat model). Default `true`.
   */
  apps?: boolean | undefined;
  /**
   * `false` never asks the client to show the approval page (URL elicitation, on either revision of MCP): the model
   * gets the link and waits with `wait_for_approval`, as with a client that cannot show a URL. Default `true`.
   */
  elicitation?: boolean | undefined;
  /**
   * `false` never answers with a task (MCP's tasks extension) to a client that declared it: such a client is asked
   * the way it would be without the extension. Default `true`.
   */
  tasks?: boolean | undefined;
  /**
   * How long a 2025-11-25 client has to answer the elicitation (show the link, and say whether the person opens it),
   * in milliseconds. A client that never answers costs no more than this; the model then gets the link. Default
   * 60 000. (A 2026-07-28 client answers by retrying its call, whenever it likes.)
   */
  elicitationTimeoutMs?: number | undefined;
  /**
   * Once the person opened the page, how long the tool call waits for their decision, in seconds, before it answers
   * the intent as it is (the model then waits with `wait_for_approval`). Default 120, at most 300.
   */
  decisionWaitSeconds?: number | undefined;
}

/** The options with their defaults, checked once when the server is created. */
export interface ApprovalSettings {
  apps: boolean;
  elicitation: boolean;
  tasks: boolean;
  elicitationTimeoutMs: number;
  decisionWaitSeconds: number;
}

const MAX_DECISION_WAIT_SECONDS = 300;

export function approvalSettings(options: ApprovalElicitationOptions = {}): ApprovalSettings {
  const settings = {
    apps: options.apps ?? true,
    elicitation: options.elicitation ?? true,
    tasks: options.tasks ?? true,
    elicitationTimeoutMs: options.elicitationTimeoutMs ?? 60_000,
    decisionWaitSeconds: options.decisionWaitSeconds ?? 120,
  };
  if (!Number.isSafeInteger(settings.elicitationTimeoutMs) || settings.elicitationTimeoutMs < 1) {
    throw new TypeError(
      `approval.elicitationTimeoutMs must be a positive whole number of milliseconds, got ${String(options.elicitationTimeoutMs)}.`,
    );
  }
  const wait = settings.decisionWaitSeconds;
  if (!Number.isSafeInteger(wait) || wait < 1 || wait > MAX_DECISION_WAIT_SECONDS) {
    throw new TypeError(
      `approval.decisionWaitSeconds must be a whole number of seconds from 1 to ${MAX_DECISION_WAIT_SECONDS}, got ${String(options.decisionWaitSeconds)}.`,
    );
  }
  return settings;
}
