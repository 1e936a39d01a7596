import type { ApiSchemas } from '../core/stored.js';

/** Shapes shared by several records: the spec's own schemas (spec/common/schemas.yaml), generated. */
export type PolicyLimits = ApiSchemas['PolicyLimits'];

export type Policy = ApiSchemas['Policy'];

export type SpendingLimit = ApiSchemas['SpendingLimit'];

export type Metadata = ApiSchemas['Metadata'];

/** Who made a change (enums.yaml Actor): `api` for a call with a key, `system` for a cascade or an engine rule. */
export type Actor = ApiSchemas['Actor'];
