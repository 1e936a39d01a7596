export { createCardrailMcpServer, type CardrailMcpServerOptions } from './server.js';
export { createMcpFetchHandler } from './fetch-handler.js';
