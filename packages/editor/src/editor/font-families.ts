import { useEffect, useState } from "react";

export interface FamilyInfo {
  family: string;
  faces: { weight: number; style: "normal" | "italic" }[];
}

let cached: Promise<FamilyInfo[]> | null = null;

/** Families the server ships (the same manifest the engine loads its faces from). */
export function useFontFamilies(): FamilyInfo[] {
  const [families, setFamilies] = useState<FamilyInfo[]>([]);
  useEffect(() => {
    cached ??= fetch("/editor/fonts.json")
      .then(
        (r) =>
          r.json() as Promise<{ faces: { family: string; weight: number; style: "normal" | "italic" }[] }>,
      )
      .then((m) => {
        const by = new Map<string, FamilyInfo>();
        for (const f of m.faces) {
          const entry = by.get(f.family) ?? { family: f.family, faces: [] };
          entry.faces.push({ weight: f.weight, style: f.style });
          by.set(f.family, entry);
        }
        return [...by.values()];
      });
    void cached.then(setFamilies);
  }, []);
  return families;
}
