// Ajv's run-time helpers for the precompiled request checks (src/spec/generated/validators), which import them from
// here rather than requiring them as Ajv's standalone code would. A spec change that makes Ajv need another helper
// fails generation until it is added here and to VALIDATOR_RUNTIME_IMPORTS.
import equalModule from 'ajv/dist/runtime/equal.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { defaultFunction } from '../core/cjs-interop.js';

export const ucs2length = defaultFunction<(text: string) => number>(ucs2lengthModule);
export const equal = defaultFunction<(a: unknown, b: unknown) => boolean>(equalModule);
