// Starts a throwaway `pictor serve` on loopback, reads its OpenAPI document and writes the client's
// types (src/generated/openapi.ts). Run after changing any route's schema.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GENERATED_TYPES_FILE, typesFromDocument } from "./openapi-types.ts";

const bin = fileURLToPath(new URL("../../server/bin/pictor.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pictor-openapi-"));
const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--data", dir, "--workers", "1"], {
  env: { ...process.env, PICTOR_LOG_LEVEL: "warn" },
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`pictor serve exited ${code}`)));
  });
  const document = (await (await fetch(`${url}/v1/openapi.json`)).json()) as Record<string, unknown>;
  writeFileSync(GENERATED_TYPES_FILE, await typesFromDocument(document));
  process.stdout.write(`wrote ${fileURLToPath(GENERATED_TYPES_FILE)}\n`);
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  rmSync(dir, { recursive: true, force: true });
}
