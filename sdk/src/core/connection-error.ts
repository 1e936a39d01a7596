import { ConnectionError } from '../errors.js';

/**
 * A network failure as ConnectionError naming the URL and the system's code: Node's fetch throws `TypeError: fetch
 * failed` with the code (`ECONNREFUSED`, `ENOTFOUND`...) on its `cause`, which a message of its own would hide.
 */
export function connectionError(cause: unknown, url: string): ConnectionError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const systemCode = systemCodeOf(cause);
  const advice = systemCode === undefined ? '' : (CONNECTION_ADVICE[systemCode] ?? '');
  return new ConnectionError({
    message: `Connection error: ${reason} (${systemCode === undefined ? '' : `${systemCode}, `}${url})${advice}`,
    details: systemCode === undefined ? { url } : { url, systemCode },
    cause,
  });
}

/** What the usual codes mean for a client of the API. */
const CONNECTION_ADVICE: Record<string, string> = {
  ECONNREFUSED: ': nothing listens there; check the baseUrl, or start the server (the local mock: npx cardrail-mock)',
  ENOTFOUND: ': the host name does not resolve; check the baseUrl',
  ECONNRESET: ': the server closed the connection',
  ETIMEDOUT: ': the connection timed out',
  EAI_AGAIN: ': the host name could not be resolved now (DNS); retry, or check the network',
};

/** The system error code on an error or its causes (`ECONNREFUSED`), at most a few levels down. */
function systemCodeOf(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    const nested = (current as { errors?: unknown }).errors;
    // undici reports a refused dual-stack connection as an AggregateError of one error per address.
    current = Array.isArray(nested) && nested.length > 0 ? nested[0] : (current as { cause?: unknown }).cause;
  }
  return undefined;
}
