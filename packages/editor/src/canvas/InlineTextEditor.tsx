import { useEffect, useRef, useState } from "react";
import type { RichRun, TextLayerT } from "../engine/engine-types.ts";
import type { Box } from "../model/geometry.ts";
import {
  fromRuns,
  PLAIN,
  type StyledText,
  type StyleFlag,
  setColor,
  spliceText,
  toggleFlag,
  toMarkup,
} from "../model/rich-edit.ts";

interface Props {
  layer: TextLayerT;
  /** The layer's box in frame coordinates. */
  box: Box;
  zoom: number;
  /** The text is bound to a rich text slot: edit styled text and show the toolbar. */
  rich: boolean;
  /** The text slot the layer's text is bound to, if any (named in the note about styling). */
  boundSlot?: string;
  parseRich(markup: string): { ok: true; runs: RichRun[] } | { ok: false };
  /** New layer text (markup when rich), with the input event's time. */
  onText(text: string, eventTime: number): void;
  onDone(): void;
}

const FLAGS: { flag: StyleFlag; label: string; key: string; icon: string }[] = [
  { flag: "bold", label: "Bold", key: "B", icon: "B" },
  { flag: "italic", label: "Italic", key: "I", icon: "I" },
  { flag: "underline", label: "Underline", key: "U", icon: "U" },
  { flag: "strike", label: "Strike-through", key: "Shift+X", icon: "S" },
];

function styledOf(text: string, rich: boolean, parse: Props["parseRich"]): StyledText {
  if (!rich) return { text, styles: Array.from(text, () => PLAIN) };
  const parsed = parse(text);
  return parsed.ok
    ? fromRuns(parsed.runs)
    : { text, styles: Array.from({ length: text.length }, () => PLAIN) };
}

/**
 * Typing in place: a textarea over the layer whose own glyphs are transparent (the caret and the
 * selection show), while the engine keeps drawing the canvas beneath, so what shows while typing is
 * what the API draws. For a rich text slot, a toolbar styles the selected range and the layer's
 * text becomes the documented markup.
 */
/**
 * Why Ctrl+B (I, U, Shift+X) styles nothing in a plain text: a layer's text is one style (its font
 * weight and style in the Design panel); styling part of it needs the markup of a rich text slot.
 */
function plainStyleNote(flag: StyleFlag, boundSlot: string | undefined): string {
  const what = FLAGS.find((f) => f.flag === flag)?.label ?? "Styling";
  const whole =
    flag === "bold" || flag === "italic"
      ? ` For the whole text, set ${flag === "bold" ? "Weight" : "Style"} in the Design panel.`
      : ` For the whole text, use ${flag === "underline" ? "Underline" : "Strikethrough"} in the Design panel.`;
  const rich = boundSlot
    ? `${what} on part of a text needs a rich text slot: this text is bound to “${boundSlot}”, a plain text slot (turn on “Rich text” for it in the Slots tab).`
    : `${what} on part of a text needs the text bound to a rich text slot (Slots tab).`;
  return rich + whole;
}

export function InlineTextEditor({ layer, box, zoom, rich, boundSlot, parseRich, onText, onDone }: Props) {
  const area = useRef<HTMLTextAreaElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const written = useRef<string | null>(null);
  const [styled, setStyled] = useState<StyledText>(() => styledOf(layer.text, rich, parseRich));
  const range = useRef({ from: 0, to: 0 });
  const [color, setColorValue] = useState("#DC2626");
  const [note, setNote] = useState("");

  // Another change of the text (undo, the properties panel) replaces what is edited here.
  useEffect(() => {
    if (layer.text !== written.current) setStyled(styledOf(layer.text, rich, parseRich));
  }, [layer.text, rich, parseRich]);

  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.focus();
    el.select();
    range.current = { from: 0, to: el.value.length };
  }, []);

  function write(next: StyledText, eventTime: number) {
    setStyled(next);
    const text = rich ? toMarkup(next) : next.text;
    written.current = text;
    onText(text, eventTime);
  }

  function remember() {
    const el = area.current;
    if (el) range.current = { from: el.selectionStart, to: el.selectionEnd };
  }

  function restore() {
    const el = area.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(range.current.from, range.current.to);
  }

  /** The selection to style: the live one while the textarea has focus, else the last one it had. */
  function current() {
    if (document.activeElement === area.current) remember();
    return range.current;
  }

  function applyFlag(flag: StyleFlag, eventTime: number) {
    current();
    write(toggleFlag(styled, range.current.from, range.current.to, flag), eventTime);
    requestAnimationFrame(restore);
  }

  function applyColor(value: string | null, eventTime: number) {
    current();
    write(setColor(styled, range.current.from, range.current.to, value), eventTime);
    requestAnimationFrame(restore);
  }

  const font = layer.font;
  const style: React.CSSProperties = {
    fontFamily: `"${font.family}", sans-serif`,
    fontWeight: font.weight ?? 400,
    fontStyle: font.style ?? "normal",
    fontSize: font.size * zoom,
    lineHeight: font.line_height ?? 1.2,
    letterSpacing: (font.letter_spacing ?? 0) * zoom,
    textAlign: layer.align === "justify" ? "justify" : (layer.align ?? "left"),
  };

  return (
    <div
      ref={wrap}
      className="inline-text"
      role="dialog"
      aria-label="Text editor"
      data-testid="inline-text"
      style={{
        left: box.x * zoom,
        top: box.y * zoom,
        width: box.width * zoom,
        height: box.height * zoom,
        transform: `rotate(${box.rotation}deg)`,
      }}
      onPointerDown={(e) => e.stopPropagation()}
      onDoubleClick={(e) => e.stopPropagation()}
      onBlur={(e) => {
        if (!wrap.current?.contains(e.relatedTarget as Node | null)) onDone();
      }}
    >
      <textarea
        ref={area}
        className="inline-text-area"
        data-testid="inline-text-area"
        aria-label={`Text of ${layer.name ?? layer.id}`}
        spellCheck={false}
        value={styled.text}
        style={style}
        onSelect={remember}
        onKeyUp={remember}
        onBlur={remember}
        onChange={(e) => {
          setNote("");
          write(spliceText(styled, e.target.value), e.nativeEvent.timeStamp);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            onDone();
            return;
          }
          const mod = e.ctrlKey || e.metaKey;
          if (!mod) return;
          const k = e.key.toLowerCase();
          const flag: StyleFlag | null =
            k === "b"
              ? "bold"
              : k === "i"
                ? "italic"
                : k === "u"
                  ? "underline"
                  : k === "x" && e.shiftKey
                    ? "strike"
                    : null;
          if (!flag) return;
          e.preventDefault();
          if (!rich) {
            setNote(plainStyleNote(flag, boundSlot));
            return;
          }
          remember();
          applyFlag(flag, e.nativeEvent.timeStamp);
        }}
      />
      {!rich && (
        <p className="inline-text-note" role="status" data-testid="inline-text-note">
          {note}
        </p>
      )}
      {rich && (
        <div className="rich-toolbar" role="toolbar" aria-label="Text style" data-testid="rich-toolbar">
          {FLAGS.map((f) => (
            <button
              key={f.flag}
              type="button"
              className={`rich-${f.flag}`}
              data-testid={`rich-${f.flag}`}
              title={`${f.label} (Ctrl+${f.key})`}
              aria-label={f.label}
              onMouseDown={(e) => e.preventDefault()}
              onClick={(e) => applyFlag(f.flag, e.timeStamp)}
            >
              {f.icon}
            </button>
          ))}
          <input
            type="color"
            aria-label="Text colour"
            data-testid="rich-color-value"
            value={color.slice(0, 7).toLowerCase()}
            onChange={(e) => setColorValue(e.target.value.toUpperCase())}
          />
          <button
            type="button"
            data-testid="rich-color"
            title="Colour the selection"
            aria-label="Colour the selection"
            onMouseDown={(e) => e.preventDefault()}
            onClick={(e) => applyColor(color, e.timeStamp)}
          >
            <span className="rich-swatch" style={{ background: color }} />A
          </button>
          <button
            type="button"
            data-testid="rich-color-clear"
            title="Back to the layer's colour"
            aria-label="Remove the colour"
            onMouseDown={(e) => e.preventDefault()}
            onClick={(e) => applyColor(null, e.timeStamp)}
          >
            ⌀
          </button>
        </div>
      )}
    </div>
  );
}
