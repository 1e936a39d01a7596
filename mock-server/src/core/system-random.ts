/**
 * Random bytes from the operating system's generator (`/dev/urandom`, the device behind getrandom(2) and node:crypto's
 * own seeding) through node:fs, which Node loads with itself: how a Node process gets cryptographic randomness before
 * node:crypto is loaded (node-crypto.ts). Only on Node itself on a system that has the device (not Windows, nor Deno
 * or Bun, where reading a device may need a permission); false where it was not read, and the caller asks node:crypto.
 */
import { isNodeItself } from './node-crypto.js';

type NodeFs = typeof import('node:fs');

interface NodeProcess {
  platform?: string;
  versions?: Record<string, string | undefined>;
  getBuiltinModule?: (id: string) => unknown;
}

const nodeProcess = (globalThis as { process?: NodeProcess }).process;
let fs: NodeFs | undefined | false;

export function systemRandom(bytes: Uint8Array): boolean {
  fs ??= usable(nodeProcess) ? ((nodeProcess?.getBuiltinModule?.('node:fs') as NodeFs | undefined) ?? false) : false;
  if (fs === false) return false;
  try {
    const fd = fs.openSync('/dev/urandom', 'r');
    try {
      for (let filled = 0; filled < bytes.length; ) {
        const read = fs.readSync(fd, bytes, filled, bytes.length - filled, null);
        if (read <= 0) return false;
        filled += read;
      }
      return true;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    fs = false;
    return false;
  }
}

function usable(process: NodeProcess | undefined): boolean {
  return isNodeItself(process) && process?.platform !== 'win32';
}
