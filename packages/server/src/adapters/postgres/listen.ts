import pg from "pg";

const RECONNECT_MS = 1000;

/**
 * A connection LISTENing on `channel`, re-established after it drops (notifications sent meanwhile
 * are lost: callers keep a polling floor).
 */
export async function listenTo(
  url: string,
  channel: string,
  applicationName: string,
  onNotify: (payload: string | undefined) => void,
): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let client: pg.Client | null = null;
  const listen = async () => {
    const c = new pg.Client({ connectionString: url, application_name: applicationName });
    c.on("notification", (n) => {
      if (n.channel === channel) onNotify(n.payload);
    });
    c.on("error", () => {
      if (closed) return;
      client = null;
      c.end().catch(() => {});
      retry();
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replaceAll('"', "")}"`);
    } catch (error) {
      c.end().catch(() => {});
      throw error;
    }
    if (closed) await c.end();
    else client = c;
  };
  // Until it is back (a database restart takes a while): every RECONNECT_MS.
  const retry = () => {
    setTimeout(() => {
      if (!closed) listen().catch(retry);
    }, RECONNECT_MS).unref();
  };
  await listen();
  return {
    async close() {
      closed = true;
      await client?.end();
    },
  };
}
