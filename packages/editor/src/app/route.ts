import { useEffect, useState } from "react";

/** Hash routes (#/templates, #/t/<id>, #/account): the server serves one page at `/`. */
export type Route = { name: "templates" } | { name: "editor"; id: string } | { name: "account" };

export function parseRoute(hash: string): Route {
  const editor = /^#\/t\/([^/]+)$/.exec(hash);
  if (editor?.[1]) return { name: "editor", id: decodeURIComponent(editor[1]) };
  if (hash === "#/account") return { name: "account" };
  return { name: "templates" };
}

export function navigate(route: Route): void {
  location.hash =
    route.name === "editor"
      ? `#/t/${encodeURIComponent(route.id)}`
      : route.name === "account"
        ? "#/account"
        : "#/templates";
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
