/**
 * The PSP fake's check of a `delegate_payment` body against ACP 2026-04-17's `schema.delegate_payment.json`
 * (`DelegatePaymentRequest` and its `$defs`, every object closed by `additionalProperties: false`). The rules are
 * the schema's, written as data; the mock's tests hold them against the schema itself and ACP's own examples.
 */
type Rule =
  | { type: 'string'; enum?: string[]; maxLength?: number; minLength?: number; pattern?: RegExp; dateTime?: true }
  | { type: 'integer' }
  | { type: 'boolean' }
  | { type: 'strings' }
  | { type: 'array'; items: Rule }
  | { type: 'object'; required: string[]; properties: Record<string, Rule> };

const text = (extra: Omit<Extract<Rule, { type: 'string' }>, 'type'> = {}): Rule => ({ type: 'string', ...extra });
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const PAYMENT_METHOD: Rule = {
  type: 'object',
  required: ['type', 'card_number_type', 'number', 'display_card_funding_type', 'metadata'],
  properties: {
    type: text({ enum: ['card'] }),
    card_number_type: text({ enum: ['fpan', 'network_token'] }),
    number: text(),
    exp_month: text({ maxLength: 2 }),
    exp_year: text({ maxLength: 4 }),
    name: text(),
    cvc: text({ maxLength: 4 }),
    cryptogram: text(),
    eci_value: text({ maxLength: 2 }),
    checks_performed: { type: 'array', items: text({ enum: ['avs', 'cvv', 'ani', 'auth0'] }) },
    iin: text({ maxLength: 8 }),
    display_card_funding_type: text({ enum: ['credit', 'debit', 'prepaid'] }),
    display_wallet_type: text(),
    display_brand: text(),
    display_last4: text({ minLength: 4, maxLength: 4, pattern: /^[0-9]{4}$/ }),
    metadata: { type: 'strings' },
    virtual: { type: 'boolean' },
  },
};

const ALLOWANCE: Rule = {
  type: 'object',
  required: ['reason', 'max_amount', 'currency', 'checkout_session_id', 'merchant_id', 'expires_at'],
  properties: {
    reason: text({ enum: ['one_time'] }),
    max_amount: { type: 'integer' },
    currency: text({ pattern: /^[a-z]{3}$/ }),
    checkout_session_id: text(),
    merchant_id: text({ maxLength: 256 }),
    expires_at: text({ dateTime: true }),
  },
};

const ADDRESS: Rule = {
  type: 'object',
  required: ['name', 'line_one', 'city', 'state', 'country', 'postal_code'],
  properties: {
    name: text({ maxLength: 256 }),
    line_one: text({ maxLength: 60 }),
    line_two: text({ maxLength: 60 }),
    city: text({ maxLength: 60 }),
    state: text(),
    country: text({ minLength: 2, maxLength: 2 }),
    postal_code: text({ maxLength: 20 }),
  },
};

const RISK_SIGNAL: Rule = {
  type: 'object',
  required: ['type', 'score', 'action'],
  properties: {
    type: text({ enum: ['card_testing'] }),
    score: { type: 'integer' },
    action: text({ enum: ['blocked', 'manual_review', 'authorized'] }),
  },
};

const DELEGATE_PAYMENT_REQUEST: Rule = {
  type: 'object',
  required: ['payment_method', 'allowance', 'risk_signals', 'metadata'],
  properties: {
    payment_method: PAYMENT_METHOD,
    allowance: ALLOWANCE,
    billing_address: ADDRESS,
    risk_signals: { type: 'array', items: RISK_SIGNAL },
    metadata: { type: 'strings' },
  },
};

/** The first rule the body breaks: its JSONPath (`$.payment_method.number`, RFC 9535) and why; null when valid. */
export function checkDelegatePaymentRequest(body: unknown): { param: string; message: string } | null {
  return check(body, DELEGATE_PAYMENT_REQUEST, '$');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function check(value: unknown, rule: Rule, path: string): { param: string; message: string } | null {
  const refuse = (message: string) => ({ param: path, message: `${path} ${message}` });
  switch (rule.type) {
    case 'integer':
      return Number.isInteger(value) ? null : refuse('must be an integer (minor units)');
    case 'boolean':
      return typeof value === 'boolean' ? null : refuse('must be a boolean');
    case 'strings':
      if (!isObject(value)) return refuse('must be an object');
      for (const [name, member] of Object.entries(value))
        if (typeof member !== 'string') return { param: `${path}.${name}`, message: `${path}.${name} must be a string` };
      return null;
    case 'string':
      if (typeof value !== 'string') return refuse('must be a string');
      if (rule.enum && !rule.enum.includes(value)) return refuse(`must be one of ${rule.enum.join(', ')}`);
      if (rule.maxLength !== undefined && [...value].length > rule.maxLength)
        return refuse(`must be at most ${rule.maxLength} characters`);
      if (rule.minLength !== undefined && [...value].length < rule.minLength)
        return refuse(`must be at least ${rule.minLength} characters`);
      if (rule.pattern && !rule.pattern.test(value)) return refuse(`must match ${rule.pattern.source}`);
      if (rule.dateTime && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))))
        return refuse('must be an RFC 3339 date-time');
      return null;
    case 'array':
      if (!Array.isArray(value)) return refuse('must be an array');
      for (const [index, item] of value.entries()) {
        const problem = check(item, rule.items, `${path}[${index}]`);
        if (problem) return problem;
      }
      return null;
    case 'object': {
      if (!isObject(value)) return refuse('must be an object');
      for (const name of rule.required)
        if (!(name in value)) return { param: `${path}.${name}`, message: `${path}.${name} is required` };
      for (const [name, member] of Object.entries(value)) {
        const memberRule = rule.properties[name];
        if (!memberRule) return { param: `${path}.${name}`, message: `${path}.${name} is not a field of this object` };
        const problem = check(member, memberRule, `${path}.${name}`);
        if (problem) return problem;
      }
      return null;
    }
  }
}
