import type { CustomerPaths, Operation, RequestBody } from '@cardrail/sdk';
import type { ToolHandler } from './tool-handler.js';

type EvaluateBody = RequestBody<Operation<CustomerPaths, '/spend/evaluate', 'post'>>;

/** `POST /spend/evaluate` for the bound agent: the API also refuses a card that is not that agent's. */
export const evaluateSpend: ToolHandler = (input, { client, scope }) =>
  client.spend.evaluate({ ...(input as EvaluateBody), agentId: scope.agentId });
