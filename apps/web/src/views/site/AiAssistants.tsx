import { titleSlug } from '@quire/document/slug';
import { useCopy } from '../../components/copy.ts';
import type { Site } from '../../types.ts';

/** The site's MCP server: the reader's path (GitBook's) below the published address. */
export const mcpUrl = (published: string) => new URL('~gitbook/mcp', published.endsWith('/') ? published : `${published}/`).href;

/**
 * An `mcpServers` entry (the shape Claude, Cursor and VS Code read) for the site: a share-link
 * site needs a link's key in the URL, a visitor-authenticated one a visitor token as a bearer.
 */
export function mcpConfig(site: Site, published: string): string {
  const url = mcpUrl(published);
  const server =
    site.visibility === 'share-link'
      ? { type: 'http', url: `${url}?shareKey=<share link key>` }
      : site.visibility === 'visitor-auth'
        ? { type: 'http', url, headers: { Authorization: 'Bearer <visitor token>' } }
        : { type: 'http', url };
  return JSON.stringify({ mcpServers: { [titleSlug(site.title, { fallback: 'docs' })]: server } }, null, 2);
}

const NEEDS: Partial<Record<Site['visibility'], string>> = {
  'share-link': 'Replace <share link key> with the shareKey of an active share link above.',
  'visitor-auth': "Replace <visitor token> with a visitor's token (a JWT signed with the site's key): its claims choose what the assistant finds.",
};

/** Where AI assistants reach the published site (its MCP server), with a configuration to copy. */
export function AiAssistants({ site }: { site: Site }) {
  const { copied, copy } = useCopy();
  const published = site.published ? site.urls.published : undefined;
  const config = published && mcpConfig(site, published);
  return (
    <section aria-labelledby="ai-assistants">
      <h2 id="ai-assistants">AI assistants</h2>
      {!published || !config ? (
        <p className="muted small">Once published, the site has an MCP server that AI assistants search and read it through.</p>
      ) : (
        <>
          <p className="muted small">
            Assistants that speak the Model Context Protocol search, list and read the published site here, as its audience allows; hidden pages stay out.
          </p>
          <p>
            MCP server: <code aria-label="MCP server URL">{mcpUrl(published)}</code>
          </p>
          <pre aria-label="MCP configuration" className="small">
            <code>{config}</code>
          </pre>
          {NEEDS[site.visibility] && <p className="muted small">{NEEDS[site.visibility]}</p>}
          <button type="button" className="btn small" onClick={() => void copy('mcp', config)}>
            Copy the MCP configuration
          </button>
          {copied && (
            <p role="status" className="muted small">
              Copied the MCP configuration to the clipboard.
            </p>
          )}
        </>
      )}
    </section>
  );
}
