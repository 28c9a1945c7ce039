import { useEffect, useState } from "react";
import { accountFonts } from "../engine/account-fonts.ts";

export interface FamilyInfo {
  family: string;
  faces: { weight: number; style: "normal" | "italic" }[];
}

let shipped: Promise<FamilyInfo[]> | null = null;

/** Families the server ships (the same manifest the engine loads its faces from). */
function shippedFamilies(): Promise<FamilyInfo[]> {
  shipped ??= fetch("/editor/fonts.json")
    .then(
      (r) => r.json() as Promise<{ faces: { family: string; weight: number; style: "normal" | "italic" }[] }>,
    )
    .then((m) => groupFaces(m.faces));
  return shipped;
}

function groupFaces(faces: readonly { family: string; weight: number; style: string }[]): FamilyInfo[] {
  const by = new Map<string, FamilyInfo>();
  for (const f of faces) {
    const entry = by.get(f.family) ?? { family: f.family, faces: [] };
    entry.faces.push({ weight: f.weight, style: f.style === "italic" ? "italic" : "normal" });
    by.set(f.family, entry);
  }
  return [...by.values()];
}

/**
 * The shipped families, then the account's uploaded ones (GET /v1/assets/fonts, looked up again when
 * the panel opens, so a font uploaded a moment ago is offered). A shipped family wins over an upload
 * of the same name, as in renders.
 */
export function useFontFamilies(): FamilyInfo[] {
  const [families, setFamilies] = useState<FamilyInfo[]>([]);
  useEffect(() => {
    let live = true;
    void Promise.all([shippedFamilies(), accountFonts({ refresh: true }).catch(() => [])]).then(
      ([ship, mine]) => {
        if (!live) return;
        const names = new Set(ship.map((f) => f.family));
        const uploaded = groupFaces(mine.map((f) => f.font).filter((f) => !names.has(f.family)));
        setFamilies([...ship, ...uploaded]);
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return families;
}
