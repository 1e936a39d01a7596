// The curated tool set: which operation of the spec each tool calls, which request fields the toolkit fixes itself
// (so the model never sees them), and the guidance a model needs on top of the spec's own text. The input schemas
// and the rest of the descriptions come from the bundled spec (generate-tools.mjs).

/**
 * @typedef {object} CatalogTool
 * @property {string} name The tool's name, as a model sees it.
 * @property {string} title The tool's name as a person reads it (MCP's `title`).
 * @property {'get' | 'post'} method
 * @property {string} path The operation's path in the spec.
 * @property {string[]} [fixed] Request fields the toolkit sets itself; generation fails when one is not in the spec.
 * @property {string[]} [fixedWhenPresent] Fields the toolkit leaves out where the variant has them (the owner id).
 * @property {boolean} readOnly Whether the tool changes nothing (MCP's `readOnlyHint`).
 * @property {boolean} destructive Whether it may take something away that cannot be given back by the agent (MCP's
 *   `destructiveHint`; only meaningful when the tool is not read-only).
 * @property {boolean} idempotent Whether calling it again with the same input changes nothing more (MCP's
 *   `idempotentHint`).
 * @property {boolean} openWorld Whether it reaches beyond Cardrail's own records (MCP's `openWorldHint`): only
 *   pay_merchant does (it calls the merchants the developer allowed); the others read or change this organization's
 *   cards, intents and transactions only.
 * @property {boolean} mayNeedPerson Whether its answer may be something waiting for a person's decision (an intent
 *   `pending_approval`), which an MCP server then asks the client to show the person (URL elicitation, a task).
 * @property {Record<string, object>} [toolkitInput] Input fields of the toolkit's own, not of the operation (JSON
 *   Schema; each says what it does): generation fails when one collides with an operation's field.
 * @property {string[]} [toolkitRequired] Which of the toolkit's own fields a call must give.
 * @property {Record<string, object>} [toolkitOutput] Output fields of the toolkit's own beside the operation's answer
 *   (JSON Schema): generation fails when one collides with a field of the answer.
 * @property {string} guidance For the model: when to call the tool and how to read its answer.
 */

/** The owner's id field: `customerId` in the customer variant; the user variant may name it `userId`. */
const OWNER_FIELDS = ['customerId', 'userId'];

/** @type {CatalogTool[]} */
export const toolCatalog = [
  {
    name: 'check_spending_power',
    title: 'Check spending power',
    method: 'get',
    path: '/cards/{cardId}/policy',
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    mayNeedPerson: false,
    guidance:
      'Call this before planning a purchase. `limits.remainingDay` and `limits.remainingMonth` are what you may still ' +
      'spend (null: no cap), `cooldown.isInCooldown` and `cooldownEndsAt` say when the next payment is allowed, ' +
      '`ttl.isExpired` and `expiresAt` when the card stops working, and `policy` which rules apply (requireIntent, ' +
      'requireApproval, allowed merchants and categories). All amounts are in minor units (cents).',
  },
  {
    name: 'evaluate_spend',
    title: 'Evaluate a spend',
    method: 'post',
    path: '/spend/evaluate',
    fixed: ['agentId'],
    fixedWhenPresent: OWNER_FIELDS,
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    mayNeedPerson: false,
    guidance:
      'Ask whether a purchase would be approved right now, without spending anything. `decision` is `approve`, ' +
      '`decline` (each entry of `reasons` says why) or `review` (declare an intent first, or wait for its approval). ' +
      'Amounts are in cents.',
  },
  {
    name: 'declare_intent',
    title: 'Declare a purchase intent',
    method: 'post',
    path: '/intents',
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
    mayNeedPerson: true,
    guidance:
      'Declare what you are about to buy before you pay: a short summary, the expected amount in cents and, when ' +
      'you know it, the merchant. When the card requires approval the intent starts as `pending_approval` and a ' +
      'person must approve it: give them `approvalUrl` (the page where they decide) when it is not null, then call ' +
      'wait_for_approval with the intent id; pay only once it is `pending` (approved), never when it is `rejected`. ' +
      'The payment later matches the intent when its amount is within the tolerance and the merchant is the one ' +
      'declared.',
  },
  {
    name: 'get_intent',
    title: 'Get an intent',
    method: 'get',
    path: '/intents/{intentId}',
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    mayNeedPerson: false,
    guidance:
      'Check an intent you declared. `pending_approval`: a human has not decided yet, do not pay. `pending`: ' +
      'declared and approved (or no approval needed), you may retrieve the credentials and pay. `rejected`: do not ' +
      'pay (`rejectionReason` says why). `matched` or `mismatched`: a payment was made against it. `expired`: ' +
      'declare a new one if you still need to buy.',
  },
  {
    name: 'wait_for_approval',
    title: 'Wait for approval',
    method: 'get',
    path: '/intents/{intentId}',
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    mayNeedPerson: false,
    toolkitInput: {
      timeoutSeconds: {
        type: 'integer',
        minimum: 1,
        maximum: 300,
        default: 45,
        description:
          'How long to wait for the decision, in seconds: 45 when omitted, 300 at most. When the time is up the ' +
          'intent is answered as it is, still `pending_approval`.',
      },
    },
    guidance:
      'Wait for a person to approve or reject an intent you declared that is `pending_approval`, and get it back ' +
      'decided: `pending` (approved: you may retrieve the credentials and pay), `rejected` (do not pay; ' +
      '`rejectionReason` says why) or `expired` (declare a new one if you still need to buy). Still ' +
      '`pending_approval` when the time ran out: remind the person of `approvalUrl` and wait again. An intent that ' +
      'is already decided is answered at once.',
  },
  {
    name: 'get_card_credentials',
    title: 'Get card credentials',
    method: 'post',
    path: '/cards/{cardId}/credentials',
    fixed: ['exposureMode'],
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
    mayNeedPerson: false,
    guidance:
      'Retrieve the card details right before paying, for a purchase you declared. Every call is recorded ' +
      '(`credential.accessed`) and opens the attestation window: pay before `expiresAt`. Refused with ' +
      '`intent_required` when the card needs an intent and has no usable one, `approval_required` while its intent ' +
      'awaits approval, and `card_not_active` when the card is frozen or closed. Depending on how the developer ' +
      'configured this toolkit you get the full number and CVC, or only the last 4 digits and the expiry. Never ' +
      'repeat card numbers in your messages.',
  },
  {
    name: 'pay_merchant',
    title: 'Pay a merchant',
    method: 'post',
    path: '/cards/{cardId}/payment-tokens',
    // The toolkit reads the merchant's request itself (the 402 challenge, the checkout session): the model never
    // writes it, so it cannot change what is paid for.
    fixed: ['mpp', 'acp'],
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: true,
    mayNeedPerson: false,
    toolkitRequired: ['protocol', 'url'],
    toolkitInput: {
      protocol: {
        type: 'string',
        enum: ['mpp', 'acp'],
        description:
          '`mpp`: `url` is a resource the merchant sells behind an HTTP 402 with a Payment card challenge. `acp`: ' +
          '`url` is an Agentic Commerce Protocol checkout session (`.../checkout_sessions/{id}`) to complete.',
      },
      url: {
        type: 'string',
        format: 'uri',
        maxLength: 2048,
        description:
          "The merchant's URL. Only origins the developer allowed are reached; any other is refused before anything " +
          'is sent.',
      },
      method: {
        type: 'string',
        enum: ['GET', 'POST'],
        default: 'GET',
        description: 'mpp only: the HTTP method of the request to the resource.',
      },
      body: {
        type: 'string',
        maxLength: 16384,
        description: 'mpp only: the JSON body of a POST to the resource, as text.',
      },
    },
    toolkitOutput: {
      merchantResponse: {
        type: 'object',
        description: "The merchant's answer once paid (or why it refused): its HTTP status, its body and its receipt.",
        required: ['status', 'body', 'receipt'],
        additionalProperties: false,
        properties: {
          status: { type: 'integer', description: "The HTTP status of the merchant's last answer." },
          body: { description: "The merchant's body: JSON when it sent JSON, else text (at most 16 kB)." },
          receipt: {
            type: ['object', 'null'],
            description: 'MPP: the decoded `Payment-Receipt` (`reference` is the authorization). ACP: null.',
          },
        },
      },
    },
    guidance:
      'Pay a merchant that asks for payment by protocol, without ever handling a card number: a 402 with a Payment ' +
      "card challenge (`protocol: mpp`, the resource's `url`) or an ACP checkout session (`protocol: acp`, the " +
      "session's `url`). Cardrail mints a one-time token for exactly that merchant, amount and request, after the " +
      "card's policy, intents and risk checks, and the toolkit pays with it; `merchantResponse` is what the merchant " +
      'answered (the resource, or the completed checkout with its order). `status: used` and `transactionId` mean it ' +
      'was paid. Refused with `challenge_expired`, `malformed_challenge` or `payment_declined` (nothing was paid); ' +
      '`approval_required` gives `approvalUrl`: give it to the person, wait_for_approval with `intentId`, then call ' +
      'pay_merchant again. Prefer this tool to get_card_credentials whenever the merchant speaks either protocol.',
  },
  {
    name: 'list_transactions',
    title: 'List transactions',
    method: 'get',
    path: '/transactions',
    fixed: ['agentId'],
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    mayNeedPerson: false,
    guidance:
      'Your own card transactions, newest first: amount in cents, status and, for a declined one, the reason. ' +
      'When `hasMore` is true, pass `nextCursor` as `cursor` for the next page.',
  },
  {
    name: 'freeze_card',
    title: 'Freeze a card',
    method: 'post',
    path: '/cards/{cardId}/freeze',
    readOnly: false,
    destructive: true,
    idempotent: true,
    openWorld: false,
    mayNeedPerson: false,
    guidance:
      'Stop the card at once: every payment is declined until a human reactivates it, which you cannot do. Use it ' +
      'when the card details may have leaked, a payment looks wrong, or your task is finished. Freezing a frozen ' +
      'card changes nothing.',
  },
];

/** The decision capability an approval card holds: what the server handed its view only (src/mcp/apps). */
const CAPABILITY_INPUT = {
  type: 'string',
  minLength: 1,
  maxLength: 1024,
  description:
    "The decision capability of the card's intent, from the `_meta` of the tool result the card shows (never " +
    "given to a model): signed by the server for this intent, this agent and the intent's lifetime.",
};

/**
 * The tools of the MCP App approval card: its view calls them through the host (`_meta.ui.visibility: ["app"]`), a
 * model never sees them, and the server offers them only to a client that renders MCP Apps. Derived from the spec as
 * the catalog's tools are (the intent id's and the reason's schemas are the API's); their description is the guidance
 * alone, for the host and the developer reading `tools/list`, not for a model.
 *
 * @type {CatalogTool[]}
 */
export const appToolCatalog = [
  {
    name: 'approval_card_read',
    title: 'Read the approval card',
    method: 'get',
    path: '/intents/{intentId}',
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    mayNeedPerson: false,
    toolkitInput: {
      capability: CAPABILITY_INPUT,
      waitSeconds: {
        type: 'integer',
        minimum: 0,
        maximum: 25,
        default: 0,
        description:
          'While the intent waits for a person, wait up to this many seconds for a decision made elsewhere before ' +
          'answering (0: answer at once).',
      },
    },
    toolkitRequired: ['capability'],
    guidance:
      "What the approval card shows of an intent waiting for a person: the intent, the agent and its owner, the card, what the card and the owner may still spend, what Cardrail would decide if the payment came now, and who decided once someone did. App only: refused without the intent's decision capability.",
  },
  {
    name: 'approval_card_decide',
    title: 'Decide from the approval card',
    method: 'post',
    path: '/intents/{intentId}/reject',
    fixed: ['decidedBy'],
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
    mayNeedPerson: false,
    toolkitInput: {
      decision: {
        type: 'string',
        enum: ['approve', 'reject'],
        description: "The person's decision.",
      },
      capability: CAPABILITY_INPUT,
    },
    toolkitRequired: ['decision', 'capability'],
    guidance:
      "A person's decision, from the approval card: `approve` or `reject` the intent (with an optional reason for a rejection). App only: refused without the intent's decision capability, and refused once the intent is decided or expired; nothing changes then.",
  },
];
