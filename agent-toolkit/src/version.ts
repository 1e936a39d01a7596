import packageJson from '../package.json' with { type: 'json' };

/** This package's version (MCP server info, `cardrail-mcp --version`). */
export const VERSION: string = packageJson.version;
