import { z } from 'zod/mini';

type PageShape<Key extends string, Item extends z.core.$ZodType> = Record<Key, z.ZodMiniArray<Item>> & {
  nextCursor: z.ZodMiniNullable<z.ZodMiniString>;
};

/**
 * A page of a list as the API answers it: the items under `key`, and `nextCursor`, which asks for the next
 * page (null: this was the last).
 */
export const pageSchemaOf = <Key extends string, Item extends z.core.$ZodType>(key: Key, item: Item) =>
  // A computed key types as any string; the shape names the one key there is.
  z.object({ [key]: z.array(item), nextCursor: z.nullable(z.string()) } as PageShape<Key, Item>);
