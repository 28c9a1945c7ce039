import { useCallback, useEffect, useState } from "react";
import { type Account, type ApiKey, allPages, api, type LedgerEntry, type Page } from "../api/client.ts";

/** Ledger entries per page, newest first; older ones come with "Show older". */
const LEDGER_PAGE = 50;
const ledgerPage = (cursor: string | null) =>
  api<Page<LedgerEntry>>(
    `/v1/account/ledger?order=desc&limit=${LEDGER_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
  );

/** Credits and ledger, API keys (create, revoke), webhook signing secret. */
export function AccountScreen() {
  const [account, setAccount] = useState<Account | null>(null);
  const [ledger, setLedger] = useState<LedgerEntry[]>([]);
  const [olderCursor, setOlderCursor] = useState<string | null>(null);
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [newKey, setNewKey] = useState<string | null>(null);
  const [keyName, setKeyName] = useState("");
  const [secret, setSecret] = useState<string | null>(null);
  const [rotateSupported, setRotateSupported] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [a, l, k] = await Promise.all([
        api<Account>("/v1/account"),
        ledgerPage(null),
        allPages<ApiKey>("/v1/keys"),
      ]);
      setAccount(a);
      setLedger(l.data);
      setOlderCursor(l.next_cursor);
      setKeys(k);
    } catch (err) {
      setError(String(err));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function showOlder() {
    try {
      const older = await ledgerPage(olderCursor);
      setLedger((shown) => [...shown, ...older.data]);
      setOlderCursor(older.next_cursor);
    } catch (err) {
      setError(String(err));
    }
  }

  async function createKey() {
    const created = await api<{ key: string }>("/v1/keys", { body: keyName ? { name: keyName } : {} });
    setNewKey(created.key);
    setKeyName("");
    await load();
  }

  async function revoke(id: string) {
    await api(`/v1/keys/${id}`, { method: "DELETE" });
    await load();
  }

  async function showSecret() {
    const s = await api<{ secret: string }>("/v1/webhook-secret");
    setSecret(s.secret);
  }

  async function rotateSecret() {
    try {
      const s = await api<{ secret: string }>("/v1/webhook-secret/rotate", { method: "POST", body: {} });
      setSecret(s.secret);
      setRotateSupported(true);
    } catch (err) {
      // The rotation endpoint is not on every server version yet: say so instead of failing silently.
      setRotateSupported(false);
      setError(
        err instanceof Error ? `Rotation is not available on this server (${err.message}).` : String(err),
      );
    }
  }

  return (
    <section className="account">
      <div className="page-head">
        <div>
          <h1>Account</h1>
          <p className="muted">{account ? `${account.name} · ${account.id}` : "…"}</p>
        </div>
        <div className="balance" data-testid="balance">
          <span className="muted small">Credits</span>
          <strong>{account?.credits_balance ?? "–"}</strong>
        </div>
      </div>
      {error && <p className="error">{error}</p>}
      <div className="columns">
        <div className="panel-card">
          <h2>Ledger</h2>
          <table className="table">
            <thead>
              <tr>
                <th>When</th>
                <th>Kind</th>
                <th className="num">Amount</th>
                <th>Render</th>
              </tr>
            </thead>
            <tbody>
              {ledger.map((e) => (
                <tr key={e.id}>
                  <td>{new Date(e.created_at).toLocaleString()}</td>
                  <td>
                    <span className={`badge ${e.kind}`}>{e.kind}</span>
                  </td>
                  <td className={`num ${e.amount < 0 ? "neg" : "pos"}`}>
                    {e.amount > 0 ? `+${e.amount}` : e.amount}
                  </td>
                  <td className="mono small">{e.render_id ?? e.note ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {olderCursor && (
            <button type="button" className="btn small ghost" onClick={() => void showOlder()}>
              Show older
            </button>
          )}
        </div>
        <div className="stack">
          <div className="panel-card">
            <h2>API keys</h2>
            {newKey && (
              <div className="notice">
                <p>New key (shown once):</p>
                <code className="secret" data-testid="created-key">
                  {newKey}
                </code>
              </div>
            )}
            <ul className="list">
              {keys.map((k) => (
                <li key={k.id} className={k.revoked_at ? "revoked" : ""}>
                  <div>
                    <strong>{k.name ?? "Unnamed key"}</strong>
                    <div className="muted small mono">{k.prefix}…</div>
                    <div className="muted small">
                      {k.revoked_at
                        ? `revoked ${new Date(k.revoked_at).toLocaleDateString()}`
                        : k.last_used_at
                          ? `used ${new Date(k.last_used_at).toLocaleString()}`
                          : "never used"}
                    </div>
                  </div>
                  {!k.revoked_at && (
                    <button type="button" className="btn small ghost" onClick={() => revoke(k.id)}>
                      Revoke
                    </button>
                  )}
                </li>
              ))}
            </ul>
            <div className="row">
              <input
                value={keyName}
                onChange={(e) => setKeyName(e.target.value)}
                placeholder="Key name (optional)"
              />
              <button type="button" className="btn" onClick={createKey}>
                Create key
              </button>
            </div>
          </div>
          <div className="panel-card">
            <h2>Webhook signing secret</h2>
            <p className="muted small">Webhook deliveries are signed with this secret (HMAC-SHA256).</p>
            {secret ? <code className="secret">{secret}</code> : null}
            <div className="row">
              <button type="button" className="btn" onClick={showSecret}>
                {secret ? "Refresh" : "Show secret"}
              </button>
              <button
                type="button"
                className="btn ghost"
                onClick={rotateSecret}
                disabled={rotateSupported === false}
              >
                Rotate
              </button>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
