import { OutboundError } from "../../ports/safe-fetch.ts";

// Streams a response body into memory but never past `maxBytes`: a 1 GB
// answer costs at most maxBytes plus one socket chunk before the stream is
// destroyed, which also closes the connection so the sender stops.
export async function readCappedBody(
  body: DestroyableBody,
  declaredLength: string | undefined,
  maxBytes: number,
): Promise<Uint8Array> {
  const declared = declaredLength === undefined ? Number.NaN : Number(declaredLength);
  if (Number.isFinite(declared) && declared > maxBytes) {
    discardBody(body);
    throw tooLarge(maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      discardBody(body);
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

export interface DestroyableBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** Closes the body (and so its connection) without an unhandled "error" event from undici's abort. */
export function discardBody(body: DestroyableBody): void {
  body.on("error", () => {});
  body.destroy();
}

function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError("too_large", `response body exceeds ${maxBytes} bytes`);
}
