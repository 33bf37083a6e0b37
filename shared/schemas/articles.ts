import { z } from 'zod';
import { blankToUndefined, zListLimit } from './common';

export const ZArticlesListInput = z
  .object({
    limit: z.preprocess(blankToUndefined, zListLimit(24)),
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
