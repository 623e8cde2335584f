import { z } from "zod";

/** At most this many grants in one search: a bot holds a handful per member. */
export const MAX_SEARCH_GRANTS = 32;

/** `POST /v1/search`: the words, the grants the bot holds, and optional filters. */
export const searchBodySchema = z.strictObject({
  q: z.string().refine((value) => [...value].length <= 200, "must be at most 200 characters"),
  grants: z.array(z.string().min(1)).max(MAX_SEARCH_GRANTS),
  category: z.string().max(100).optional(),
  access: z.enum(["read", "write"]).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});

export type SearchBody = z.infer<typeof searchBodySchema>;
