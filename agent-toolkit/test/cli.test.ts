import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli/args.js';
import { assertBuilt } from './support/bin.js';
import { runBin } from './support/child.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

beforeAll(assertBuilt);

describe('cardrail-mcp command line', () => {
  it("reads how declare_intent asks for a person's decision", () => {
    const base = ['--api-key', 'sk_test_cli000001', '--agent', 'agt_1'];
    expect(parseCli(base, {})).toMatchObject({
      config: {
        approval: { apps: true, elicitation: true, tasks: true, elicitationTimeoutMs: undefined, decisionWaitSeconds: undefined },
      },
    });
    expect(parseCli([...base, '--no-apps'], {})).toMatchObject({ config: { approval: { apps: false, elicitation: true } } });
    expect(parseCli([...base, '--no-elicitation', '--elicitation-timeout', '30', '--approval-wait', '240'], {})).toMatchObject({
      config: { approval: { elicitation: false, tasks: true, elicitationTimeoutMs: 30_000, decisionWaitSeconds: 240 } },
    });
  });

  it('prints its help and version', async () => {
    const help = await runBin(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: cardrail-mcp --api-key <key> --agent <agentId> [--card <cardId>] [--base-url <url>]');
    for (const flag of [
      '--variant',
      '--credential-exposure',
      '--pay-merchant',
      '--no-elicitation',
      '--approval-wait',
      '--transport',
      '--port',
      '--host',
      '--no-tasks',
      '--no-apps',
      '--allowed-origin',
      '--allowed-host',
      'CARDRAIL_MCP_STATE_SECRET',
    ])
      expect(help.stdout).toContain(flag);
    // The conformance suite's test-only tools are not offered to users.
    expect(help.stdout).not.toContain('CONFORMANCE');
    const shown = await runBin(['--version']);
    expect(shown).toMatchObject({ status: 0, stdout: `${version}\n` });
  });

  it('refuses a wrong command line with status 2 and says what is wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['--agent', 'agt_1'], /--api-key <key> is required/],
      [['--api-key', 'sk_test_cli000001'], /--agent <agentId> is required/],
      [['--api-key', 'sk_test_cli000001', '--agent', 'agt_1', '--variant', 'admin'], /--variant must be customer or user/],
      [['--api-key', 'sk_test_cli000001', '--agent', 'agt_1', '--port', '4020'], /--port applies to --transport http only/],
      [
        ['--api-key', 'sk_test_cli000001', '--agent', 'agt_1', '--host', '::1', '--allowed-origin', 'localhost'],
        /--host, --allowed-origin apply to --transport http only/,
      ],
      [
        ['--api-key', 'sk_test_cli000001', '--agent', 'agt_1', '--transport', 'http', '--port', '70000'],
        /--port must be an integer/,
      ],
      [['--api-key', 'pk_live_nope', '--agent', 'agt_1'], /starts with "sk_test_"/],
      [['--api-key', 'sk_test_cli000001', '--agent', 'agt_1', '--card'], /--card/],
      [['--api-key', 'sk_test_cli000001', '--agent', 'agt_1', '--verbose'], /Unknown option '--verbose'/],
      [
        ['--api-key', 'sk_test_cli000001', '--agent', 'agt_1', '--approval-wait', '301'],
        /--approval-wait must be a whole number of seconds from 1 to 300, got "301"/,
      ],
      [['--api-key', 'sk_test_cli000001', '--agent', 'agt_1', '--elicitation-timeout', '0'], /--elicitation-timeout must be/],
    ];
    const runs = await Promise.all(cases.map(([args]) => runBin(args)));
    for (const [i, [args, message]] of cases.entries()) {
      const run = runs[i]!;
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stderr).toContain('cardrail-mcp --help');
      expect(run.stdout).toBe('');
    }
  });

  it('takes its settings from the environment, and ends cleanly when the client closes stdin', async () => {
    const run = await runBin([], {
      env: { CARDRAIL_API_KEY: 'sk_test_fromenv01', CARDRAIL_AGENT_ID: 'agt_env', CARDRAIL_CARD_ID: 'card_env' },
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('tools for agent agt_env, card card_env on stdio');
    expect(run.stdout).toBe('');
  });

  it('parses flags over the environment', () => {
    const command = parseCli(
      [
        '--api-key',
        'sk_test_flag00001',
        '--agent',
        'agt_flag',
        '--transport',
        'http',
        '--port',
        '0',
        '--credential-exposure',
        'full',
      ],
      {
        CARDRAIL_API_KEY: 'sk_test_env000001',
        CARDRAIL_AGENT_ID: 'agt_env',
        CARDRAIL_BASE_URL: 'http://127.0.0.1:4010/v1',
      },
    );
    expect(command).toEqual({
      kind: 'serve',
      config: {
        apiKey: 'sk_test_flag00001',
        agentId: 'agt_flag',
        cardId: undefined,
        baseUrl: 'http://127.0.0.1:4010/v1',
        variant: 'customer',
        credentialExposure: 'full',
        payMerchants: [],
        approval: { apps: true, elicitation: true, tasks: true, elicitationTimeoutMs: undefined, decisionWaitSeconds: undefined },
        transport: 'http',
        host: undefined,
        port: 0,
        allowedHosts: undefined,
        allowedOrigins: undefined,
        stateSecret: undefined,
        conformanceFixtures: false,
      },
    });
  });

  it('reads the merchants pay_merchant may pay', () => {
    const base = ['--api-key', 'sk_test_cli000001', '--agent', 'agt_1'];
    const merchants = ['--pay-merchant', 'https://gpu.example', '--pay-merchant', 'http://127.0.0.1:4020'];
    expect(parseCli([...base, ...merchants], {})).toMatchObject({
      config: { payMerchants: ['https://gpu.example', 'http://127.0.0.1:4020'] },
    });
  });

  it('reads the HTTP guards, the tasks switch and the state secret', () => {
    const base = ['--api-key', 'sk_test_cli000001', '--agent', 'agt_1', '--transport', 'http'];
    const origins = ['--allowed-origin', 'https://app.example', '--allowed-origin', 'localhost'];
    expect(parseCli([...base, ...origins, '--allowed-host', 'mcp.example', '--no-tasks'], {})).toMatchObject({
      config: {
        allowedOrigins: ['https://app.example', 'localhost'],
        allowedHosts: ['mcp.example'],
        approval: { tasks: false, elicitation: true },
      },
    });
    const secret = 'a-state-secret-of-at-least-32-bytes!';
    expect(parseCli(base, { CARDRAIL_MCP_STATE_SECRET: secret, CARDRAIL_MCP_CONFORMANCE_FIXTURES: '1' })).toMatchObject({
      config: { stateSecret: secret, conformanceFixtures: true },
    });
    expect(() => parseCli(base, { CARDRAIL_MCP_STATE_SECRET: 'short' })).toThrow(/at least 32 bytes/);
  });
});
