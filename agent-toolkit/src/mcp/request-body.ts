/** Bodies larger than this are refused (413) before they are read to the end: an MCP message is small. */
export const MAX_BODY_BYTES = 1024 * 1024;

function tooLarge(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32600, message: `The request body is larger than ${MAX_BODY_BYTES} bytes.` }, id: null },
    { status: 413, headers: { Connection: 'close' } },
  );
}

/**
 * A request's body as text, read at most up to `MAX_BODY_BYTES` (a declared `Content-Length` over it is refused
 * without reading; a body that grows past it while read is dropped), or the 413 to answer.
 */
export async function readBody(request: Request): Promise<string | Response> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return tooLarge();
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      return tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
