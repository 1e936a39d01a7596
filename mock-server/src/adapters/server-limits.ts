/** What the Node server allows each client (docs/standalone-server.md#timeouts-and-connections). */
export interface ServerLimits {
  /** Time to receive a request's headers, in ms. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body, in ms (0: no limit). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open, in ms. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; further ones are closed as they arrive. */
  maxConnections: number;
}

export const SERVER_LIMIT_DEFAULTS: Readonly<ServerLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
};
