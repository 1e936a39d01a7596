// A typedoc plugin (typedoc.json `plugin`): typedoc's own `notExported` check skips every type whose package is not
// the project's, and the API reference is one project of three packages named after the repository root, so it
// would check nothing. This runs the same check for the packages in `packagesRequiringDocumentation`: a type that a
// documented declaration refers to must be documented itself (exported from an entry point), or be listed, with the
// reason, in `cardrailIntentionallyNotExported`.
import { Application, Converter, ParameterType, ReflectionKind, UnionType } from 'typedoc';
import { makeRecursiveVisitor } from 'typedoc/models';

export function load(app) {
  app.options.addDeclaration({
    name: 'cardrailIntentionallyNotExported',
    help: 'Types of the packages that public declarations may refer to without documenting them.',
    type: ParameterType.Array,
    defaultValue: [],
  });

  // The raw generated interfaces (`CustomerApi.paths`, `.operations`, `.components`: every operation of the spec
  // inline, 2-13 MB a page) stay exported for code but are left out of the pages: the named types (`Card`,
  // `CardCreateParams`) show the same fields one type a page. References to them stay as text.
  app.options.addDeclaration({
    name: 'cardrailLeftOutOfPages',
    help: 'Exported names that the reference leaves out (their pages would be too large to read).',
    type: ParameterType.Array,
    defaultValue: [],
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const leftOut = new Set(app.options.getValue('cardrailLeftOutOfPages'));
    for (const reflection of Object.values(context.project.reflections)) {
      if (leftOut.has(reflection.name) && reflection.parent?.kindOf(ReflectionKind.SomeModule))
        context.project.removeReflection(reflection);
    }
  });

  // A parameter typed `ByVariant<Paths, CardCreateParams, UserCardCreateParams>` (the SDK's resources serve both API
  // variants) is shown as the two types, each named for its client, so that the reference lists the fields of each
  // (typedoc expands the `@expand` types of a union's members, not those of a conditional type's).
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      if (!reflection.kindOf(ReflectionKind.Parameter)) continue;
      const type = reflection.type;
      if (type?.type !== 'reference' || type.name !== 'ByVariant' || type.typeArguments?.length !== 3) continue;
      const [, customer, user] = type.typeArguments;
      const shown = new UnionType([customer, user]);
      shown.elementSummaries = [
        [{ kind: 'text', text: 'with `Cardrail` (the customer variant)' }],
        [{ kind: 'text', text: 'with `CardrailUsers` (the user variant)' }],
      ];
      reflection.type = shown;
    }
  });

  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    const packages = new Set(app.options.getValue('packagesRequiringDocumentation'));
    const intentional = new Set(app.options.getValue('cardrailIntentionallyNotExported'));
    const used = new Set();
    const warned = new Set();
    for (const owner of Object.values(project.reflections)) {
      const visitor = makeRecursiveVisitor({
        reference(type) {
          if (type.reflection || type.externalUrl || type.isIntentionallyBroken() || !packages.has(type.package)) return;
          if (intentional.has(type.qualifiedName)) {
            used.add(type.qualifiedName);
            return;
          }
          const where = `${type.symbolId?.packageName}/${type.symbolId?.packagePath}`;
          if (warned.has(`${where}:${type.qualifiedName}`)) return;
          warned.add(`${where}:${type.qualifiedName}`);
          app.logger.warn(
            `${type.qualifiedName}, defined in ${where}, is referenced by ${owner.getFriendlyFullName()} but not included in the documentation`,
          );
        },
      });
      for (const type of [owner.type, owner.default, ...(owner.implementedTypes ?? [])]) type?.visit?.(visitor);
    }
    for (const name of intentional) {
      if (!used.has(name)) app.logger.warn(`cardrailIntentionallyNotExported lists ${name}, which nothing refers to: remove it`);
    }
  });
}
