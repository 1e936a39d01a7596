// The host's look, where it gives one (MCP Apps' host context: `theme` and the standard CSS variables): the card's
// stylesheet reads the variables with its own values as fallbacks.
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';

export function applyHostContext(context: McpUiHostContext): void {
  const root = document.documentElement;
  if (context.theme === 'dark' || context.theme === 'light') {
    root.dataset.theme = context.theme;
    root.style.colorScheme = context.theme;
  }
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (name.startsWith('--') && typeof value === 'string') root.style.setProperty(name, value);
  }
}
