// Rules the spec needs that Redocly does not ship: every operation documents 401 (every request is authenticated),
// and every operation of a path with a path parameter documents 404 (an unknown id, or one of another organization
// or mode, is 404; see docs/errors.md).
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operationsOf(pathItem) {
  return METHODS.filter((m) => pathItem[m]).map((m) => [m, pathItem[m]]);
}

function operationDocuments401() {
  return {
    Operation(operation, { report, location }) {
      if (!operation.responses || !('401' in operation.responses)) {
        report({
          message: 'Every operation must document 401 (missing, malformed or revoked key).',
          location: location.child('responses'),
        });
      }
    },
  };
}

function pathIdDocuments404() {
  return {
    Paths: {
      PathItem(pathItem, { report, location, key }) {
        if (typeof key !== 'string' || !/\{[^}]+\}/.test(key)) return;
        for (const [method, operation] of operationsOf(pathItem)) {
          if (!operation.responses || !('404' in operation.responses)) {
            report({
              message: `${method.toUpperCase()} ${key} takes a path id and must document 404.`,
              location: location.child([method, 'responses']),
            });
          }
        }
      },
    },
  };
}

export default function cardrailRules() {
  return {
    id: 'cardrail',
    rules: {
      oas3: {
        'operation-documents-401': operationDocuments401,
        'path-id-documents-404': pathIdDocuments404,
      },
    },
  };
}
