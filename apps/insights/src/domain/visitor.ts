/**
 * What a user agent says about the visitor, in GitBook's values (SiteInsightsVisitorDevice,
 * Browser, OS, Bot). A few ordered patterns rather than a full parser: the catalogue only knows
 * these coarse classes, and anything else is `unknown`.
 */
export const DEVICES = ['desktop', 'tablet', 'mobile', 'unknown'] as const;
export const BROWSERS = ['chrome', 'firefox', 'safari', 'edge', 'ie', 'opera', 'unknown'] as const;
export const OPERATING_SYSTEMS = ['windows', 'macos', 'linux', 'android', 'ios', 'unknown'] as const;
export const BOTS = ['unknown', 'googlebot', 'bingbot', 'duckduckbot', 'facebookbot', 'applebot', 'chatgpt', 'anthropic'] as const;

export interface VisitorAgent {
  device: (typeof DEVICES)[number];
  browser: (typeof BROWSERS)[number];
  os: (typeof OPERATING_SYSTEMS)[number];
  /** `null` for a person. */
  bot: (typeof BOTS)[number] | null;
}

type Rule<T> = [RegExp, T];

// First match wins: Edge and Opera also say "Chrome", Chrome also says "Safari".
const BROWSER_RULES: Rule<VisitorAgent['browser']>[] = [
  [/Edg(e|A|iOS)?\//, 'edge'],
  [/OPR\/|Opera/, 'opera'],
  [/Firefox\/|FxiOS/, 'firefox'],
  [/Chrome\/|CriOS/, 'chrome'],
  [/MSIE |Trident\//, 'ie'],
  [/Safari\//, 'safari'],
];
const OS_RULES: Rule<VisitorAgent['os']>[] = [
  [/iPhone|iPad|iPod/, 'ios'],
  [/Android/, 'android'],
  [/Windows/, 'windows'],
  [/Mac OS X|Macintosh/, 'macos'],
  [/Linux|X11|CrOS/, 'linux'],
];
const BOT_RULES: Rule<NonNullable<VisitorAgent['bot']>>[] = [
  [/Googlebot/i, 'googlebot'],
  [/bingbot/i, 'bingbot'],
  [/DuckDuckBot/i, 'duckduckbot'],
  [/facebookexternalhit|facebookbot/i, 'facebookbot'],
  [/Applebot/i, 'applebot'],
  [/ChatGPT|GPTBot|OAI-SearchBot/i, 'chatgpt'],
  [/Claude|anthropic/i, 'anthropic'],
  [/bot\b|crawler|spider|slurp/i, 'unknown'],
];

const first = <T>(rules: Rule<T>[], ua: string): T | undefined => rules.find(([re]) => re.test(ua))?.[1];

export function parseUserAgent(ua: string): VisitorAgent {
  const bot = first(BOT_RULES, ua) ?? null;
  const device = bot
    ? 'unknown'
    : /iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))
      ? 'tablet'
      : /Mobi|iPhone|iPod/.test(ua)
        ? 'mobile'
        : first(OS_RULES, ua)
          ? 'desktop'
          : 'unknown';
  return { device, browser: first(BROWSER_RULES, ua) ?? 'unknown', os: first(OS_RULES, ua) ?? 'unknown', bot };
}
