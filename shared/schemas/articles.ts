import { z } from 'zod';

export const ZArticlesListInput = z
  .object({
    limit: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.coerce.number().int().min(1).max(24).default(24),
    ),
  })
  .optional();

export const ZArticle = z.object({
  id: z.number(),
  title: z.string(),
  topic: z.string().nullable(),
  summary: z.string().nullable(),
  body: z.string().nullable(),
  imageUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type TArticle = z.infer<typeof ZArticle>;
