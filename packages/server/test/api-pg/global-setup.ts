import type { TestProject } from "vitest/node";
import { startPostgres } from "../support/postgres.ts";
import { startS3 } from "../support/s3.ts";
import type { PgS3Services } from "./backend.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pictorPgS3: PgS3Services;
  }
}

/**
 * One throwaway PostgreSQL cluster and one Swift (s3api) for the whole `server-pg` run; every test
 * server takes its own database and its own key prefix in the bucket. vitest.config.ts only adds this
 * project when the binaries exist (or under CI=true, where their absence fails here).
 */
let stopServices: (() => Promise<void>) | null = null;

export async function setup(project: TestProject) {
  const cluster = await startPostgres("server-pg (API suite on PostgreSQL + S3)");
  const s3 = await startS3("server-pg (API suite on PostgreSQL + S3)");
  if (!cluster || !s3) {
    await cluster?.stop();
    await s3?.stop();
    throw new Error("server-pg needs PostgreSQL and Swift (scripts/ci-services.sh)");
  }
  project.provide("pictorPgS3", {
    postgresUrl: cluster.url,
    s3: {
      endpoint: s3.endpoint,
      region: s3.region,
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    },
  });
  stopServices = async () => {
    await Promise.all([cluster.stop(), s3.stop()]);
  };
}

export async function teardown() {
  await stopServices?.();
}
