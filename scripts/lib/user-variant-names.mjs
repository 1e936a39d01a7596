// The user variant names the owner `userId` wherever the customer variant says `customerId`. The shared schemas and
// parameters say so themselves: a property or parameter carrying `x-cardrail-user-variant: <name>` is called <name>
// in the user variant's bundle. This applies it to a bundled document: properties (with their `required` entries and
// every example along the schema) and parameters are renamed; where the schema already has a property of that name
// (the simulation bodies take `customerId` or `userId`), the marked one is dropped with the branches that required it.
const MARK = 'x-cardrail-user-variant';

export function applyUserVariantNames(document) {
  const resolve = (node) => {
    let current = node;
    while (current && typeof current === 'object' && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce((at, part) => at?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
    }
    return current;
  };

  // 1. Which property of which object schema becomes what (or is dropped).
  const renames = new Map();
  const schemas = [];
  walk(document, (node) => {
    if (node.properties && typeof node.properties === 'object') {
      schemas.push(node);
      for (const [name, property] of Object.entries(node.properties)) {
        const target = property?.[MARK];
        if (typeof target !== 'string') continue;
        const map = renames.get(node) ?? new Map();
        map.set(name, { target, drop: target in node.properties });
        renames.set(node, map);
      }
    }
  });

  // 2. Examples follow their schema: keys are renamed (or dropped) where the schema renames the property.
  const renameValue = (schema, value, seen = new Set()) => {
    const resolved = resolve(schema);
    if (!resolved || typeof resolved !== 'object' || value === null || typeof value !== 'object' || seen.has(resolved))
      return value;
    const inner = new Set(seen).add(resolved);
    if (Array.isArray(value)) return resolved.items ? value.map((item) => renameValue(resolved.items, item, inner)) : value;
    let out = value;
    for (const branch of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])])
      out = renameValue(branch, out, inner);
    if (!resolved.properties) return out;
    const map = renames.get(resolved);
    const copy = {};
    for (const [key, item] of Object.entries(out)) {
      const property = resolved.properties[key];
      const rename = map?.get(key);
      // A dropped property's value moves to the property of the target name, unless the example has that too.
      if (rename?.drop && rename.target in out) continue;
      copy[rename ? rename.target : key] = property ? renameValue(property, item, inner) : item;
    }
    return copy;
  };
  walk(document, (node) => {
    if (node.example !== undefined && (node.type === 'object' || node.properties || node.allOf || node.items || node.oneOf)) {
      node.example = renameValue(node, node.example);
    }
    if (node.schema && node.example !== undefined) node.example = renameValue(node.schema, node.example);
    if (node.schema && node.examples && typeof node.examples === 'object') {
      for (const example of Object.values(node.examples)) {
        if (example && 'value' in example) example.value = renameValue(node.schema, example.value);
      }
    }
  });

  // 3. The properties themselves, their `required` entries, and the branches that required a dropped one.
  for (const [schema, map] of renames) {
    const properties = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!map.has(name)) {
        properties[name] = property;
        continue;
      }
      const { target, drop } = map.get(name);
      if (!drop) properties[target] = property;
    }
    schema.properties = properties;
    if (Array.isArray(schema.required)) {
      schema.required = schema.required.flatMap((name) =>
        map.has(name) ? (map.get(name).drop ? [] : [map.get(name).target]) : [name],
      );
    }
    for (const key of ['anyOf', 'oneOf']) {
      if (!Array.isArray(schema[key])) continue;
      const dropped = [...map].filter(([, rename]) => rename.drop).map(([name]) => name);
      const kept = schema[key].filter((branch) => !(branch.required ?? []).some((name) => dropped.includes(name)));
      const requiredOnly = kept.every((branch) => Object.keys(branch).every((k) => k === 'required'));
      if (requiredOnly && kept.length <= 1) {
        delete schema[key];
        const required = new Set([...(schema.required ?? []), ...(kept[0]?.required ?? [])]);
        schema.required = [...required];
      } else {
        schema[key] = kept;
      }
    }
  }

  // 4. Parameters.
  walk(document, (node) => {
    if (typeof node.name === 'string' && typeof node.in === 'string' && typeof node[MARK] === 'string') node.name = node[MARK];
  });
  return document;
}

function walk(node, visit, seen = new Set()) {
  if (node === null || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit, seen);
    return;
  }
  visit(node);
  for (const value of Object.values(node)) walk(value, visit, seen);
}
