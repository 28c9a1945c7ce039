import { useState } from "react";
import { storedKey, storeKey } from "../api/client.ts";
import { AccountScreen } from "../screens/AccountScreen.tsx";
import { AuthScreen } from "../screens/AuthScreen.tsx";
import { EditorScreen } from "../screens/EditorScreen.tsx";
import { TemplateList } from "../screens/TemplateList.tsx";
import { navigate, useRoute } from "./route.ts";

export function App() {
  const [key, setKey] = useState(storedKey);
  const route = useRoute();

  if (!key) {
    return (
      <AuthScreen
        onSignedIn={(k) => {
          storeKey(k);
          setKey(k);
        }}
      />
    );
  }
  const signOut = () => {
    storeKey(null);
    setKey(null);
    navigate({ name: "templates" });
  };
  if (route.name === "editor")
    return <EditorScreen key={route.id} templateId={route.id} onSignOut={signOut} />;
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="#/templates">
          <span className="brand-mark" aria-hidden="true" />
          Pictor
        </a>
        <nav className="topnav">
          <a href="#/templates" className={route.name === "templates" ? "active" : ""}>
            Templates
          </a>
          <a href="#/account" className={route.name === "account" ? "active" : ""}>
            Account
          </a>
        </nav>
        <button type="button" className="btn ghost" onClick={signOut} data-testid="sign-out">
          Sign out
        </button>
      </header>
      <main className="page">{route.name === "account" ? <AccountScreen /> : <TemplateList />}</main>
    </div>
  );
}
