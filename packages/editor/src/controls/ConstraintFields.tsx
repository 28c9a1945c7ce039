import type { ConstraintsT, FrameT, Layer } from "../engine/engine-types.ts";
import type { LayerPatch } from "../layer-forms/types.ts";
import { layerConstraints } from "../model/resize-design.ts";
import { SelectField } from "./fields.tsx";

const HORIZONTAL = {
  left: "Left",
  right: "Right",
  left_right: "Left & right",
  center: "Centre",
  scale: "Scale",
};
const VERTICAL = {
  top: "Top",
  bottom: "Bottom",
  top_bottom: "Top & bottom",
  center: "Centre",
  scale: "Scale",
};

/**
 * Where a top-level layer stays when its frame is copied to another size. "Auto" leaves the choice
 * to where the layer sits and says what that gives now.
 */
export function ConstraintFields({
  layer,
  frame,
  onLayer,
}: {
  layer: Layer;
  frame: FrameT;
  onLayer: LayerPatch;
}) {
  const own = layer.constraints ?? {};
  const inferred = layerConstraints({ ...layer, constraints: undefined } as Layer, frame.width, frame.height);
  const set = (patch: Partial<ConstraintsT>, key: string) => {
    const next: Record<string, unknown> = { ...own, ...patch };
    for (const [k, v] of Object.entries(next)) if (v === undefined || v === "auto") delete next[k];
    onLayer({ constraints: Object.keys(next).length === 0 ? undefined : (next as ConstraintsT) }, key);
  };
  const options = (table: Record<string, string>, auto: string): { value: string; label: string }[] => [
    { value: "auto", label: `Auto (${table[auto]})` },
    ...Object.entries(table).map(([value, label]) => ({ value, label })),
  ];
  return (
    <div className="grid2" data-testid="constraints">
      <SelectField
        label="Pin across"
        testId="prop-constraint-h"
        value={own.horizontal ?? "auto"}
        options={options(HORIZONTAL, inferred.horizontal)}
        onChange={(v) =>
          set({ horizontal: v === "auto" ? undefined : (v as ConstraintsT["horizontal"]) }, "pin-h")
        }
      />
      <SelectField
        label="Pin down"
        testId="prop-constraint-v"
        value={own.vertical ?? "auto"}
        options={options(VERTICAL, inferred.vertical)}
        onChange={(v) =>
          set({ vertical: v === "auto" ? undefined : (v as ConstraintsT["vertical"]) }, "pin-v")
        }
      />
    </div>
  );
}
