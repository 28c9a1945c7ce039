import { createRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { installTestHook } from "./testing/test-hook.ts";
import "./styles.css";
import "./panels/properties.css";

installTestHook();
const root = document.getElementById("root");
if (root) createRoot(root).render(<App />);
