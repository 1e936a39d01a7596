// The approval card's side of MCP Apps (the View, spec 2026-01-26): JSON-RPC 2.0 over postMessage with the host, which
// proxies tool calls to the MCP server. Written for this card rather than taken from @modelcontextprotocol/ext-apps'
// `App`, which brings the MCP client and zod: 664 kB minified against a few for this file, in an HTML resource a host
// loads for every card. Typed by the package's own message types, and tested against its host side (`AppBridge`).
import type {
  McpUiHostCapabilities,
  McpUiHostContext,
  McpUiInitializedNotification,
  McpUiInitializeRequest,
  McpUiInitializeResult,
  McpUiSizeChangedNotification,
  McpUiUpdateModelContextRequest,
} from '@modelcontextprotocol/ext-apps';

/** A tool's result as the host relays it (MCP's `CallToolResult`). */
export interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** What the host tells the view without being asked. */
export interface HostEvents {
  toolInput(args: Record<string, unknown>): void;
  toolResult(result: ToolResult): void;
  toolCancelled(reason: string | undefined): void;
  contextChanged(context: McpUiHostContext): void;
  teardown(): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** The protocol version of MCP Apps this view speaks. */
const PROTOCOL_VERSION = '2026-01-26';
/** Longer than a card's longest call (a read that waits up to 25 s for a decision made elsewhere). */
const REQUEST_TIMEOUT_MS = 60_000;

const INITIALIZE: McpUiInitializeRequest['method'] = 'ui/initialize';
const INITIALIZED: McpUiInitializedNotification['method'] = 'ui/notifications/initialized';
const SIZE_CHANGED: McpUiSizeChangedNotification['method'] = 'ui/notifications/size-changed';
const UPDATE_MODEL_CONTEXT: McpUiUpdateModelContextRequest['method'] = 'ui/update-model-context';

/** The view's connection to its host, through the window that embeds it (the host, or its sandbox proxy). */
export class HostConnection {
  readonly #host: Window;
  readonly #events: HostEvents;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  capabilities: McpUiHostCapabilities = {};
  context: McpUiHostContext = {};
  hostName: string | undefined;

  constructor(host: Window, events: HostEvents) {
    this.#host = host;
    this.#events = events;
    window.addEventListener('message', (event) => {
      // Only the window that embeds the view speaks for the host.
      if (event.source !== this.#host) return;
      this.#receive(event.data);
    });
  }

  /** `ui/initialize`, then `ui/notifications/initialized`: after this the host sends the tool's input and result. */
  async initialize(appInfo: { name: string; version: string }): Promise<void> {
    const params: McpUiInitializeRequest['params'] = {
      appInfo,
      appCapabilities: { availableDisplayModes: ['inline'] },
      protocolVersion: PROTOCOL_VERSION,
    };
    const result = (await this.request(INITIALIZE, params)) as McpUiInitializeResult;
    this.capabilities = result.hostCapabilities ?? {};
    this.context = result.hostContext ?? {};
    this.hostName = result.hostInfo?.name;
    this.notify(INITIALIZED, {});
  }

  /** Calls a tool of the MCP server through the host. */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await this.request('tools/call', { name, arguments: args })) as ToolResult;
  }

  /** Tells the model, from the next turn on, what happened in the view (a host that takes context updates). */
  async updateModelContext(text: string): Promise<void> {
    if (this.capabilities.updateModelContext === undefined) return;
    const params: McpUiUpdateModelContextRequest['params'] = { content: [{ type: 'text', text }] };
    await this.request(UPDATE_MODEL_CONTEXT, params).catch(() => undefined);
  }

  /**
   * Reports the view's size whenever it changes, so that a host sizing its frame to the content can: the height the
   * document needs (measured at `max-content`, as the extension's own `App` does, so that it can shrink below the
   * frame's current height), and the frame's width.
   */
  reportSize(): void {
    let last = '';
    let queued = false;
    const report = () => {
      queued = false;
      const root = document.documentElement;
      const height = root.style.height;
      root.style.height = 'max-content';
      const size = { width: Math.ceil(window.innerWidth), height: Math.ceil(root.getBoundingClientRect().height) };
      root.style.height = height;
      const key = `${size.width}x${size.height}`;
      if (key === last) return;
      last = key;
      this.notify(SIZE_CHANGED, size);
    };
    const observer = new ResizeObserver(() => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(report);
    });
    observer.observe(document.documentElement);
    observer.observe(document.body);
    report();
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`The host did not answer ${method} within ${REQUEST_TIMEOUT_MS / 1000} s.`));
      }, REQUEST_TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer });
      this.#post({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.#post({ jsonrpc: '2.0', method, params });
  }

  // The view cannot know the host's origin (it may run in an opaque-origin sandbox); what it sends is a request to
  // the host, which checks it, and never a secret of the host's.
  #post(message: unknown): void {
    this.#host.postMessage(message, '*');
  }

  #receive(data: unknown): void {
    if (data === null || typeof data !== 'object' || (data as { jsonrpc?: unknown }).jsonrpc !== '2.0') return;
    const message = data as { id?: number | string; method?: string; params?: unknown; result?: unknown; error?: unknown };
    if (message.method === undefined) {
      const pending = typeof message.id === 'number' ? this.#pending.get(message.id) : undefined;
      if (pending === undefined) return;
      this.#pending.delete(message.id as number);
      clearTimeout(pending.timer);
      if (message.error !== undefined) {
        const error = message.error as { message?: unknown };
        pending.reject(new Error(typeof error.message === 'string' ? error.message : 'The host refused the request.'));
      } else pending.resolve(message.result);
      return;
    }
    this.#handle(message.method, message.params, message.id);
  }

  #handle(method: string, params: unknown, id: number | string | undefined): void {
    const given = (params ?? {}) as Record<string, unknown>;
    switch (method) {
      case 'ui/notifications/tool-input':
        this.#events.toolInput((given.arguments as Record<string, unknown> | undefined) ?? {});
        break;
      case 'ui/notifications/tool-result':
        this.#events.toolResult(given as ToolResult);
        break;
      case 'ui/notifications/tool-cancelled':
        this.#events.toolCancelled(typeof given.reason === 'string' ? given.reason : undefined);
        break;
      case 'ui/notifications/host-context-changed':
        this.context = { ...this.context, ...(given as McpUiHostContext) };
        this.#events.contextChanged(this.context);
        break;
      case 'ui/resource-teardown':
        this.#events.teardown();
        if (id !== undefined) this.#post({ jsonrpc: '2.0', id, result: {} });
        break;
      case 'ping':
        if (id !== undefined) this.#post({ jsonrpc: '2.0', id, result: {} });
        break;
      default:
        if (id !== undefined) this.#post({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
    }
  }
}
