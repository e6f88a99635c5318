// What a site's customization (GitBook's SiteCustomizationSettings, as sites answers it) changes
// in the reader: the title, the header logo, the accent colour and the default theme. Settings are
// read defensively (the gateway checked their shape, but a value the reader cannot use is left
// out rather than trusted), and the accent is made legible on each theme's background, so a
// site's colour never makes its links unreadable.

export type ThemeName = 'light' | 'dark';

export interface Look {
  title: string;
  logo?: { light: string; dark: string };
  accent: { light: string; dark: string };
  defaultTheme: ThemeName;
  /** Whether visitors may switch themes. */
  toggle: boolean;
}

/** Per theme, the surface accent text sits on that contrasts least with it (the stylesheet's `--soft`: current tabs and pages). */
export const BACKGROUNDS: Record<ThemeName, string> = { light: '#f5f7f9', dark: '#181b20' };
export const DEFAULT_ACCENT = { light: '#2857c5', dark: '#7aa5ff' };
/** WCAG AA for normal text: links are text. */
const MIN_CONTRAST = 4.5;

const HEX = /^#(?:[0-9a-f]{3}){1,2}$/i;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function rgb(hex: string): [number, number, number] {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

const toHex = (c: [number, number, number]) => `#${c.map((x) => Math.round(x).toString(16).padStart(2, '0')).join('')}`;

function luminance(c: [number, number, number]): number {
  const [r, g, b] = c.map((x) => {
    const s = x / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

/** `hex`, mixed toward white (on a dark background) or black (on a light one) just enough to read on `background`. */
export function legible(hex: string, background: string): string {
  if (contrast(hex, background) >= MIN_CONTRAST) return hex.toLowerCase();
  const from = rgb(hex);
  const toward = luminance(rgb(background)) < 0.5 ? 255 : 0;
  for (let step = 1; step <= 20; step++) {
    const mixed = toHex(from.map((x) => x + ((toward - x) * step) / 20) as [number, number, number]);
    if (contrast(mixed, background) >= MIN_CONTRAST) return mixed;
  }
  return toward ? '#ffffff' : '#000000';
}

const url = (v: unknown): string | undefined => {
  const s = str(v);
  return s && s.length <= 2048 && /^https?:\/\//i.test(s) ? s : undefined;
};

/** The look of a site from its customization JSON; `siteTitle` when it sets no title. */
export function lookOf(customizationJson: string, siteTitle: string): Look {
  let settings: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(customizationJson || '{}');
    if (isObject(parsed)) settings = parsed;
  } catch {
    // A site's settings never break its pages: the defaults stand in.
  }
  const styling = isObject(settings.styling) ? settings.styling : {};
  const header = isObject(settings.header) ? settings.header : {};
  const themes = isObject(settings.themes) ? settings.themes : {};
  const primary = isObject(styling.primaryColor) ? styling.primaryColor : {};
  const color = (theme: ThemeName) => {
    const given = str(primary[theme]);
    return given && HEX.test(given) ? legible(given, BACKGROUNDS[theme]) : DEFAULT_ACCENT[theme];
  };
  const logo = isObject(header.logo) ? { light: url(header.logo.light), dark: url(header.logo.dark) } : {};
  const title = str(settings.title)?.trim();
  return {
    title: title ? title.slice(0, 128) : siteTitle,
    ...(logo.light ? { logo: { light: logo.light, dark: logo.dark ?? logo.light } } : {}),
    accent: { light: color('light'), dark: color('dark') },
    defaultTheme: themes.default === 'dark' ? 'dark' : 'light',
    toggle: themes.toggeable !== false,
  };
}

/** The stylesheet of a look's accent, placed in the page's head (the reader's CSP allows inline styles). */
export function accentStyle(look: Look): string {
  const { light, dark } = look.accent;
  if (light === DEFAULT_ACCENT.light && dark === DEFAULT_ACCENT.dark) return '';
  return `:root{--accent:${light}}:root[data-theme=dark]{--accent:${dark}}@media (prefers-color-scheme:dark){:root:not([data-theme=light]):not([data-theme=dark]){--accent:${dark}}}`;
}
