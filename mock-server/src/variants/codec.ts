import type { AnyStoredEvent } from '../core/event-types.js';
import type { Variant } from '../core/variant.js';
import type { CardStatus } from '../domain/cards.js';
import type { NeutralOutput } from '../resources/handler-table.js';
import type { NeutralInput, NeutralOperationId } from '../operations/neutral.js';
import type { OperationIdOf, WireBody, WireInput, WireParams, WireQuery, WireResponse } from '../operations/wire.js';
import type { RenderedEvent } from '../webhooks/event-renderer.js';

/** Turns a variant's validated wire input into the neutral handler's input. */
type Decoder<V extends Variant, Id extends OperationIdOf<V>, N extends NeutralOperationId> = (
  wire: WireInput<V, Id>,
) => NeutralInput<N>;

/** Renders a neutral handler's output as the variant's documented success body. */
type Encoder<V extends Variant, Id extends OperationIdOf<V>, N extends NeutralOperationId> = (
  output: NeutralOutput<N>,
) => WireResponse<V, Id>;

/**
 * How one operation of a variant reaches its neutral handler and back. Each side may be left out exactly where
 * the types already agree (the wire input is the neutral input; the neutral output is the documented body), so the
 * compiler asks for a decoder or an encoder wherever a variant differs, and checks what each returns.
 */
type OperationCodec<V extends Variant, Id extends OperationIdOf<V>, N extends NeutralOperationId> = (InputAgrees<
  V,
  Id,
  N
> extends true
  ? { decode?: Decoder<V, Id, N> }
  : { decode: Decoder<V, Id, N> }) &
  ([NeutralOutput<N>] extends [WireResponse<V, Id>] ? { encode?: Encoder<V, Id, N> } : { encode: Encoder<V, Id, N> }) & {
    /**
     * The handler answers a stored record as it is, and the body is rendered from that record alone: its JSON text
     * is kept for the next read until the record changes (core/record-text.ts).
     */
    storedRecord?: true;
  };

/**
 * Whether the wire input already is the neutral input, part by part: every field the wire carries is one the
 * neutral input has (so none would be dropped unread), with a type it accepts. Compared part by part: comparing the
 * two input objects whole would let TypeScript compare their aliases' type arguments (`'user'` against
 * `'customer'`) instead of their shapes.
 */
type InputAgrees<V extends Variant, Id extends OperationIdOf<V>, N extends NeutralOperationId> = [
  PartAgrees<WireParams<V, Id>, NeutralInput<N>['params']>,
  PartAgrees<WireQuery<V, Id>, NeutralInput<N>['query']>,
  PartAgrees<WireBody<V, Id>, NeutralInput<N>['body']>,
] extends [true, true, true]
  ? true
  : false;

type PartAgrees<Wire, Neutral> = [Wire] extends [Neutral]
  ? [Exclude<keyof NonNullable<Wire>, keyof NonNullable<Neutral>>] extends [never]
    ? true
    : false
  : false;

/** The neutral operation a variant's operationId is: its alias, or the same id. */
type NeutralIdOf<Id, Aliases> = Id extends keyof Aliases
  ? Aliases[Id] extends NeutralOperationId
    ? Aliases[Id]
    : never
  : Id extends NeutralOperationId
    ? Id
    : never;

/** Every operation of the variant, with its codec: a missing or misspelt operationId is a compile error. */
export type CodecTable<V extends Variant, Aliases> = {
  [Id in OperationIdOf<V>]: OperationCodec<V, Id, NeutralIdOf<Id, Aliases>>;
};

/**
 * Everything that differs between the variants, in one place per variant (customer.ts, user.ts): which neutral
 * operation each operationId is, how its input and output are shaped, how it names card statuses, and how it
 * names and wraps events.
 */
export interface VariantCodec<V extends Variant, Aliases = Record<never, never>> {
  variant: V;
  /** The variant's operationIds that are another neutral operation (`createUser` is `createCustomer`). */
  aliases: Aliases;
  operations: CodecTable<V, Aliases>;
  /** Fields the other variant names otherwise (`customerId` -> `userId`): a request that sends one is told so. */
  renamedFields: Readonly<Record<string, string>>;
  /** A card status as the variant names it. */
  cardStatus(status: CardStatus): string;
  /** The event in the variant's envelope and names, or undefined when the variant has no such event type. */
  renderEvent(event: AnyStoredEvent): RenderedEvent | undefined;
}
