/** Builds the `urls` links of resources from the configured public addresses. */
export interface Urls {
  api(path: string): string;
  app(path: string): string;
}

export function makeUrls(publicUrl: string, appUrl: string): Urls {
  const api = publicUrl.replace(/\/$/, '') + '/v1';
  const app = appUrl.replace(/\/$/, '');
  return { api: (path) => api + path, app: (path) => app + path };
}
