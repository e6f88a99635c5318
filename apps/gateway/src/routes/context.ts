import type { Services } from '../clients.ts';
import type { Urls } from '../presenters/urls.ts';
import type { LinkSigner } from '../signing.ts';

/** What every route group is given. */
export interface RouteDeps {
  services: Services;
  urls: Urls;
  /** Signs download links (files, PDFs) served without a token. */
  links: LinkSigner;
}
