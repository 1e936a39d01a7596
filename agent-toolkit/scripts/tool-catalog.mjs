// The curated tool set: which operation of the spec each tool calls, which request fields the toolkit fixes itself
// (so the model never sees them), and the guidance a model needs on top of the spec's own text. The input schemas
// and the rest of the descriptions come from the bundled spec (generate-tools.mjs).

/**
 * @typedef {object} CatalogTool
 * @property {string} name The tool's name, as a model sees it.
 * @property {'get' | 'post'} method
 * @property {string} path The operation's path in the spec.
 * @property {string[]} [fixed] Request fields the toolkit sets itself; generation fails when one is not in the spec.
 * @property {string[]} [fixedWhenPresent] Fields the toolkit leaves out where the variant has them (the owner id).
 * @property {boolean} readOnly Whether the tool changes nothing (MCP's readOnlyHint).
 * @property {string} guidance For the model: when to call the tool and how to read its answer.
 */

/** The owner's id field: `customerId` in the customer variant; the user variant may name it `userId`. */
const OWNER_FIELDS = ['customerId', 'userId'];

/** @type {CatalogTool[]} */
export const toolCatalog = [
  {
    name: 'check_spending_power',
    method: 'get',
    path: '/cards/{cardId}/policy',
    readOnly: true,
    guidance:
      'Call this before planning a purchase. `limits.remainingDay` and `limits.remainingMonth` are what you may still ' +
      'spend (null: no cap), `cooldown.isInCooldown` and `cooldownEndsAt` say when the next payment is allowed, ' +
      '`ttl.isExpired` and `expiresAt` when the card stops working, and `policy` which rules apply (requireIntent, ' +
      'requireApproval, allowed merchants and categories). All amounts are in minor units (cents).',
  },
  {
    name: 'evaluate_spend',
    method: 'post',
    path: '/spend/evaluate',
    fixed: ['agentId'],
    fixedWhenPresent: OWNER_FIELDS,
    readOnly: true,
    guidance:
      'Ask whether a purchase would be approved right now, without spending anything. `decision` is `approve`, ' +
      '`decline` (each entry of `reasons` says why) or `review` (declare an intent first, or wait for its approval). ' +
      'Amounts are in cents.',
  },
  {
    name: 'declare_intent',
    method: 'post',
    path: '/intents',
    readOnly: false,
    guidance:
      'Declare what you are about to buy before you pay: a short summary, the expected amount in cents and, when ' +
      'you know it, the merchant. When the card requires approval the intent starts as `pending_approval` and a ' +
      'human must approve it: check it with get_intent until it is `pending` (usable) or `rejected`. The payment ' +
      'later matches the intent when its amount is within the tolerance and the merchant is the one declared.',
  },
  {
    name: 'get_intent',
    method: 'get',
    path: '/intents/{intentId}',
    readOnly: true,
    guidance:
      'Check an intent you declared. `pending_approval`: a human has not decided yet, do not pay. `pending`: ' +
      'declared and approved (or no approval needed), you may retrieve the credentials and pay. `rejected`: do not ' +
      'pay (`rejectionReason` says why). `matched` or `mismatched`: a payment was made against it. `expired`: ' +
      'declare a new one if you still need to buy.',
  },
  {
    name: 'get_card_credentials',
    method: 'post',
    path: '/cards/{cardId}/credentials',
    fixed: ['exposureMode'],
    readOnly: false,
    guidance:
      'Retrieve the card details right before paying, for a purchase you declared. Every call is recorded ' +
      '(`credential.accessed`) and opens the attestation window: pay before `expiresAt`. Refused with ' +
      '`intent_required` when the card needs an intent and has no usable one, `approval_required` while its intent ' +
      'awaits approval, and `card_not_active` when the card is frozen or closed. Depending on how the developer ' +
      'configured this toolkit you get the full number and CVC, or only the last 4 digits and the expiry. Never ' +
      'repeat card numbers in your messages.',
  },
  {
    name: 'list_transactions',
    method: 'get',
    path: '/transactions',
    fixed: ['agentId'],
    readOnly: true,
    guidance:
      'Your own card transactions, newest first: amount in cents, status and, for a declined one, the reason. ' +
      'When `hasMore` is true, pass `nextCursor` as `cursor` for the next page.',
  },
  {
    name: 'freeze_card',
    method: 'post',
    path: '/cards/{cardId}/freeze',
    readOnly: false,
    guidance:
      'Stop the card at once: every payment is declined until a human reactivates it, which you cannot do. Use it ' +
      'when the card details may have leaked, a payment looks wrong, or your task is finished. Freezing a frozen ' +
      'card changes nothing.',
  },
];
