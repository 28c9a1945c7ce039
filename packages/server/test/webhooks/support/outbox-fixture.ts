import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { createSqliteWebhookOutbox } from "../../../src/adapters/sqlite/webhook-outbox.ts";
import { buildCallbackEvent } from "../../../src/domain/webhooks/index.ts";
import type { OutboxEventInput, WebhookOutbox } from "../../../src/ports/webhook-outbox.ts";

export interface OutboxFixture {
  path: string;
  db: DatabaseSync;
  outbox: WebhookOutbox;
  /** Closes the database and opens it again, as a restarted process would. */
  reopen(): void;
  cleanup(): void;
}

/** A real SQLite file per test (not :memory:), so restart and multi-process tests see real durability. */
export function createOutboxFixture(): OutboxFixture {
  const dir = mkdtempSync(join(tmpdir(), "pictor-outbox-"));
  const path = join(dir, "pictor.db");
  const open = (): DatabaseSync => openDatabase(path);
  const fixture: OutboxFixture = {
    path,
    db: open(),
    outbox: undefined as unknown as WebhookOutbox,
    reopen() {
      fixture.db.close();
      fixture.db = open();
      fixture.outbox = createSqliteWebhookOutbox(fixture.db);
    },
    cleanup() {
      if (fixture.db.isOpen) fixture.db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  fixture.outbox = createSqliteWebhookOutbox(fixture.db);
  return fixture;
}

let renderCounter = 0;

/** A completion event as the render pipeline would enqueue it. */
export function completionEvent(url: string, createdAt: number, accountId = "acct_test"): OutboxEventInput {
  renderCounter += 1;
  const renderId = `rnd_test${renderCounter}`;
  const event = buildCallbackEvent({
    id: renderId,
    template: "tpl_banner",
    output_url: `https://pictor.example/v1/outputs/${renderId}?expires=1&sig=abc`,
    asset_url: `https://pictor.example/a/0123456789abcdef0123456789abcdef/${renderId}.png`,
    width: 1200,
    height: 630,
    credits_charged: 1,
    warnings: [],
    completed_at: createdAt,
  });
  return { ...event, account_id: accountId, render_id: renderId, url, created_at: createdAt };
}
