import { OutboundError } from "../../ports/safe-fetch.ts";

// Streams a response body into memory but never past `maxBytes`: a 1 GB
// answer costs at most maxBytes plus one socket chunk before the stream is
// destroyed, which also closes the connection so the sender stops.
export async function readCappedBody(
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown },
  declaredLength: string | undefined,
  maxBytes: number,
): Promise<Uint8Array> {
  const declared = declaredLength === undefined ? Number.NaN : Number(declaredLength);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw tooLarge(maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      body.destroy();
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError("too_large", `response body exceeds ${maxBytes} bytes`);
}
