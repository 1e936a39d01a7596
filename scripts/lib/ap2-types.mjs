// The SDK's AP2 types (sdk/src/generated/ap2.ts) from AP2's own JSON Schemas, vendored verbatim in spec/ap2/, with
// json-schema-to-typescript. The schemas refer to each other by URLs under https://ap2-protocol.org/ (their `$id`s);
// nothing is fetched: they are put in one document first, each under a name of its own, and their references to
// each other rewritten to pointers inside it.
//
// The SDK exports every type of the module (`export type *`), so each must have one name and a doc comment:
// - a `$ref` with sibling keywords (`{"description": ..., "$ref": "types/merchant.json"}`) becomes
//   `{"description": ..., "allOf": [{"$ref": ...}]}`: the compiler copies a `$ref` with siblings into a numbered
//   duplicate (Ap2Merchant1, Ap2Merchant2), but names the referenced type itself through a one-member `allOf`, and
//   keeps the description on the property;
// - every named schema is called `Ap2` and its words in PascalCase (`agent_recurrence` -> Ap2AgentRecurrence,
//   "Payment Receipt Success" -> Ap2PaymentReceiptSuccess), so that none collides with the SDK's API names;
// - a schema with both `properties` and `oneOf` (payment_receipt.json) becomes the equivalent `allOf` of its members
//   (`<Name>Fields`) and its variants (`<Name>Variant`), instead of the compiler's `<Name>1 & <Name>2`;
// - a variant without a description is described by what it requires, and its properties take the description of
//   the property of the same name on the schema it belongs to.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from 'json-schema-to-typescript';

/** The schemas, by the type name each becomes; the payment mandates and the receipt, and what they refer to. */
const SCHEMAS = {
  Ap2Amount: 'types/amount.json',
  Ap2Merchant: 'types/merchant.json',
  Ap2PaymentInstrument: 'types/payment_instrument.json',
  Ap2Pisp: 'types/pisp.json',
  Ap2Jwk: 'types/jwk.json',
  Ap2ReceiptStatus: 'types/receipt_status.json',
  Ap2OpenPaymentMandate: 'open_payment_mandate.json',
  Ap2PaymentMandate: 'payment_mandate.json',
  Ap2PaymentReceipt: 'payment_receipt.json',
};

/** Keywords whose value maps names to schemas (the names are not keywords). */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);

/** `Ap2` and the words of a name in PascalCase. */
function ap2Name(words) {
  const pascal = words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
  return pascal.startsWith('Ap2') ? pascal : `Ap2${pascal}`;
}

/** A `$ref` of the vendored files rewritten to a pointer into the one document. */
function pointer(ref, name, byFile) {
  if (ref.startsWith('#/')) return `#/$defs/${name}/${ref.slice(2)}`;
  if (byFile[ref]) return `#/$defs/${byFile[ref]}`;
  throw new Error(`spec/ap2: unknown reference ${ref} in ${name}`);
}

/** What a variant fixes and requires, in words: its description when AP2 gives none. */
function variantDescription(variant, owner) {
  const constants = Object.entries(variant.properties ?? {})
    .filter(([, schema]) => schema && 'const' in schema)
    .map(([key, schema]) => `\`${key}\` is \`${JSON.stringify(schema.const)}\``);
  const required = (variant.required ?? []).map((key) => `\`${key}\``);
  const where = constants.length > 0 ? ` where ${constants.join(' and ')}` : '';
  const requires = required.length > 0 ? `; it requires ${required.join(' and ')}` : '';
  return `The variant of \`${owner}\`${where}${requires}.`;
}

/** A variant of `parent`: described, and its properties described as the parent's of the same name. */
function describedVariant(variant, parent, owner) {
  if (!variant || typeof variant !== 'object' || variant.$ref) return variant;
  const properties = Object.fromEntries(
    Object.entries(variant.properties ?? {}).map(([key, schema]) => {
      const inherited = parent.properties?.[key]?.description;
      return [key, schema.description || !inherited ? schema : { ...schema, description: inherited }];
    }),
  );
  return {
    ...variant,
    ...(variant.properties ? { properties } : {}),
    description: variant.description ?? variantDescription(variant, owner),
  };
}

/** A titled schema with both members and variants as the `allOf` of the two, each named after it. */
function splitMembersAndVariants(schema) {
  if (!schema.title || !schema.properties || !(schema.oneOf || schema.anyOf)) return schema;
  const { title, description, oneOf, anyOf, ...members } = schema;
  const variants = oneOf ? { oneOf } : { anyOf };
  const matches = oneOf ? 'exactly one' : 'at least one';
  return {
    title,
    ...(description ? { description } : {}),
    allOf: [
      { ...members, title: `${title}Fields`, description: `The members of every ${title}, whatever its variant.` },
      { ...variants, title: `${title}Variant`, description: `The variants of ${title}, of which it matches ${matches}.` },
    ],
  };
}

/** A schema of `name`'s file, made ready for the compiler (see the top of this file). */
function prepared(node, name, byFile, title = undefined) {
  if (Array.isArray(node)) return node.map((item) => prepared(item, name, byFile));
  if (node === null || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const { $ref, ...siblings } = node;
    const target = { $ref: pointer($ref, name, byFile) };
    if (Object.keys(siblings).length === 0) return target;
    return { ...prepared(siblings, name, byFile), allOf: [...(siblings.allOf ?? []), target] };
  }
  const owner = title ?? (typeof node.title === 'string' ? ap2Name(node.title) : name);
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' || key === '$schema') continue;
    if (key === 'title' && typeof value === 'string') out.title = ap2Name(value);
    else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(
        Object.entries(value).map(([entry, schema]) => [
          entry,
          prepared(schema, name, byFile, key === '$defs' || key === 'definitions' ? ap2Name(entry) : undefined),
        ]),
      );
    else if ((key === 'oneOf' || key === 'anyOf') && Array.isArray(value))
      out[key] = value.map((variant) => prepared(describedVariant(variant, node, owner), name, byFile));
    else out[key] = prepared(value, name, byFile);
  }
  if (title && !out.title) out.title = title;
  return splitMembersAndVariants(out);
}

/** A JSON type a receipt check can test (`typeof`, and whole numbers for `integer`). */
const CHECKED_TYPES = new Set(['string', 'integer']);

/**
 * The module of what payment_receipt.json requires, as a constant the SDK checks received claims against (the types alone are
 * erased): each member every receipt has, with its JSON type, then by `status` (each variant's `const`) the members
 * that variant adds. `status` itself is checked as a key of `byStatus`.
 */
export function receiptRequirementsModule(root) {
  const schema = JSON.parse(readFileSync(join(root, 'spec/ap2/payment_receipt.json'), 'utf8'));
  const typed = (names, where) =>
    Object.fromEntries(
      names.map((name) => {
        const type = schema.properties?.[name]?.type;
        if (!CHECKED_TYPES.has(type))
          throw new Error(`spec/ap2/payment_receipt.json: ${where} member ${name} is not a string or integer`);
        return [name, type];
      }),
    );
  const members = typed(
    schema.required.filter((name) => name !== 'status'),
    'a required',
  );
  const byStatus = Object.fromEntries(
    schema.oneOf.map((variant) => [variant.properties.status.const, typed(variant.required, `a ${variant.title}`)]),
  );
  return [
    '/**',
    ' * Generated by `npm run generate` from spec/ap2/payment_receipt.json (AP2 v0.2, Apache-2.0). Do not edit by hand.',
    ' * Internal to the SDK: its public AP2 types are in ap2.ts.',
    ' */',
    '',
    '/**',
    " * What AP2's payment_receipt.json requires of a receipt, for checking received claims: the members every receipt has",
    ' * and their JSON types, then by `status` the members each variant adds.',
    ' */',
    `export const ap2PaymentReceiptRequired = ${JSON.stringify({ members, byStatus }, null, 2)} as const;`,
    '',
  ].join('\n');
}

/** The module's text. */
export async function ap2TypesModule(root) {
  const byFile = Object.fromEntries(Object.entries(SCHEMAS).map(([name, file]) => [file, name]));
  const $defs = {};
  for (const [name, file] of Object.entries(SCHEMAS)) {
    const schema = JSON.parse(readFileSync(join(root, 'spec/ap2', file), 'utf8'));
    $defs[name] = prepared({ ...schema, title: name }, name, byFile);
  }
  const document = {
    title: 'Ap2Schemas',
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(Object.keys(SCHEMAS).map((name) => [name, { $ref: `#/$defs/${name}` }])),
    $defs,
  };
  const text = await compile(document, 'Ap2Schemas', {
    bannerComment: '',
    strictIndexSignatures: true,
    format: true,
    declareExternallyReferenced: true,
    $refOptions: { resolve: { external: false } },
  });
  const types = text.replace(/export interface Ap2Schemas \{[^}]*\}\n?/s, '');
  const declarations = [...types.matchAll(/(\*\/\n)?export (?:interface|type) (\w+)/g)];
  const bare = declarations.filter((match) => !match[1]).map((match) => match[2]);
  if (bare.length > 0) throw new Error(`spec/ap2: no description for ${bare.join(', ')}`);
  const numbered = declarations.map((match) => match[2]).filter((type) => /\d$/.test(type));
  if (numbered.length > 0) throw new Error(`spec/ap2: a type was declared twice (${numbered.join(', ')})`);
  return `/**\n * Generated by \`npm run generate\` from spec/ap2/ (AP2 v0.2's JSON Schemas, Apache-2.0) with json-schema-to-typescript.\n * Do not edit by hand.\n */\n\n${types}`;
}
