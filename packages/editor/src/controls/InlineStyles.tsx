import type { InlineStylesT, InlineStyleT } from "@pictor/engine";
import { useState } from "react";
import type { SlotT } from "../engine/engine-types.ts";
import { ColorBindingsFields } from "./ColorBindings.tsx";
import { CheckField, ColorField, NumberField, SelectField } from "./fields.tsx";

// The document's schema and BUILT_IN_TAGS say the same; the editor imports no engine value.
const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const BUILT_IN = new Set(["b", "i", "u", "s", "color", "br"]);
const MAX_STYLES = 32;
const WEIGHTS = ["inherit", "100", "200", "300", "400", "500", "600", "700", "800", "900"] as const;

interface Props {
  styles: InlineStylesT | undefined;
  slots: readonly SlotT[];
  onChange(next: InlineStylesT | undefined): void;
}

/** Why a new style name cannot be used, or null. */
export function styleNameProblem(name: string, styles: InlineStylesT | undefined): string | null {
  if (!NAME.test(name)) return "a lower-case name: letters, digits and -";
  if (BUILT_IN.has(name)) return `<${name}> is built in`;
  if (styles !== undefined && Object.hasOwn(styles, name)) return "already defined";
  if (Object.keys(styles ?? {}).length >= MAX_STYLES) return `at most ${MAX_STYLES} styles`;
  return null;
}

/** A style with `patch` applied; a field set to undefined is removed (the layer's own value then). */
export function patchStyle(style: InlineStyleT, patch: Partial<InlineStyleT>): InlineStyleT {
  const next: Record<string, unknown> = { ...style, ...patch };
  for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
  return next as InlineStyleT;
}

/**
 * The template's named inline styles: rich text values write `<name>…</name>` to draw a run so. Each
 * sets what it names over the layer's text style: weight, italic, colour and background (a colour or
 * a colour slot), size (a multiple), letter spacing, underline, strike-through.
 */
export function InlineStylesEditor({ styles, slots, onChange }: Props) {
  const [draft, setDraft] = useState("");
  const problem = draft === "" ? null : styleNameProblem(draft, styles);
  const colorSlots = ["none", ...slots.filter((s) => s.type === "color").map((s) => s.name)];
  const entries = Object.entries(styles ?? {});
  const set = (name: string, style: InlineStyleT | undefined) => {
    const next: InlineStylesT = { ...styles };
    if (style === undefined) delete next[name];
    else next[name] = style;
    onChange(Object.keys(next).length > 0 ? next : undefined);
  };
  return (
    <div className="field inline-styles" data-testid="inline-styles">
      <span>Rich text styles</span>
      {entries.map(([name, style]) => {
        const patch = (p: Partial<InlineStyleT>) => set(name, patchStyle(style, p));
        const bindTo = (property: "color" | "background", slot: string) => {
          const bind: Record<string, string> = { ...style.bind };
          const options: Record<string, unknown> = { ...style.bind_colors };
          if (slot === "none") {
            delete bind[property];
            // Options for a colour no longer bound are refused by validation.
            delete options[property];
          } else bind[property] = slot;
          patch({
            bind: Object.keys(bind).length > 0 ? bind : undefined,
            bind_colors: Object.keys(options).length > 0 ? options : undefined,
          });
        };
        return (
          <fieldset key={name} className="inline-style" data-testid={`inline-style-${name}`}>
            <legend>
              <code>{`<${name}>`}</code>
            </legend>
            <div className="grid2">
              <SelectField
                label="Weight"
                testId={`inline-style-${name}-weight`}
                value={style.weight === undefined ? "inherit" : String(style.weight)}
                options={WEIGHTS}
                onChange={(w) => patch({ weight: w === "inherit" ? undefined : Number(w) })}
              />
              <SelectField
                label="Style"
                testId={`inline-style-${name}-style`}
                value={style.style ?? "inherit"}
                options={["inherit", "normal", "italic"] as const}
                onChange={(s) => patch({ style: s === "inherit" ? undefined : s })}
              />
            </div>
            <ColorField
              label="Colour"
              testId={`inline-style-${name}-color`}
              nullable
              value={style.color ?? null}
              onChange={(color) => patch({ color: color ?? undefined })}
            />
            <SelectField
              label="Colour from slot"
              testId={`inline-style-${name}-color-slot`}
              value={style.bind?.color ?? "none"}
              options={colorSlots}
              onChange={(slot) => bindTo("color", slot)}
            />
            <ColorField
              label="Background"
              testId={`inline-style-${name}-background`}
              nullable
              value={style.background ?? null}
              onChange={(background) => patch({ background: background ?? undefined })}
            />
            <SelectField
              label="Background from slot"
              testId={`inline-style-${name}-background-slot`}
              value={style.bind?.background ?? "none"}
              options={colorSlots}
              onChange={(slot) => bindTo("background", slot)}
            />
            <ColorBindingsFields
              bind={style.bind as Readonly<Record<string, string>> | undefined}
              value={style.bind_colors}
              slots={slots}
              testIdPrefix={`inline-style-${name}-binding`}
              onChange={(bind_colors) => patch({ bind_colors })}
            />
            <div className="grid2">
              <NumberField
                label="Size (x text)"
                testId={`inline-style-${name}-size`}
                value={style.relative_size}
                optional
                min={0.1}
                max={10}
                step={0.05}
                onChange={(relative_size) => patch({ relative_size })}
              />
              <NumberField
                label="Letter spacing"
                testId={`inline-style-${name}-spacing`}
                value={style.letter_spacing}
                optional
                min={-100}
                max={1000}
                onChange={(letter_spacing) => patch({ letter_spacing })}
              />
            </div>
            <div className="grid2">
              <CheckField
                label="Underline"
                value={style.underline === true}
                onChange={(on) => patch({ underline: on ? true : undefined })}
              />
              <CheckField
                label="Strike-through"
                value={style.strikethrough === true}
                onChange={(on) => patch({ strikethrough: on ? true : undefined })}
              />
            </div>
            <button
              type="button"
              className="btn small ghost danger"
              data-testid={`inline-style-${name}-remove`}
              onClick={() => set(name, undefined)}
            >
              Remove &lt;{name}&gt;
            </button>
          </fieldset>
        );
      })}
      <div className="color-row">
        <input
          className="mono"
          aria-label="New style name"
          data-testid="inline-style-name"
          placeholder="em"
          value={draft}
          onChange={(e) => setDraft(e.target.value.trim())}
        />
        <button
          type="button"
          className="btn small"
          data-testid="inline-style-add"
          disabled={draft === "" || problem !== null}
          onClick={() => {
            set(draft, {});
            setDraft("");
          }}
        >
          Add style
        </button>
      </div>
      {problem !== null && <small className="hint">{problem}</small>}
    </div>
  );
}
