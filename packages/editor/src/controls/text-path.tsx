import type { TextLayerT } from "../engine/engine-types.ts";
import { CheckField, NumberField, SelectField, TextField } from "./fields.tsx";

type OnPath = NonNullable<TextLayerT["on_path"]>;
type Shape = OnPath["shape"];

/** What a text on a path drops: the properties that lay text out in lines (validation refuses them there). */
export const LINE_ONLY_PROPERTIES: Partial<TextLayerT> = {
  align: undefined,
  vertical_align: undefined,
  max_lines: undefined,
  paragraph_spacing: undefined,
  highlight: undefined,
};

interface Props {
  layer: TextLayerT;
  /** `patch` replaces properties (undefined removes one). */
  onChange(patch: Partial<TextLayerT>, key: string): void;
}

/** Placement common to every shape, carried over when the shape changes. */
function placementOf(value: OnPath): Pick<OnPath, "align" | "start_offset"> {
  return {
    ...(value.align === undefined ? {} : { align: value.align }),
    ...(value.start_offset === undefined ? {} : { start_offset: value.start_offset }),
  };
}

function withShape(value: OnPath, shape: Shape, box: { width: number; height: number }): OnPath {
  const side = "side" in value && value.side !== undefined ? { side: value.side } : {};
  if (shape === "circle") return { shape, ...side, ...placementOf(value) };
  if (shape === "arc") return { shape, from: -60, to: 60, ...side, ...placementOf(value) };
  // A gentle curve across the box, as a start to edit.
  const d = `M0 ${Math.round(box.height * 0.8)} Q ${Math.round(box.width / 2)} 0 ${Math.round(box.width)} ${Math.round(box.height * 0.8)}`;
  return { shape, d, ...placementOf(value) };
}

/**
 * A text layer's path: off (lines in the box), or along the circle fitted to its box, an arc of it
 * or SVG path data; the side of a circle or arc, alignment and offset along the path.
 */
export function TextPathEditor({ layer, onChange }: Props) {
  const value = layer.on_path;
  const set = (on_path: OnPath) => onChange({ on_path }, "on_path");
  return (
    <div data-testid="text-path-editor">
      <CheckField
        label="Text on a path"
        testId="text-path-on"
        value={value !== undefined}
        onChange={(on) =>
          on
            ? onChange(
                {
                  ...LINE_ONLY_PROPERTIES,
                  ...(layer.fit === "fill" ? { fit: "shrink" as const } : {}),
                  on_path: { shape: "circle" },
                },
                "on_path",
              )
            : onChange({ on_path: undefined }, "on_path")
        }
      />
      {value && (
        <>
          <div className="grid2">
            <SelectField
              label="Path"
              testId="text-path-shape"
              value={value.shape}
              options={[
                { value: "circle", label: "Circle" },
                { value: "arc", label: "Arc" },
                { value: "path", label: "Path data" },
              ]}
              onChange={(shape) => set(withShape(value, shape, layer))}
            />
            {value.shape !== "path" && (
              <SelectField
                label="Side"
                testId="text-path-side"
                value={value.side ?? "outside"}
                options={["outside", "inside"] as const}
                onChange={(side) => set({ ...value, side })}
              />
            )}
            <SelectField
              label="Along the path"
              testId="text-path-align"
              value={value.align ?? "center"}
              options={["start", "center", "end"] as const}
              onChange={(align) => set({ ...value, align })}
            />
            <NumberField
              label="Offset"
              testId="text-path-offset"
              value={value.start_offset ?? 0}
              min={-100_000}
              max={100_000}
              onChange={(start_offset) => start_offset !== undefined && set({ ...value, start_offset })}
            />
            {value.shape === "arc" && (
              <>
                <NumberField
                  label="From (°)"
                  testId="text-path-from"
                  value={value.from}
                  min={-720}
                  max={720}
                  onChange={(from) => from !== undefined && set({ ...value, from })}
                />
                <NumberField
                  label="To (°)"
                  testId="text-path-to"
                  value={value.to}
                  min={-720}
                  max={720}
                  onChange={(to) => to !== undefined && set({ ...value, to })}
                />
              </>
            )}
          </div>
          {value.shape === "path" && (
            <TextField
              label="Path data (SVG d, in the layer's px)"
              testId="text-path-d"
              value={value.d}
              onChange={(d) => d !== "" && set({ ...value, d })}
            />
          )}
        </>
      )}
    </div>
  );
}
