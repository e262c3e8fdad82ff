/** The drop's accent colour turned into the few colours the page needs, all readable (WCAG AA). */
export interface DropPageTheme {
  /** Button, progress bar and drop-zone highlight. */
  accent: string;
  /** Text on the accent (white or near-black, whichever contrasts more). */
  onAccent: string;
  /** The accent as text/focus ring on the light card: darkened until 4.5:1 against white. */
  ink: string;
  /** The same on the dark card: lightened until 4.5:1 against it. */
  inkDark: string;
  /** A faint tint for backgrounds, light and dark schemes. */
  soft: string;
  softDark: string;
}

export const DEFAULT_ACCENT = '#4f46e5';
const ACCENT = /^#[0-9a-fA-F]{6}$/;
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
const NEAR_BLACK = '#111827';
const DARK_CARD: Rgb = [30, 41, 59]; // #1e293b, the card in the dark scheme (keep in sync with the CSS)

type Rgb = [number, number, number];

/** Any value that is not `#RRGGBB` (null, garbage, CSS injection attempts) gives the default colour. */
export function themeFor(accentColor: string | null | undefined): DropPageTheme {
  const accent = accentColor && ACCENT.test(accentColor) ? accentColor.toLowerCase() : DEFAULT_ACCENT;
  const rgb = parse(accent);
  return {
    accent,
    onAccent: textOn(rgb),
    ink: hex(readableOn(rgb, WHITE, BLACK)),
    inkDark: hex(readableOn(rgb, DARK_CARD, WHITE)),
    soft: hex(mix(rgb, WHITE, 0.9)),
    softDark: hex(mix(rgb, DARK_CARD, 0.86)),
  };
}

/** White where it reads at 4.5:1, else near-black, else black (which always does). */
function textOn(background: Rgb): string {
  const candidates = ['#ffffff', NEAR_BLACK, '#000000'];
  return candidates.find((c) => contrast(parse(c), background) >= 4.5) ?? '#000000';
}

/** Moves `color` towards `towards` in small steps until it reads at 4.5:1 on `background`. */
function readableOn(color: Rgb, background: Rgb, towards: Rgb): Rgb {
  for (let t = 0; t <= 1; t += 0.05) {
    const candidate = mix(color, towards, t);
    if (contrast(candidate, background) >= 4.5) return candidate;
  }
  return towards;
}

function parse(hexColor: string): Rgb {
  const n = parseInt(hexColor.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hex(rgb: Rgb): string {
  return '#' + rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');
}

/** `a` moved a fraction `t` of the way to `b`. */
function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * t) as Rgb;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export function contrastOfHex(a: string, b: string): number {
  return contrast(parse(a), parse(b));
}
