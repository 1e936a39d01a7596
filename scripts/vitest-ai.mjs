// Which major of the Vercel AI SDK (`ai`) a test run uses. The agent toolkit installs both: `ai` is ai 7 (npm's
// latest, Node 22 or newer) and `ai6` is ai 6 (npm:ai@6.0.326, the one that runs on Node 20). CARDRAIL_AI_MAJOR=6
// makes a vitest run resolve every `ai` and `ai/...` import, in the tests and in the toolkit's sources they load, to
// ai 6; runtime-tests/scripts/node-majors.mjs sets it for the Node 20 lane. Without it, `ai` stays ai 7.

/** The major in force for this run: 6 or 7. */
export function aiMajor() {
  const wanted = process.env.CARDRAIL_AI_MAJOR ?? '7';
  if (wanted !== '6' && wanted !== '7') throw new Error(`CARDRAIL_AI_MAJOR must be 6 or 7, not ${wanted}`);
  return Number(wanted);
}

/** vitest's `resolve.alias` for the AI SDK major in force (none for ai 7). */
export function aiAlias() {
  return aiMajor() === 6 ? [{ find: /^ai(\/.*)?$/, replacement: 'ai6$1' }] : [];
}
