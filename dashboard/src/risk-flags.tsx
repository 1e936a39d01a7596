// What the risk engine flagged on a transaction (its `anomaly.*` events) and whether it went without an attestation,
// each flag with a line saying what it means (docs/risk.md, docs/policy.md), so that a red word is not a riddle.

/** Each flag's meaning, in a person's words. */
const MEANINGS: Record<string, string> = {
  duplicate: 'same merchant and amount as a recent approved spend on this card',
  velocity: 'more spends in the hour or the day than the velocity rule allows',
  spend_spike: "spending well above this card's usual rate",
  unattested: 'no credential fetch by the agent just before it: a warning, unless the policy requires attestation',
  intent_mismatch: "matches none of the card's open intents",
  cooldown: "sooner after the last spend than the card's cooldown allows",
  merchant_drift: 'away from the merchant this card is pinned to',
};

export function RiskFlags(props: { flags: readonly string[] }) {
  if (props.flags.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="flags">
      {props.flags.map((flag) => (
        <li key={flag}>
          <span class="flag">{flag.replace(/_/g, ' ')}</span>
          {MEANINGS[flag] && <span class="flag-meaning">{MEANINGS[flag]}</span>}
        </li>
      ))}
    </ul>
  );
}
