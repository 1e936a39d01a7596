import type { CustomerPaths, Operation, QueryParams } from '@cardrail/sdk';
import type { ToolHandler } from './tool-handler.js';

type TransactionQuery = QueryParams<Operation<CustomerPaths, '/transactions', 'get'>>;

/** `GET /transactions` filtered to the bound agent (and the card named or bound): one page. */
export const listTransactions: ToolHandler = async (input, { client, scope }) => {
  const page = await client.transactions.list({ ...(input as TransactionQuery), agentId: scope.agentId });
  return { data: page.data, nextCursor: page.nextCursor, hasMore: page.hasMore };
};
