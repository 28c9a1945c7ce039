import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import "../styles.css";
import "../panels/properties.css";
import "../panels/conventions.css";

/** Renders the editor app into the page's #root. */
export function mount(): void {
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<App />);
}
