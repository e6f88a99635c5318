import { describe, expect, it } from 'vitest';
import { canonicalJson, eventRows, ROW_COLUMNS, type BatchContext } from './events.ts';
import { parseUserAgent } from './visitor.ts';

const ctx: BatchContext = { organizationId: 'org1', siteId: 'site1', clientIp: '198.51.100.4', now: new Date('2026-11-22T12:00:00.000Z'), fromReader: true };
const base = {
  type: 'page_view',
  session: {
    visitorId: 'v1',
    sessionId: 's1',
    cookies: {},
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0',
    language: null,
    referrer: 'https://www.google.com/search?q=x',
  },
  location: {
    url: 'https://docs.example.com/a?utm_source=mail&utm_campaign=fall',
    siteSection: null,
    siteSpace: 'ss1',
    siteShareKey: null,
    space: 'sp1',
    revision: 'r1',
    page: 'pg1',
  },
};

describe('eventRows', () => {
  it('turns an API event into a table row, filling defaults and derived columns', () => {
    const [row] = eventRows([base], ctx);
    expect(row).toMatchObject({
      organization_id: 'org1',
      site_id: 'site1',
      timestamp: '2026-11-22 12:00:00.000',
      event_type: 'page_view',
      ip: '198.51.100.4',
      language: '',
      referrer_domain: 'www.google.com',
      utm_source: 'mail',
      utm_campaign: 'fall',
      site_section: '',
      page: 'pg1',
      browser: 'firefox',
      os: 'windows',
      device: 'desktop',
      bot: '',
      claims: '{}',
    });
  });

  it('has a message column for every field of a row, in the order messages carry them', () => {
    expect(Object.keys(eventRows([base], ctx)[0]!)).toEqual([...ROW_COLUMNS]);
  });

  it("keeps an event's origin, a visitor's (web) unless it says an assistant's (mcp), and refuses any other", () => {
    const rows = eventRows([base, { ...base, type: 'search_type_query', query: 'install', origin: 'mcp' }], ctx);
    expect(rows.map((r) => [r.event_type, r.origin])).toEqual([
      ['page_view', 'web'],
      ['search_type_query', 'mcp'],
    ]);
    expect(() => eventRows([base, { ...base, origin: 'crawler' }], ctx)).toThrow(/^events\[1\]\.origin: /);
  });

  it("keeps an assistant's tool and whether it found anything; a visitor's event has neither", () => {
    const mcp = { ...base, type: 'search_type_query', query: 'zebra', origin: 'mcp' };
    const rows = eventRows([base, { ...mcp, tool: 'searchDocumentation', found: false }, { ...mcp, tool: 'getPage', found: true }], ctx);
    expect(rows.map((r) => [r.mcp_tool, r.found])).toEqual([
      ['', -1],
      ['searchDocumentation', 0],
      ['getPage', 1],
    ]);
    expect(() => eventRows([{ ...base, tool: 'getPage', found: true }], ctx)).toThrow('events[0].tool: only an assistant\'s event (origin "mcp") has a tool and found');
  });

  it("refuses an assistant's event from anyone but the reader, so a browser cannot pass its events off as an MCP server's", () => {
    const outside = { ...ctx, fromReader: false };
    expect(eventRows([base], outside)).toHaveLength(1);
    expect(() => eventRows([base, { ...base, type: 'search_type_query', query: 'x', origin: 'mcp', tool: 'searchDocumentation', found: false }], outside)).toThrow(
      'events[1].origin: "mcp" is recorded by the site\'s MCP server only',
    );
  });

  it('keeps the fields of each event type', () => {
    const rows = eventRows(
      [
        { ...base, type: 'ask_rate_response', query: 'how?', rating: -1, responseId: 'r9', timestamp: '2026-11-20T08:30:00+02:00' },
        { ...base, type: 'link_click', link: { target: { url: 'https://x.test/y', kind: 'url' }, position: 'footer' } },
        { ...base, type: 'api_client_request', operation: { path: '/pets', method: 'get' }, session: { ...base.session, visitorAuthClaims: { b: 1, a: { d: 2, c: 3 } } } },
      ],
      ctx,
    );
    expect(rows[0]).toMatchObject({ ask_rating: -1, search_query: 'how?', ask_response_id: 'r9', timestamp: '2026-11-20 06:30:00.000' });
    expect(rows[1]).toMatchObject({ link_target: '{"kind":"url","url":"https://x.test/y"}', link_target_kind: 'url', link_target_domain: 'x.test', link_position: 'footer' });
    expect(rows[2]).toMatchObject({ api_operation_path: '/pets', api_operation_method: 'GET', claims: '{"a":{"c":3,"d":2},"b":1}' });
  });

  it.each([
    ['not an array', {}, /events: must be an array/],
    ['a missing session field', [{ ...base, session: { ...base.session, sessionId: undefined } }], /events\[0\]\.session\.sessionId/],
    ['an unknown type', [{ ...base, type: 'nap' }], /events\[0\]\.type: unknown event type "nap"/],
    ['a missing type field', [{ ...base, type: 'ad_click' }], /events\[0\]\.ad/],
    ['a bad link position', [{ ...base, type: 'link_click', link: { target: { kind: 'url' }, position: 'middle' } }], /events\[0\]\.link\.position/],
    ['a relative url', [{ ...base, location: { ...base.location, url: '/a' } }], /events\[0\]\.location\.url: must be an absolute URL/],
    ['a bad referrer', [{ ...base, session: { ...base.session, referrer: 'nowhere' } }], /events\[0\]\.session\.referrer/],
    ['a date without zone', [{ ...base, timestamp: '2026-11-20T08:30:00' }], /events\[0\]\.timestamp: must be an ISO 8601 date-time/],
    ['huge claims', [{ ...base, session: { ...base.session, visitorAuthClaims: { x: 'y'.repeat(5000) } } }], /visitorAuthClaims: at most 4096/],
    ['too many events', Array.from({ length: 1001 }, () => base), /events: at most 1000 events/],
  ])('refuses %s', (_name, events, message) => {
    expect(() => eventRows(events, ctx)).toThrow(message);
  });

  it('sorts keys at every depth in canonical JSON', () => {
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: null })).toBe('{"a":null,"b":[{"x":2,"y":1}]}');
    expect(canonicalJson({ b: 1, a: 'x' })).toBe('{"a":"x","b":1}');
    expect(canonicalJson({ a: 1, b: { d: 1, c: 2 } })).toBe('{"a":1,"b":{"c":2,"d":1}}');
  });

  it('gives the same derived columns to events that share a referrer, agent and page', () => {
    const plain = { ...base, location: { ...base.location, url: 'https://docs.example.com/a' } };
    const rows = eventRows([base, plain, base], ctx);
    expect(rows[2]).toEqual(rows[0]);
    expect(rows[1]).toMatchObject({ utm_source: '', utm_campaign: '', referrer_domain: 'www.google.com', browser: 'firefox' });
    expect(() => eventRows([base, { ...base, session: { ...base.session, referrer: 'nowhere' } }], ctx)).toThrow(/events\[1\]\.session\.referrer/);
    // A URL refused once is refused again, from the memo as from the parser.
    const relative = { ...base, location: { ...base.location, url: '/a?utm_source=mail' } };
    for (let i = 0; i < 2; i++) expect(() => eventRows([base, relative], ctx)).toThrow(/events\[1\]\.location\.url: must be an absolute URL/);
  });
});

describe('parseUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
      { device: 'mobile', browser: 'safari', os: 'ios', bot: null },
    ],
    ['Mozilla/5.0 (Linux; Android 14; SM-X700) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', { device: 'tablet', browser: 'chrome', os: 'android', bot: null }],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36 Edg/126.0', { device: 'desktop', browser: 'edge', os: 'windows', bot: null }],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', { device: 'unknown', browser: 'unknown', os: 'unknown', bot: 'googlebot' }],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', { bot: 'anthropic' }],
    ['curl/8.0', { device: 'unknown', browser: 'unknown', os: 'unknown', bot: null }],
  ])('classifies %s', (ua, expected) => {
    expect(parseUserAgent(ua)).toMatchObject(expected);
  });
});
