// The packages' command-line tools, run with npx in the user's project.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { consumerDir, installedManifest } from '../support/consumer.js';
import { run } from '../support/run.js';

const npx = (args: string[]) => run('npx', ['--no-install', ...args], { cwd: consumerDir });

describe('npx cardrail-mock', () => {
  const { version } = installedManifest('@cardrail/mock-server');

  it('--version prints the package version', async () => {
    const result = await npx(['cardrail-mock', '--version']);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it('--help prints the usage', async () => {
    const result = await npx(['cardrail-mock', '--help']);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/^Usage: cardrail-mock \[options\]\n/);
    expect(result.stdout).toContain('--fixtures <file>');
  });

  it('serves the API on a free port until stopped', async () => {
    const child = spawn('npx', ['--no-install', 'cardrail-mock', '--port', '0'], { cwd: consumerDir, detached: true });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk;
          const match = /listening on (\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.stderr.on('data', (chunk: Buffer) => (output += chunk));
        child.on('exit', (code) => reject(new Error(`cardrail-mock exited with ${code}:\n${output}`)));
      });
      const response = await fetch(`${url}/customers`, { headers: { Authorization: 'Bearer sk_test_npxserve01' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ data: [], hasMore: false });
    } finally {
      // The npx wrapper and the server under it are one process group.
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    }
  });
});

describe('npx cardrail-mcp', () => {
  it('--version prints the package version', async () => {
    const result = await npx(['cardrail-mcp', '--version']);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout.trim()).toBe(installedManifest('@cardrail/agent-toolkit').version);
  });
});
