// The app's URLs: the `urls.app` paths the API answers (apps/gateway/src/presenters), so that
// every link the API gives opens the right view, plus the app's own pages beside them.

export const paths = {
  org: (org: string) => `/o/${org}`,
  collection: (org: string, collection: string) => `/o/${org}/c/${collection}`,
  space: (org: string, space: string) => `/o/${org}/s/${space}`,
  page: (space: string, path: string) => `/s/${space}/${path}`,
  revision: (space: string, revision: string) => `/s/${space}/~/revisions/${revision}`,
  /** The space's history (the app's own path beside its change requests). */
  history: (org: string, space: string) => `/o/${org}/s/${space}/~/history`,
  changeRequests: (org: string, space: string) => `/o/${org}/s/${space}/~/changes`,
  changeRequest: (org: string, space: string, number: number | string) => `/o/${org}/s/${space}/~/changes/${number}`,
  /** Editing a page of a change request (the app's own path below the change request's). */
  edit: (org: string, space: string, number: number | string, page = '') => `/o/${org}/s/${space}/~/changes/${number}/edit${page ? `/${page}` : ''}`,
  site: (org: string, site: string) => `/o/${org}/sites/${site}`,
  settings: (org: string, tab: 'members' | 'teams' | 'tokens' | 'sso' | 'translations' | 'integrations' | 'audit' = 'members') => `/o/${org}/settings/${tab}`,
  // The admin and publishing views (the app's own paths).
  spaceSettings: (org: string, space: string, tab: 'general' | 'permissions' | 'git' = 'general') => `/o/${org}/s/${space}/~/settings/${tab}`,
  sites: (org: string) => `/o/${org}/sites`,
  openApi: (org: string) => `/o/${org}/openapi`,
  siteTab: (org: string, site: string, tab: 'structure' | 'sharing' | 'adaptive' | 'customization' | 'insights') => `/o/${org}/sites/${site}/${tab}`,
};
