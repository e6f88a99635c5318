import { Type, type Static, type TObject } from '@sinclair/typebox';
import { COMMON, CUSTOMIZATION, SITE } from '@quire/proto/limits';
import { chars, items, literals, range } from './common.ts';

// GitBook's SiteCustomizationSettings (the official OpenAPI document, `site-customization`): what
// a published site looks like. The sites service keeps it whole; its shape is checked here.

const Color = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$', description: 'A hex color' });
const ThemedColor = Type.Object({ light: Color, dark: Color });
const Url = Type.String({ format: 'uri', maxLength: COMMON.url.max });
const ThemedUrl = Type.Object({ light: Url, dark: Url });
const Emoji = Type.String({ ...chars(COMMON.emoji), description: 'Unicode codepoint or character of the emoji' });

const FontFace = Type.Object({
  weight: Type.Integer(range(CUSTOMIZATION.fontWeight)),
  sources: Type.Array(Type.Object({ url: Url, format: Type.Optional(literals(['woff2', 'woff'])) }), items(CUSTOMIZATION.fontSources)),
});
const FontDefinition = Type.Object({
  id: Type.String({ maxLength: COMMON.id.max }),
  custom: Type.Boolean(),
  fontFamily: Type.String(chars(CUSTOMIZATION.fontFamily)),
  fontFaces: Type.Array(FontFace, items(CUSTOMIZATION.fontFaces)),
});
const Font = Type.Union([
  literals([
    'ABCFavorit',
    'Inter',
    'Roboto',
    'RobotoSlab',
    'OpenSans',
    'SourceSansPro',
    'Lato',
    'Ubuntu',
    'Raleway',
    'Merriweather',
    'Overpass',
    'NotoSans',
    'IBMPlexSerif',
    'Poppins',
    'FiraSans',
  ]),
  FontDefinition,
]);
const MonospaceFont = Type.Union([literals(['FiraCode', 'IBMPlexMono', 'JetBrainsMono', 'SourceCodePro', 'RobotoMono', 'SpaceMono', 'DMMono', 'Inconsolata']), FontDefinition]);

// Where a header or footer link goes: a URL, or a page, space or collection of the organization.
const ContentRef = Type.Union([
  Type.Object({ kind: Type.Literal('url'), url: Type.String({ maxLength: COMMON.url.max }) }),
  Type.Object({ kind: Type.Literal('page'), page: Type.String({ maxLength: COMMON.id.max }), space: Type.Optional(Type.String({ maxLength: COMMON.id.max })) }),
  Type.Object({ kind: Type.Literal('space'), space: Type.String({ maxLength: COMMON.id.max }) }),
  Type.Object({ kind: Type.Literal('collection'), collection: Type.String({ maxLength: COMMON.id.max }) }),
]);
const LinkTitle = Type.String(chars(CUSTOMIZATION.linkTitle));
const ContentLink = Type.Object({ title: LinkTitle, to: ContentRef });
const Links = Type.Array(ContentLink, items(CUSTOMIZATION.links));

const Favicon = Type.Union([Type.Object({ icon: ThemedUrl }), Type.Object({ emoji: Emoji }), Type.Object({}, { additionalProperties: false })]);

const Styling = Type.Object({
  theme: literals(['clean', 'muted', 'bold', 'gradient']),
  primaryColor: ThemedColor,
  tint: Type.Optional(Type.Object({ color: ThemedColor })),
  infoColor: ThemedColor,
  successColor: ThemedColor,
  warningColor: ThemedColor,
  dangerColor: ThemedColor,
  corners: literals(['straight', 'rounded', 'circular']),
  depth: literals(['subtle', 'flat']),
  links: literals(['default', 'accent']),
  font: Font,
  monospaceFont: MonospaceFont,
  background: literals(['plain', 'match']),
  icons: literals(['regular', 'solid', 'duotone', 'light', 'thin']),
  sidebar: Type.Object({ background: literals(['default', 'filled']), list: literals(['default', 'pill', 'line']) }),
  search: literals(['prominent', 'subtle']),
});

const enabled = () => Type.Object({ enabled: Type.Boolean() });

const settings = {
  title: Type.Optional(Type.String(chars(CUSTOMIZATION.title))),
  styling: Styling,
  internationalization: Type.Object({ locale: literals(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br']) }),
  favicon: Favicon,
  header: Type.Object({
    preset: literals(['default', 'bold', 'contrast', 'custom', 'none']),
    logo: Type.Optional(ThemedUrl),
    backgroundColor: Type.Optional(ThemedColor),
    linkColor: Type.Optional(ThemedColor),
    links: Type.Array(
      Type.Object({
        title: LinkTitle,
        style: Type.Optional(literals(['link', 'button-primary', 'button-secondary'])),
        to: Type.Union([ContentRef, Type.Null()]),
        links: Links,
        condition: Type.Optional(Type.String(chars(SITE.condition))),
      }),
      items(CUSTOMIZATION.headerLinks),
    ),
  }),
  footer: Type.Object({
    logo: Type.Optional(ThemedUrl),
    groups: Type.Array(Type.Object({ title: LinkTitle, links: Links }), items(CUSTOMIZATION.footerGroups)),
    copyright: Type.Optional(Type.String(chars(CUSTOMIZATION.copyright))),
  }),
  announcement: Type.Optional(
    Type.Object({
      enabled: Type.Boolean(),
      message: Type.String(chars(CUSTOMIZATION.announcement)),
      link: Type.Optional(ContentLink),
      style: literals(['info', 'warning', 'danger', 'success']),
    }),
  ),
  themes: Type.Object({ default: literals(['light', 'dark']), toggeable: Type.Boolean() }),
  pdf: enabled(),
  feedback: enabled(),
  ai: Type.Object({ mode: literals(['none', 'search', 'assistant']) }),
  advancedCustomization: enabled(),
  git: Type.Object({ showEditLink: Type.Boolean() }),
  pageActions: Type.Object({ externalAI: Type.Boolean(), markdown: Type.Boolean() }),
  externalLinks: Type.Object({ target: literals(['self', 'blank']) }),
  pagination: enabled(),
  trademark: enabled(),
  privacyPolicy: Type.Object({ url: Type.Optional(Url) }),
  socialPreview: Type.Object({ url: Type.Optional(Url) }),
  insights: Type.Object({ trackingCookie: Type.Boolean() }),
};

/** Every setting (GitBook's PUT takes and answers the whole object). */
export const SiteCustomizationSettings: TObject<typeof settings> = Type.Object(settings, { title: 'SiteCustomizationSettings' });

/** Some settings: each one given replaces that setting whole, the others are kept. */
export const SiteCustomizationPatch = Type.Partial(SiteCustomizationSettings, { title: 'SiteCustomizationSettingsUpdate', minProperties: 1 });

export type SiteCustomizationJson = Static<typeof SiteCustomizationSettings>;
