// The bundled documents as modules, so bundlers inline them and no consumer reads them from disk at run time.
// Typed by documents.d.ts: TypeScript would otherwise infer a type from each 14,000-line document.
import customer from './dist/customer.json' with { type: 'json' };
import user from './dist/user.json' with { type: 'json' };

export const documents = Object.freeze({ customer, user });
