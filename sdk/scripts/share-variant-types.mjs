// After tsdown, before share-declarations: dist/api-types.d.cts holds the types generated from both variants'
// documents (`CustomerApi`, `UserApi`), and most of the user variant (its schemas, responses, operations, paths and
// webhooks) is declared exactly as in the customer variant. Each user member whose declaration reads the same as the
// customer one, and whose references (`components["schemas"]["Card"]`, `operations["getCard"]`) all lead to members
// shared the same way, keeps its own JSDoc but takes its type from the customer member (`components$1["schemas"]
// ["Card"]`): the same type, with the same documentation on every property, declared once (a third of the file).
// A member that differs, or leads to one that does, keeps its own declaration.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const file = join(import.meta.dirname, '..', 'dist', 'api-types.d.cts');
const text = readFileSync(file, 'utf8');
const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);

/** Each variant's local names of its generated interfaces (`components$1` for `components`), from its namespace. */
function localNames(namespace) {
  const declaration = source.statements.find((s) => ts.isModuleDeclaration(s) && s.name.text === namespace);
  const names = new Map();
  for (const statement of declaration?.body?.statements ?? []) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause) continue;
    for (const element of statement.exportClause.elements) {
      names.set(element.name.text, (element.propertyName ?? element.name).text);
    }
  }
  if (names.size === 0) throw new Error(`share-variant-types: no namespace ${namespace} in ${file}`);
  return names;
}
const customerNames = localNames('customer_d_exports');
const userNames = localNames('user_d_exports');

const memberName = (member) => (ts.isStringLiteral(member.name) ? member.name.text : member.name.getText(source));
/** A variant's members by key (`components.schemas.Card`, `operations.getCard`, `paths./cards`). */
function membersOf(names) {
  const members = new Map();
  for (const [generated, local] of names) {
    const declaration = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === local);
    for (const member of declaration?.members ?? []) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const name = memberName(member);
      if (generated === 'components' && ts.isTypeLiteralNode(member.type)) {
        for (const inner of member.type.members) {
          if (ts.isPropertySignature(inner) && inner.type) {
            members.set(`components.${name}.${memberName(inner)}`, { node: inner, path: [local, name, memberName(inner)] });
          }
        }
      } else members.set(`${generated}.${name}`, { node: member, path: [local, name] });
    }
  }
  return members;
}
const customer = membersOf(customerNames);
const user = membersOf(userNames);

/** A declaration's text with each variant's local names as generated, so the two variants' texts compare. */
function normalized(node, names) {
  let body = node.type.getText(source);
  for (const [generated, local] of names) {
    if (generated !== local) body = body.replace(new RegExp(`\\b${local.replace(/\$/g, '\\$')}(?=\\[)`, 'g'), generated);
  }
  return body;
}
const reference = /\b(components|operations|paths|webhooks)\["([^"]+)"\](?:\["([^"]+)"\])?/g;
const referencesOf = (body) =>
  [...body.matchAll(reference)].map(([, kind, first, second]) =>
    kind === 'components' ? `${kind}.${first}.${second}` : `${kind}.${first}`,
  );

const shared = new Map();
for (const [key, member] of user) {
  const twin = customer.get(key);
  const body = normalized(member.node, userNames);
  if (twin && normalized(twin.node, customerNames) === body) shared.set(key, { member, twin, references: referencesOf(body) });
}
// Only what leads to shared members is shared: drop the rest until nothing changes.
for (let changed = true; changed; ) {
  changed = false;
  for (const [key, { references }] of shared) {
    if (references.some((target) => !shared.has(target))) {
      shared.delete(key);
      changed = true;
    }
  }
}

const edits = [...shared.values()]
  .map(({ member, twin }) => ({
    start: member.node.type.getStart(source),
    end: member.node.type.end,
    text: `${twin.path[0]}${twin.path
      .slice(1)
      .map((part) => `[${JSON.stringify(part)}]`)
      .join('')}`,
  }))
  .sort((a, b) => b.start - a.start);
let result = text;
for (const { start, end, text: replacement } of edits) result = result.slice(0, start) + replacement + result.slice(end);
writeFileSync(file, result);
console.log(
  `share-variant-types: ${shared.size} of ${user.size} user-variant members take the customer declaration (${text.length - result.length} bytes)`,
);
