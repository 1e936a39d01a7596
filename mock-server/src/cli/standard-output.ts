import { nodeBuiltin } from '../adapters/node-builtins.js';

const encoder = new TextEncoder();
let throughStream = false;

/**
 * Writes the CLI's lines to standard output with `fs.writeSync` on descriptor 1 for as long as that works:
 * `process.stdout` costs about 3 ms to set up (a stream over a pipe or a terminal), paid before the first answer when
 * the server prints its address. A write that fails or stops short (a full non-blocking pipe: EAGAIN) hands what is
 * left to `process.stdout`, which queues it, and every later line follows it there, so the order holds.
 */
export function writeStandardOutput(text: string): void {
  if (!throughStream) {
    const bytes = encoder.encode(text);
    let written = 0;
    try {
      while (written < bytes.length) written += nodeBuiltin('node:fs').writeSync(1, bytes, written);
      return;
    } catch {
      throughStream = true;
      process.stdout.write(bytes.subarray(written));
      return;
    }
  }
  process.stdout.write(text);
}
