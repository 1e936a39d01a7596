/** The parts of an OpenAPI 3.1 document that consumers read; the documents themselves are the bundles in dist/. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** The bundled document of each variant (spec/dist/customer.json and user.json). */
export declare const documents: Readonly<{ customer: OpenApiDocument; user: OpenApiDocument }>;
