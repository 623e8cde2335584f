import type { Manifest } from "@eleven-integrations/schema";

/** One integration as the catalog lists it: the manifest (without `$schema`) and its hash. */
export type CatalogEntry = Omit<Manifest, "$schema"> & { hash: string };

/** What the broker serves at `GET /registry`. */
export interface Catalog {
  schema: 1;
  hash: string;
  integrations: CatalogEntry[];
}
