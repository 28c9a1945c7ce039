import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:tls";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSafeFetch } from "../../src/adapters/fetch/safe-fetch.ts";

// HTTPS through a pinned address: the socket goes to the checked IP, while SNI
// and certificate verification still use the URL's host name. The key pair is
// made fresh by openssl for this run (no private key is committed); the
// certificate is self-signed, so a verifying client MUST refuse it.

let server: Server;
let port = 0;
const sniSeen: string[] = [];
let dir = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pictor-tls-"));
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=pinned.example.com",
      "-addext",
      "subjectAltName=DNS:pinned.example.com",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  server = createServer({
    key: readFileSync(key),
    cert: readFileSync(cert),
    SNICallback: (name, done) => {
      sniSeen.push(name);
      done(null);
    },
  });
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

it("connects to the checked address with the URL's name as SNI and verifies the certificate", async () => {
  const asked: string[] = [];
  const safe = createSafeFetch({
    allowlist: [`127.0.0.1:${port}`],
    lookup: async (hostname) => {
      asked.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    },
  });
  const error = await safe.fetch(`https://pinned.example.com:${port}/`, { timeoutMs: 3000 }).then(
    () => null,
    (e: unknown) => e as { code: string; message: string; cause?: { code?: string } },
  );
  expect(error?.code).toBe("fetch_failed");
  expect(error?.message).toBe("outbound request failed");
  // Kept only as `cause` for operator logs: the certificate was checked and refused.
  expect(error?.cause?.code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
  expect(asked).toEqual(["pinned.example.com"]);
  expect(sniSeen).toEqual(["pinned.example.com"]);
});
