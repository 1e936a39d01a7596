// Webhook subscriptions name event types as each variant names them. The shared schemas mark such a string with
// `x-cardrail-event-type: true`; in each variant's bundle it becomes that variant's `EventType`, or `*` for every
// type, so validation and the generated types both know the exact names of the variant.
const MARK = 'x-cardrail-event-type';

export function applyEventTypeReferences(document) {
  if (!document.components?.schemas?.EventType) throw new Error('The document has no EventType schema to reference.');
  const visit = (node) => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(visit);
    if (node[MARK] === true) {
      return {
        description: node.description ?? 'An event type of this variant, or `*` for every type.',
        anyOf: [{ $ref: '#/components/schemas/EventType' }, { type: 'string', const: '*', description: 'Every event type.' }],
      };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]));
  };
  return visit(document);
}
