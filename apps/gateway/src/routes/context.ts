import type { Services } from '../clients.ts';
import type { Urls } from '../presenters/urls.ts';

/** What every route group is given. */
export interface RouteDeps {
  services: Services;
  urls: Urls;
}
