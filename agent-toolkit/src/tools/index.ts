import type { ToolName } from '../generated/tool-schemas.js';
import { checkSpendingPower } from './check-spending-power.js';
import { declareIntent } from './declare-intent.js';
import { evaluateSpend } from './evaluate-spend.js';
import { freezeCard } from './freeze-card.js';
import { getCardCredentials } from './get-card-credentials.js';
import { getIntent } from './get-intent.js';
import { listTransactions } from './list-transactions.js';
import { payMerchant } from './pay-merchant.js';
import type { ToolHandler } from './tool-handler.js';
import { waitForApproval } from './wait-for-approval.js';

/** The handler of every generated tool; a tool added to the catalog fails to compile until it has one. */
export const toolHandlers: Record<ToolName, ToolHandler> = {
  check_spending_power: checkSpendingPower,
  evaluate_spend: evaluateSpend,
  declare_intent: declareIntent,
  get_intent: getIntent,
  wait_for_approval: waitForApproval,
  get_card_credentials: getCardCredentials,
  pay_merchant: payMerchant,
  list_transactions: listTransactions,
  freeze_card: freezeCard,
};
