import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

export type HeldImage = Awaited<ReturnType<typeof startHeldImage>>;

/**
 * An image origin that holds every request until `release`: renders wait on it mid-flight.
 * `requested` settles at the first request; `missingUrl` answers 404 at once.
 */
export async function startHeldImage() {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3a6" } })
    .png()
    .toBuffer();
  const held: ServerResponse[] = [];
  let open = false;
  let requested: () => void = () => {};
  const firstRequest = new Promise<void>((resolve) => {
    requested = resolve;
  });
  const send = (res: ServerResponse) =>
    res.writeHead(200, { "content-type": "image/png", "content-length": png.length }).end(png);
  const server = createServer((req, res) => {
    if (req.url === "/missing.png") return void res.writeHead(404).end();
    requested();
    if (open) send(res);
    else held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/photo.png`,
    missingUrl: `http://127.0.0.1:${port}/missing.png`,
    requested: firstRequest,
    release() {
      open = true;
      for (const res of held.splice(0)) send(res);
    },
    // Requests still held (a test that ended before its release) do not hold the close.
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
