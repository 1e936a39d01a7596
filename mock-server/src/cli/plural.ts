/** `1 record`, `2 records`: a count with its noun, for messages. */
export function plural(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
