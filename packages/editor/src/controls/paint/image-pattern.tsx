import type { ImagePatternPaintT } from "@pictor/engine";
import { useState } from "react";
import { AssetPicker } from "../AssetPicker.tsx";
import { NumberField, SelectField, TextField } from "../fields.tsx";
import { TilePlacementFields } from "./tile-placement.tsx";

interface Props {
  label: string;
  testId: string;
  value: ImagePatternPaintT;
  onChange(value: ImagePatternPaintT): void;
}

/** An image pattern paint: the image (an asset or a URL), the tile's size and fit, angle, offset. */
export function ImagePatternEditor({ label, testId, value, onChange }: Props) {
  const set = (patch: Partial<ImagePatternPaintT>) => onChange({ ...value, ...patch });
  const [picking, setPicking] = useState(false);
  return (
    <div className="pattern-editor" data-testid={`${testId}-image-pattern`}>
      <button
        type="button"
        className="btn small"
        data-testid={`${testId}-image-pattern-choose`}
        onClick={() => setPicking(true)}
      >
        Choose the tile image…
      </button>
      {picking && (
        <AssetPicker
          onClose={() => setPicking(false)}
          onPick={(id) => {
            set({ image: `asset://${id}` });
            setPicking(false);
          }}
        />
      )}
      <TextField
        label={`${label} image (asset://…, or https URL)`}
        testId={`${testId}-image-pattern-src`}
        value={value.image}
        placeholder="ast_… or https://…"
        onChange={(image) => {
          const src = /^ast_[A-Za-z0-9]+$/.test(image) ? `asset://${image}` : image;
          // The schema needs an image: an emptied field keeps the last one.
          if (src !== "") set({ image: src });
        }}
      />
      <div className="grid2">
        <NumberField
          label="Tile width"
          testId={`${testId}-image-pattern-size`}
          value={value.size ?? 64}
          min={2}
          max={1024}
          onChange={(size) => size !== undefined && set({ size })}
        />
        <NumberField
          label="Tile height"
          testId={`${testId}-image-pattern-height`}
          value={value.tile_height}
          optional
          min={2}
          max={1024}
          onChange={(tile_height) => set({ tile_height })}
        />
        <SelectField
          label="Tile fit"
          testId={`${testId}-image-pattern-fit`}
          value={value.fit ?? "cover"}
          options={["cover", "contain", "fill"] as const}
          onChange={(fit) => set({ fit })}
        />
        <TilePlacementFields testId={`${testId}-image-pattern`} value={value} onChange={set} />
      </div>
    </div>
  );
}
