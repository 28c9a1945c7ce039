import { useState } from "react";
import { ApiFailure, api } from "../api/client.ts";

interface Props {
  onSignedIn(key: string): void;
}

/** Sign up (trial account; the key is shown once, here) or sign in with an existing key. */
export function AuthScreen({ onSignedIn }: Props) {
  const [name, setName] = useState("");
  const [keyInput, setKeyInput] = useState("");
  const [created, setCreated] = useState<{ account_id: string; api_key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function signUp(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setCreated(
        await api<{ account_id: string; api_key: string }>("/v1/accounts", {
          body: { name: name.trim() || "My team" },
          key: null,
        }),
      );
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function signIn(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const key = keyInput.trim();
    try {
      await api("/v1/account", { key });
      onSignedIn(key);
    } catch (err) {
      setError(err instanceof ApiFailure && err.status === 401 ? "That key is not valid." : String(err));
    } finally {
      setBusy(false);
    }
  }

  if (created) {
    return (
      <main className="auth">
        <div className="auth-card">
          <h1>Your account is ready</h1>
          <p className="muted">
            30 trial credits and six starter templates are waiting. This is your API key:
          </p>
          <code className="secret" data-testid="new-api-key">
            {created.api_key}
          </code>
          <p className="warn">It is shown only once. Copy it somewhere safe: you sign in with it.</p>
          <div className="row">
            <button
              type="button"
              className="btn"
              onClick={() => navigator.clipboard?.writeText(created.api_key)}
            >
              Copy key
            </button>
            <button
              type="button"
              className="btn primary"
              data-testid="continue"
              onClick={() => onSignedIn(created.api_key)}
            >
              Open the editor
            </button>
          </div>
        </div>
      </main>
    );
  }

  return (
    <main className="auth">
      <div className="auth-card">
        <h1 className="brand big">
          <span className="brand-mark" aria-hidden="true" />
          Pictor
        </h1>
        <p className="muted">Design image templates here; render them over HTTP with the very same engine.</p>
        <form onSubmit={signUp} className="stack">
          <h2>Create a trial account</h2>
          <label className="field">
            <span>Team or project name</span>
            <input
              data-testid="signup-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Acme marketing"
            />
          </label>
          <button type="submit" className="btn primary" disabled={busy} data-testid="signup">
            Sign up — 30 free credits
          </button>
        </form>
        <div className="divider">or</div>
        <form onSubmit={signIn} className="stack">
          <h2>Sign in with an API key</h2>
          <label className="field">
            <span>API key</span>
            <input
              data-testid="signin-key"
              value={keyInput}
              onChange={(e) => setKeyInput(e.target.value)}
              placeholder="sk_live_…"
              autoComplete="off"
            />
          </label>
          <button
            type="submit"
            className="btn"
            disabled={busy || keyInput.trim() === ""}
            data-testid="signin"
          >
            Sign in
          </button>
        </form>
        {error && <p className="error">{error}</p>}
      </div>
    </main>
  );
}
