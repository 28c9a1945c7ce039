import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { skipOrFail } from "./postgres.ts";

export interface ThrowawayS3 {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The Swift launcher's process (all of Swift's servers run in it or under it): for CPU accounting. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * The environment that points a Pictor process at `s3` (keys under `prefix`); `endpoint` replaces the
 * store's own, for a proxy in front of it.
 */
export function s3Env(s3: ThrowawayS3, prefix: string, endpoint = s3.endpoint): Record<string, string> {
  return {
    S3_ENDPOINT: endpoint,
    S3_REGION: s3.region,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_PREFIX: prefix,
  };
}

// Debian's python3-swift lives in the system interpreter's dist-packages; a pyenv or venv `python3`
// earlier on PATH would not see it, so the launcher runs under /usr/bin/python3 explicitly.
const PYTHON = "/usr/bin/python3";
const SWIFT_S3API = "/usr/lib/python3/dist-packages/swift/common/middleware/s3api";
const LAUNCHER = join(import.meta.dirname, "swift", "run_swift.py");

/**
 * OpenStack Swift (Debian's packages) with its s3api middleware and tempauth, all servers in one child
 * process on free loopback ports, data in a temporary directory. Unlike s3rver it verifies SigV4
 * signatures, so a wrong secret, an expired or a tampered presigned URL is refused as on real S3.
 * Credentials are tempauth's test user (`test:tester` / `testing`). A fresh bucket is created.
 * Returns null (suite skipped) when Swift is not installed, unless CI=true.
 */
export async function startS3(suite: string): Promise<ThrowawayS3 | null> {
  if (!existsSync(PYTHON) || !existsSync(SWIFT_S3API)) {
    return skipOrFail(
      suite,
      "OpenStack Swift with s3api (python3-swift)",
      "apt-get install swift swift-proxy swift-object swift-container swift-account python3-swift",
    );
  }
  const dir = await mkdtemp(join(tmpdir(), "pictor-swift-"));
  const region = "us-east-1";
  // stdin stays open as a lifeline: the launcher exits when it closes, i.e. when this process dies.
  const child = spawn(PYTHON, [LAUNCHER, dir, region], { stdio: ["pipe", "pipe", "pipe"] });
  let port: number;
  try {
    port = await readPort(child);
  } catch (e) {
    child.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  const s3 = {
    endpoint: `http://127.0.0.1:${port}`,
    region,
    bucket: "pictor-test",
    accessKeyId: "test:tester",
    secretAccessKey: "testing",
  };
  const client = new S3Client({
    endpoint: s3.endpoint,
    region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  await client.send(new CreateBucketCommand({ Bucket: s3.bucket }));
  client.destroy();
  return {
    ...s3,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function readPort(child: ChildProcess): Promise<number> {
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  // The ready line is the launcher's JSON; anything a library prints before it is skipped.
  const ready = new Promise<number>((resolve, reject) => {
    lines.on("line", (line) => {
      const match = /^\{"port": (\d+)\}$/.exec(line.trim());
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) =>
      reject(new Error(`swift launcher exited (${code}) before it was ready:\n${stderr}`)),
    );
  });
  try {
    return await ready;
  } finally {
    lines.close();
  }
}
