/** A face a family has: its weight (100 to 900) and whether it is italic. */
export interface FaceStyle {
  weight: number;
  italic: boolean;
}

/** What drawing a weight and style in a family takes: the face used, and what is faked on top of it. */
export interface FaceMatch {
  face: FaceStyle;
  /** Skia emboldens the face's outlines. */
  fakeBold: boolean;
  /** Skia slants the upright face. */
  fakeItalic: boolean;
}

/**
 * The face Skia's font manager picks for a weight and style (CSS Fonts 3 matching, as
 * SkFontStyleSet::matchStyleCSS3): the wanted slant if the family has it, then the weight itself, else
 * from 400 to 500 the heavier faces up to 500 then lighter then heavier, below 400 lighter first,
 * above 500 heavier first. Then what the paragraph shaper fakes: bold when the weight
 * asked is 600 or more and the face is at least 200 lighter, italic when an italic is asked of an
 * upright face. Null when the family has no face.
 */
export function matchFace(faces: readonly FaceStyle[], weight: number, italic: boolean): FaceMatch | null {
  if (faces.length === 0) return null;
  const sameSlant = faces.filter((face) => face.italic === italic);
  const candidates = sameSlant.length > 0 ? sameSlant : faces;
  const face = nearestWeight(candidates, weight);
  return {
    face,
    fakeBold: weight >= 600 && weight - face.weight >= 200,
    fakeItalic: italic && !face.italic,
  };
}

function nearestWeight(faces: readonly FaceStyle[], weight: number): FaceStyle {
  const exact = faces.find((face) => face.weight === weight);
  if (exact !== undefined) return exact;
  const lighter = faces.filter((face) => face.weight < weight).sort((a, b) => b.weight - a.weight);
  const heavier = faces.filter((face) => face.weight > weight).sort((a, b) => a.weight - b.weight);
  // From 400 to 500, the heavier faces up to 500 come first (400 looks for 500).
  const upTo500 = weight >= 400 && weight <= 500 ? heavier.filter((face) => face.weight <= 500) : [];
  const order = weight <= 500 ? [...upTo500, ...lighter, ...heavier] : [...heavier, ...lighter];
  return order[0] as FaceStyle;
}
