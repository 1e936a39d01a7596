import type { Variant } from '../core/variant.js';
import type { SpecDocuments } from '../spec/documents.js';

/**
 * Catalog names that the general description calls otherwise (api-surface.md, "Envelopes"). Events are stored
 * under their catalog name; the customer variant sees these under the general name.
 */
export const GENERAL_NAMES: Readonly<Record<string, string>> = {
  'transaction.authorized': 'transaction.created',
  'transaction.completed': 'transaction.settled',
};

/**
 * Which event types each variant has (the `webhooks` of its document) and what each stored event is called
 * there. A stored type a variant lacks (`intent.created` in the user variant) is neither delivered nor listed
 * through that variant.
 */
export class EventNaming {
  readonly #types: Record<Variant, ReadonlySet<string>>;

  constructor(documents: SpecDocuments) {
    this.#types = {
      customer: new Set(Object.keys(documents.customer.webhooks ?? {})),
      user: new Set(Object.keys(documents.user.webhooks ?? {})),
    };
  }

  /** The variant's name for a stored (catalog-named) type, or undefined when the variant has no such event. */
  nameIn(variant: Variant, storedType: string): string | undefined {
    const name = variant === 'customer' ? (GENERAL_NAMES[storedType] ?? storedType) : storedType;
    return this.#types[variant].has(name) ? name : undefined;
  }

  /** Every event type of the variant, as named there. */
  typesOf(variant: Variant): ReadonlySet<string> {
    return this.#types[variant];
  }
}
