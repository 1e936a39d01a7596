import type { LookupAddress, LookupOptions, lookup as dnsLookup } from 'node:dns';
import type { Agent as HttpAgent, IncomingMessage, RequestOptions } from 'node:http';
import type { LookupFunction, Socket } from 'node:net';
import {
  DEFAULT_ATTEMPTS_IN_FLIGHT,
  DEFAULT_ATTEMPTS_PER_ORGANIZATION,
  DEFAULT_ATTEMPTS_PER_ORIGIN,
  type FetchFunction,
} from '../webhooks/dispatcher.js';
import { addressProblem, type WebhookUrlPolicy } from '../webhooks/url-policy.js';
import { nodeBuiltin } from './node-builtins.js';

export interface WebhookFetchOptions {
  /**
   * Open connections to one origin at most (keep-alive, reused), all organizations together. Default 32: at least the
   * dispatcher's cap, so that every attempt it starts gets a socket at once (a request queued inside the agent would
   * wait there in arrival order, whatever its organization, with its timeout running).
   */
  perOrigin?: number | undefined;
  /** Idle connections kept to one origin. Default 8, one organization's share. */
  idlePerOrigin?: number | undefined;
  /** Open connections overall at most. Default 128. */
  total?: number | undefined;
  /** How long an idle kept-alive connection stays open, in ms. Default 4000. */
  idleMs?: number | undefined;
  /** Which resolved addresses may be connected to. */
  policy: WebhookUrlPolicy;
  /** The resolver (dns.lookup by default). */
  resolve?: typeof dnsLookup | undefined;
}

export interface WebhookFetch {
  fetch: FetchFunction;
  /** Ends every connection, idle or not. */
  close(): void;
}

/**
 * The fetch the Node server delivers webhooks with: node:http(s) over keep-alive agents, so deliveries to a receiver
 * reuse a few connections instead of opening one per attempt, with at most `perOrigin` sockets to one origin and
 * `total` overall (a receiver that never answers holds at most its share; the dispatcher's AttemptLimiter shares
 * them between organizations). It resolves hostnames itself and refuses
 * to connect to an address the webhook URL policy refuses (a name that resolves to 169.254.169.254 fails the attempt
 * the same way as that address written in the URL, even when the name was opened with allowHosts). Being node:http, MSW's Node interceptor still sees it.
 */
export function createWebhookFetch(options: WebhookFetchOptions): WebhookFetch {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.perOrigin ?? DEFAULT_ATTEMPTS_PER_ORIGIN,
    maxTotalSockets: options.total ?? DEFAULT_ATTEMPTS_IN_FLIGHT,
    maxFreeSockets: options.idlePerOrigin ?? DEFAULT_ATTEMPTS_PER_ORGANIZATION,
    // An idle socket times out and is destroyed, so a burst leaves no connections behind.
    timeout: options.idleMs ?? 4_000,
    scheduling: 'lifo' as const,
  };
  // Made on the first delivery of each scheme: a server that sends none never loads node:https (and TLS).
  const agents: { http?: HttpAgent; https?: HttpAgent } = {};
  const transport = (secure: boolean) => {
    const module = nodeBuiltin(secure ? 'node:https' : 'node:http');
    const scheme = secure ? 'https' : 'http';
    agents[scheme] ??= new module.Agent(agentOptions);
    return { agent: agents[scheme], request: module.request };
  };
  let lookup: LookupFunction | undefined;

  const fetch: FetchFunction = (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      const secure = url.protocol === 'https:';
      const { agent, request } = transport(secure);
      lookup ??= guardedLookup(options.policy, options.resolve ?? nodeBuiltin('node:dns').lookup);
      const requestOptions: RequestOptions = {
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string>,
        agent,
        // Also for a host opened with allowHosts: a name that resolves to a cloud metadata address is still refused.
        lookup,
        signal: init.signal ?? undefined,
      };
      const outgoing = request(url, requestOptions, (incoming: IncomingMessage) => {
        // The body is not used: it is read to its end so the connection can serve the next attempt.
        incoming.on('error', reject);
        incoming.resume();
        incoming.on('end', () => {
          try {
            resolve(new Response(null, { status: incoming.statusCode ?? 0 }));
          } catch {
            reject(new Error(`invalid response status ${String(incoming.statusCode)}`));
          }
        });
      });
      // A failed attempt (timeout, reset) settles once its connection is closed and the agent has let go of it, so the
      // slot it frees never has a closing connection and a new one to the same receiver open at the same time.
      outgoing.on('error', (error) => {
        const socket = outgoing.socket;
        if (socket) afterClose(socket, () => reject(error));
        else reject(error);
      });
      outgoing.end(typeof init.body === 'string' ? init.body : undefined);
    });

  return {
    fetch,
    close() {
      agents.http?.destroy();
      agents.https?.destroy();
    },
  };
}

/**
 * Runs `then` after the socket's 'close' event, where the agent lets go of it. A destroyed socket is `closed` at once,
 * but its 'close' comes in the event loop's close phase: with `closed` set, whichever comes first of that event and
 * the next turn of the loop (when the event has already been emitted, only the turn comes).
 */
function afterClose(socket: Socket, then: () => void): void {
  let done = false;
  let turn: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    if (done) return;
    done = true;
    socket.removeListener('close', finish);
    clearTimeout(turn);
    then();
  };
  socket.once('close', finish);
  if (socket.closed) turn = setTimeout(finish, 0);
}

/** dns.lookup, with every address the policy refuses taken out; none left is a connection error naming the reason. */
function guardedLookup(policy: WebhookUrlPolicy, resolve: typeof dnsLookup): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, { ...(lookupOptions as LookupOptions), all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        (callback as (error: Error | null, address: string, family?: number) => void)(error, '');
        return;
      }
      const allowed = addresses.filter((entry) => policy.allowsAddress(hostname, entry.address));
      if (allowed.length === 0) {
        const [first] = addresses;
        const problem = first ? addressProblem(first.address) : undefined;
        const refused = Object.assign(
          new Error(`refused: ${hostname} resolves to ${first?.address ?? 'no address'}, which ${problem ?? 'is not allowed'}`),
          { code: 'EWEBHOOKADDRESS' },
        );
        (callback as (error: Error | null, address: string, family?: number) => void)(refused, '');
        return;
      }
      if ((lookupOptions as LookupOptions).all) (callback as (error: null, addresses: LookupAddress[]) => void)(null, allowed);
      else {
        const [chosen] = allowed as [LookupAddress];
        (callback as (error: null, address: string, family: number) => void)(null, chosen.address, chosen.family);
      }
    });
  };
}
