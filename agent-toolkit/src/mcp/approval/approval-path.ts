import type { ToolResult } from '../../toolkit.js';
import { approvalCardPath } from '../apps/approval-card-path.js';
import { callToolResult } from '../tool-result.js';
import type { ApprovalCall, ApprovalClient, ApprovalState, ToolCallAnswer, WaitingIntent } from './approval-call.js';
import { legacyElicitationPath } from './legacy-elicitation.js';
import type { ApprovalSettings } from './settings.js';
import { taskPath } from './task-path.js';
import { urlElicitationPath } from './url-elicitation.js';

/**
 * One way of getting a person's decision to a client, for a tool whose catalog entry says it may need a person. A
 * path is chosen before the tool runs, from what the client declared, so that nothing is created for a client that
 * cannot take the path.
 */
export interface ApprovalPath {
  /** Its name, signed into the `requestState` of a request for input so that the retry resumes the same path. */
  readonly name: string;
  /** Whether it serves this client with these settings. */
  applies(client: ApprovalClient, settings: ApprovalSettings): boolean;
  /** The answer to a call whose tool answered `declared`, an intent waiting for a person. */
  begin(call: ApprovalCall, declared: ToolResult, intent: WaitingIntent): Promise<ToolCallAnswer>;
  /** The answer to the retry of a call this path answered with `input_required` (2026-07-28). */
  resume?(call: ApprovalCall, state: ApprovalState): Promise<ToolCallAnswer>;
}

/**
 * Every client can take this one: the tool's answer as it is, whose next step gives the model the approval page's
 * link and `wait_for_approval`.
 */
const linkPath: ApprovalPath = {
  name: 'link',
  applies: () => true,
  begin: async (_call, declared) => callToolResult(declared),
};

/**
 * The paths in the order they are preferred: the first that applies serves the client. The approval card goes first:
 * the person decides where the conversation is, with the purchase in front of them.
 */
const APPROVAL_PATHS: readonly ApprovalPath[] = [approvalCardPath, taskPath, urlElicitationPath, legacyElicitationPath, linkPath];

export function chooseApprovalPath(client: ApprovalClient, settings: ApprovalSettings): ApprovalPath {
  return APPROVAL_PATHS.find((path) => path.applies(client, settings)) ?? linkPath;
}

export function approvalPathNamed(name: string): ApprovalPath | undefined {
  return APPROVAL_PATHS.find((path) => path.name === name);
}
