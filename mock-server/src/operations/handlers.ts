import { engineHandlers } from '../engine/handlers.js';
import { platformHandlers } from '../resources/index.js';
import type { NeutralHandlers, NeutralOperationId } from './neutral.js';

/**
 * Every operation's neutral handler: the platform's and the engine's. `satisfies` makes a missing or misspelt
 * operationId a compile error; each handler's own return type is what the variants' codecs must render.
 */
export const builtInHandlers = { ...platformHandlers, ...engineHandlers } satisfies NeutralHandlers;

/** The neutral record (or page of records) an operation's handler returns. */
export type NeutralOutput<Id extends NeutralOperationId> = Awaited<ReturnType<(typeof builtInHandlers)[Id]>>;
