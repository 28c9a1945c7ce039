import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname } from "node:path";

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".map": "application/json",
  ".json": "application/json",
  // Emscripten streams-compiles only when served as application/wasm.
  ".wasm": "application/wasm",
};

type Route = { file: string } | { bytes: Uint8Array; type?: string };

/**
 * The smallest static server the identity test needs, on loopback and a free port: fixed routes to
 * files or in-memory bytes (prepared images, font manifest), and POST bodies captured by path so the
 * page can hand back pixels on a mismatch.
 */
export class StaticServer {
  readonly #routes = new Map<string, Route>();
  readonly #uploads = new Map<string, Uint8Array>();
  #server: Server | undefined;
  #origin = "";

  get origin(): string {
    return this.#origin;
  }

  serveFile(path: string, file: string): void {
    this.#routes.set(path, { file });
  }

  serveBytes(path: string, bytes: Uint8Array, type = "application/octet-stream"): void {
    this.#routes.set(path, { bytes, type });
  }

  unserve(path: string): void {
    this.#routes.delete(path);
  }

  takeUpload(path: string): Uint8Array | undefined {
    const body = this.#uploads.get(path);
    this.#uploads.delete(path);
    return body;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (req.method === "POST") {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          this.#uploads.set(path, new Uint8Array(Buffer.concat(chunks)));
          res.writeHead(204).end();
        });
        return;
      }
      const route = this.#routes.get(path);
      if (!route) {
        res.writeHead(404).end(`not served: ${path}`);
        return;
      }
      const send = (bytes: Uint8Array, type: string) => {
        res.writeHead(200, {
          "content-type": type,
          "content-length": bytes.byteLength,
          "cache-control": "no-store",
        });
        res.end(bytes);
      };
      if ("file" in route) {
        readFile(route.file).then(
          (bytes) => send(bytes, contentTypes[extname(route.file)] ?? "application/octet-stream"),
          (err: unknown) => res.writeHead(500).end(String(err)),
        );
      } else {
        send(route.bytes, route.type ?? "application/octet-stream");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.#server = server;
    this.#origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
