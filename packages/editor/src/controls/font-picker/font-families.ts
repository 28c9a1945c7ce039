import { useEffect, useState } from "react";
import { accountFonts } from "../../engine/account-fonts.ts";

export interface FamilyInfo {
  family: string;
  /** `url`: where the browser can fetch the face's file (for previews in its own face). */
  faces: { weight: number; style: "normal" | "italic"; url: string }[];
  /** Uploaded by the account (GET /v1/assets/fonts), not shipped. */
  uploaded?: boolean;
  /** The shipped family's category (fonts.json), which the picker groups families under. */
  category?: string;
}

let shipped: Promise<FamilyInfo[]> | null = null;

/** Families the server ships (the same manifest the engine loads its faces from). */
function shippedFamilies(): Promise<FamilyInfo[]> {
  shipped ??= fetch("/editor/fonts.json")
    .then(
      (r) =>
        r.json() as Promise<{
          faces: {
            family: string;
            category?: string;
            weight: number;
            style: "normal" | "italic";
            url: string;
          }[];
        }>,
    )
    .then((m) => groupFaces(m.faces));
  return shipped;
}

function groupFaces(
  faces: readonly { family: string; category?: string; weight: number; style: string; url: string }[],
  uploaded = false,
): FamilyInfo[] {
  const by = new Map<string, FamilyInfo>();
  for (const f of faces) {
    const entry = by.get(f.family) ?? {
      family: f.family,
      faces: [],
      ...(uploaded ? { uploaded } : {}),
      ...(f.category === undefined ? {} : { category: f.category }),
    };
    entry.faces.push({ weight: f.weight, style: f.style === "italic" ? "italic" : "normal", url: f.url });
    by.set(f.family, entry);
  }
  return [...by.values()];
}

/**
 * The shipped families, then the account's uploaded ones (GET /v1/assets/fonts, looked up again when
 * the panel opens, so a font uploaded a moment ago is offered). A shipped family wins over an upload
 * of the same name, as in renders.
 */
export function useFontFamilies(): { families: FamilyInfo[]; reload(): void } {
  const [families, setFamilies] = useState<FamilyInfo[]>([]);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let live = true;
    void Promise.all([
      shippedFamilies(),
      accountFonts({ refresh: true, force: generation > 0 }).catch(() => []),
    ]).then(([ship, mine]) => {
      if (!live) return;
      const names = new Set(ship.map((f) => f.family));
      const uploaded = groupFaces(
        mine.map((f) => ({ ...f.font, url: f.asset_url })).filter((f) => !names.has(f.family)),
        true,
      );
      setFamilies([...ship, ...uploaded]);
    });
    return () => {
      live = false;
    };
  }, [generation]);
  return { families, reload: () => setGeneration((g) => g + 1) };
}
