/** Builds the `urls` links of resources from the configured public addresses. */
export interface Urls {
  api(path: string): string;
  app(path: string): string;
  /** The sign-in family on the gateway's origin (`/auth/...`). */
  auth(path: string): string;
  /** Where the reader serves a published site (its sections and site-spaces below). */
  published(organizationId: string, siteId: string): string;
}

export function makeUrls(publicUrl: string, appUrl: string, readerUrl: string): Urls {
  const base = publicUrl.replace(/\/$/, '');
  const app = appUrl.replace(/\/$/, '');
  const reader = readerUrl.replace(/\/$/, '');
  return {
    api: (path) => `${base}/v1${path}`,
    app: (path) => app + path,
    auth: (path) => `${base}/auth${path}`,
    published: (org, site) => `${reader}/${encodeURIComponent(org)}/${encodeURIComponent(site)}`,
  };
}
