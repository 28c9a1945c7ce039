import { mkdirSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { expect, it } from "vitest";
import { exited, runPictor, scratchForPictor, spawnServe } from "./serve-process.ts";

const { dir, children } = scratchForPictor("pictor-port-busy-");

it("a first start on a busy port says so and exits 2; the next start still shows the trial key and the editor's URL", async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as { port: number }).port;
  const env = { ...process.env, PICTOR_LOG_LEVEL: "warn" };
  const failed = await runPictor(["serve", "--port", String(port), "--data", dir, "--workers", "1"], {
    running: children,
  });
  await new Promise((resolve) => taken.close(resolve));
  expect(failed.code).toBe(2);
  expect(failed.stderr).toContain(`pictor: cannot listen on 127.0.0.1:${port}: the port is already in use.`);
  expect(failed.stderr).toContain("--port <n>");
  expect(failed.stdout).not.toMatch(/sk_live_/);

  const started = await spawnServe(dir, env, children);
  expect(started.stdout()).toMatch(/API key \(shown only now, store it\): sk_live_/);
  const examples = readdirSync(new URL("../../../../examples/templates/", import.meta.url)).filter((f) =>
    f.endsWith(".json"),
  );
  expect(started.stdout()).toContain(`created with 30 credits and ${examples.length} starter templates.\n`);
  // The banner names the editor and the reference as well as the API.
  expect(started.stdout()).toContain(`Editor: ${started.url}/  API reference: ${started.url}/docs\n`);
  const editor = await fetch(`${started.url}/`);
  expect(editor.headers.get("content-type")).toMatch(/^text\/html/);
  started.child.kill("SIGTERM");
});

it("a --host that does not resolve is the same one-line listen error, exit 2", async () => {
  const run = await runPictor(
    ["serve", "--port", "0", "--host", "nosuchhost.invalid", "--data", dir, "--workers", "1"],
    { running: children },
  );
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(
    "pictor: cannot listen on nosuchhost.invalid:0: the address is not a name this machine can resolve.",
  );
  expect(run.stderr).not.toMatch(/\n\s+at /);
});

it("the banner says so when the examples directory gave the trial account no starter templates", async () => {
  const data = join(dir, "no-starters");
  const empty = join(dir, "empty-examples");
  mkdirSync(empty);
  const env = { ...process.env, PICTOR_LOG_LEVEL: "warn" };
  const started = await spawnServe(data, env, children, ["--examples", empty]);
  expect(started.stdout()).toContain(
    "created with 30 credits and no starter templates (the examples directory has none).\n",
  );
  // A SIGTERM as soon as the banner is read finds the handler in place: a graceful close, exit 0
  // (with no listener the signal would kill the process).
  started.child.kill("SIGTERM");
  expect(await exited(started.child)).toEqual({ code: 0, signal: null });
});
