// The types generated from the spec (`CustomerApi`, `UserApi`: each variant's paths, operations, components and
// webhooks), bundled on their own into dist/api-types.d.cts: the package's ESM and CommonJS declarations both import
// them from that one file instead of each carrying a copy (they are two thirds of the package).
export type { CustomerApi, UserApi } from '@cardrail/spec';
