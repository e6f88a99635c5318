// The platform's bounds, each declared once: the gateway's schemas (and so /v1/openapi.json), the
// services' checks and the web app's inputs read them here. A string's bound counts characters,
// a list's its items, an integer's its value. A reason is given where the number is not obvious.

/** The least and the most a value may be; no `min` means none (0 for a length). */
export interface Bound {
  readonly min?: number;
  readonly max: number;
}

/** Bounds shared by many resources. */
export const COMMON = {
  /** Ids of every resource (nanoids, UUIDs, git object ids), with room to spare. */
  id: { min: 1, max: 128 },
  /** Browsers' practical limit on a URL. */
  url: { min: 1, max: 2048 },
  /** RFC 5321: a 64-character local part, "@", a 255-character domain. */
  email: { min: 1, max: 320 },
  /** An address invited or looked up: "a@b" is the shortest. */
  emailAddress: { min: 3, max: 320 },
  /** A DNS name's longest text form (RFC 1035). */
  domain: { min: 1, max: 253 },
  emoji: { max: 50 },
  icon: { max: 50 },
  /** Items per page of a list (0 asks for the default). */
  pageLimit: { min: 0, max: 1000 },
  /** A list's `next.page` cursor. */
  cursor: { min: 1, max: 512 },
  /** Ids one internal call resolves at once: a page's worth. */
  batchIds: { max: 1000 },
  /** Signatures of download links (base64url HMAC-SHA-256 is 43). */
  signature: { max: 128 },
} as const satisfies Record<string, Bound>;

/** Signing in, sessions and API tokens. */
export const AUTH = {
  /** NIST SP 800-63B: at least 8, long passphrases welcome; the upper bound caps the work before argon2 runs. */
  password: { min: 8, max: 256 },
  tokenLabel: { min: 1, max: 100 },
  /** Sites' sign-in redirect: organization and site ids. */
  siteId: { min: 1, max: 64 },
  /** SAML relay state: ours is a short signed token. */
  relayState: { max: 1024 },
  /** The SAML form post: a signed assertion with its certificates. */
  samlResponse: { min: 1, max: 256 * 1024 },
} as const satisfies Record<string, Bound>;

export const ORGANIZATION = {
  title: { min: 2, max: 255 },
  hostname: { min: 3, max: 32 },
  emailDomains: { max: 100 },
  /** A site id or subdomain given as the default content. */
  defaultContentSite: { min: 1, max: 100 },
} as const satisfies Record<string, Bound>;

export const MEMBER = {
  /** A display name, also when taken from the local part of an invited email. */
  displayName: { min: 1, max: 64 },
  search: { max: 256 },
  /** People invited by one request. */
  invitees: { min: 1, max: 100 },
} as const satisfies Record<string, Bound>;

export const TEAM = {
  title: { min: 1, max: 64 },
  /** Members set by one request. */
  members: { max: 1000 },
} as const satisfies Record<string, Bound>;

/** SAML and OIDC providers of an organization. */
export const SSO = {
  label: { min: 1, max: 30 },
  entityID: { min: 1, max: 1024 },
  /** A PEM X.509 certificate with a long chain stays well below. */
  certificate: { min: 1, max: 10_000 },
  clientId: { min: 1, max: 255 },
  clientSecret: { min: 1, max: 1024 },
} as const satisfies Record<string, Bound>;

export const TRANSLATION = {
  title: { min: 1, max: 100 },
  languages: { max: 100 },
  /** RFC 5646's longest well-formed tags stay within 35. */
  language: { min: 1, max: 35 },
} as const satisfies Record<string, Bound>;

export const AUDIT = {
  actor: { min: 1, max: 128 },
  action: { min: 1, max: 128 },
} as const satisfies Record<string, Bound>;

/** Spaces and collections. */
export const SPACE = {
  /** GitBook's SpaceTitle (an empty one asks for the default title). */
  title: { max: 50 },
  description: { max: 100 },
  /** Users (and as many teams) one permission grant names. */
  principals: { min: 1, max: 100 },
  searchQuery: { min: 1, max: 512 },
  /** Changes listed between two revisions. */
  changesLimit: { min: 1, max: 1000 },
} as const satisfies Record<string, Bound>;

/** A revision's pages and files, as change requests edit them. */
export const PAGE = {
  /** Git file names and GitBook's own titles stay within 255. */
  title: { min: 1, max: 255 },
  slug: { min: 1, max: 100 },
  description: { max: 1000 },
  /** One page's markdown. */
  markdown: { max: 1_000_000 },
  /** A page's path: slugs joined by "/". */
  path: { max: 2048 },
  /** A change's reference to the page or file it creates, for the changes after it. */
  ref: { min: 1, max: 100 },
  /** A JSON document's blocks. */
  nodes: { max: 10_000 },
} as const satisfies Record<string, Bound>;

/** A page edited together (apps/collab): one Y.Doc per change request's page. */
export const COLLAB = {
  /** Members editing one page at once: each more is refused, as every keystroke goes to all the others. */
  editors: { min: 1, max: 50 },
  /** Bytes of a page's Y.Doc state (its text and the history CRDTs keep): past it, edits are refused, not saved half. */
  stateBytes: { max: 4 * 1024 * 1024 },
} as const satisfies Record<string, Bound>;

export const FILE = {
  name: { min: 1, max: 255 },
  contentType: { min: 1, max: 255 },
  /** Base64 characters of a file sent inline: 1 MB of bytes. */
  base64: { max: 1_400_000 },
  /** Files one insert_files change adds. */
  perInsert: { min: 1, max: 20 },
} as const satisfies Record<string, Bound>;

export const CHANGE_REQUEST = {
  subject: { max: 100 },
  agentTaskId: { max: 128 },
  /** Changes applied as one revision: each is checked and applied in the same call. */
  changes: { min: 1, max: 50 },
  /** Reviewers asked by one request. */
  reviewers: { min: 1, max: 100 },
} as const satisfies Record<string, Bound>;

export const COMMENT = {
  markdown: { max: 20_000 },
  /** Authors a list of comments is filtered by. */
  authors: { max: 100 },
  reactions: { max: 20 },
  reaction: { min: 1, max: 50 },
} as const satisfies Record<string, Bound>;

export const SITE = {
  title: { min: 2, max: 128 },
  sectionTitle: { min: 2, max: 128 },
  groupTitle: { min: 1, max: 100 },
  /** Sections one group holds. */
  groupSections: { max: 1000 },
  basename: { min: 1, max: 100 },
  /** The path of a site space or section below the site's URL. */
  path: { min: 1, max: 100 },
  description: { max: 256 },
  condition: { min: 1, max: 1024 },
  shareLinkName: { max: 50 },
  shareKey: { min: 1, max: 128 },
  hostname: { max: 512 },
  proxy: { max: 512 },
  /** Only sites whose title contains this. */
  titleFilter: { min: 1, max: 128 },
  /** Spaces a new site is made of. */
  spaces: { max: 100 },
} as const satisfies Record<string, Bound>;

/** A site's customization (GitBook's SiteCustomizationSettings). */
export const CUSTOMIZATION = {
  title: { min: 2, max: 128 },
  linkTitle: { max: 64 },
  links: { max: 50 },
  headerLinks: { max: 20 },
  footerGroups: { max: 20 },
  copyright: { max: 300 },
  announcement: { min: 2, max: 128 },
  fontFamily: { min: 1, max: 50 },
  fontFaces: { min: 1, max: 16 },
  fontSources: { min: 1, max: 8 },
  fontWeight: { min: 1, max: 1000 },
} as const satisfies Record<string, Bound>;

export const INTEGRATION = {
  /** Names, and domains a block unfurls. */
  name: { min: 1, max: 100 },
  title: { min: 2, max: 30 },
  description: { max: 100 },
  /** Markdown. */
  summary: { max: 2048 },
  previewImages: { max: 3 },
  externalLinks: { max: 5 },
  externalLinkLabel: { max: 256 },
  /** A Content-Security-Policy, whole or one directive. */
  contentSecurityPolicy: { max: 8192 },
  /** Ids of blocks and content sources, their keys, components and markdown bindings. */
  key: { min: 1, max: 100 },
  blockTitle: { min: 2, max: 40 },
  blockDescription: { max: 150 },
  /** A block's or content source's icon: a URL. */
  blockIcon: { max: COMMON.url.max },
  secrets: { max: 20 },
  secretValue: { max: 10_000 },
  /** The publishing organization: an id or a subdomain. */
  organization: { min: 1, max: 128 },
  search: { max: 100 },
} as const satisfies Record<string, Bound>;

export const GIT_SYNC = {
  ref: { min: 1, max: 256 },
  repoCacheID: { min: 1, max: 256 },
  repoProjectDirectory: { max: 512 },
  commitMessage: { min: 1, max: 4096 },
  /**
   * A push webhook's body, bytes: pushes of many commits carry each one's message and paths;
   * under gRPC's 4 MiB message bound, which the body travels in to git-sync.
   */
  webhookBody: { max: 3 * 1024 * 1024 },
  /** A webhook header's value (delivery id, signature, event name), characters. */
  webhookHeader: { max: 256 },
  /**
   * Commits of the last imported one's history a push's commit is looked for in (is it older?):
   * one beyond them is imported as new.
   */
  ancestryDepth: { max: 500 },
  /** How often a link polls its repository for a new commit, seconds (for hosts that cannot reach Quire). */
  pollSeconds: { min: 10, max: 86_400 },
} as const satisfies Record<string, Bound>;

export const INSIGHTS = {
  /** Events one request sends: a batch within one insert. */
  events: { max: 1000 },
  visitorId: { min: 1, max: 128 },
  /** An IP address's text, IPv6 with a zone included. */
  ip: { max: 64 },
  userAgent: { max: 1024 },
  language: { max: 64 },
  eventType: { max: 64 },
  /** An assistant's event's MCP tool name (Quire's). */
  tool: { min: 1, max: 64 },
  columns: { max: 50 },
  filters: { max: 50 },
  groupBy: { max: 10 },
  column: { min: 1, max: 64 },
  interval: { max: 16 },
  claim: { min: 1, max: 256 },
  precision: { min: 0, max: 15 },
  operator: { max: 32 },
  range: { max: 32 },
  /** Values one filter lists: a filter is a short list, not a join. */
  values: { max: 1000 },
  limit: { min: 1, max: 1000 },
} as const satisfies Record<string, Bound>;

/** The organization's OpenAPI specifications. */
export const OPENAPI_SPEC = {
  /** GitBook's spec slug. */
  slug: { min: 1, max: 100 },
  /** A spec's text as uploaded or fetched: a whole large API's reference fits, and its JSON form still travels between services. */
  document: { min: 1, max: 8 * 1024 * 1024 },
} as const satisfies Record<string, Bound>;

/** The reader's API reference: specs it reads by URL and the "Test it" requests it forwards. */
export const OPENAPI_CONSOLE = {
  /** A spec read from a URL to be shown: as large as an organization's stored spec may be. */
  specBytes: { max: OPENAPI_SPEC.document.max },
  /** The body of a request a visitor sends through the reader: an API call, not an upload. */
  requestBytes: { max: 256 * 1024 },
  /** The answer shown to the visitor: enough to read, never a download through the reader. */
  responseBytes: { max: 1024 * 1024 },
  /** Headers a visitor's request carries. */
  headers: { max: 30 },
  /** Milliseconds the reader waits for the API (and for a spec's URL). */
  timeoutMs: { min: 1, max: 15_000 },
} as const satisfies Record<string, Bound>;
