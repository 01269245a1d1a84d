import { z } from 'zod';

/** The platform's integer booleans (0/1); true/false are tolerated. Decoded to boolean. */
export const flag = z
  .union([z.literal(0), z.literal(1), z.boolean()])
  .transform((value) => value === 1 || value === true);

export function toFlag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

/** A text the platform may leave out or send as null; read as empty, as the schemas hold it. */
export const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** `{"data": X}`, the envelope of every response except the token endpoint's. */
export function envelope<S extends z.ZodType>(data: S) {
  return z.object({ data });
}
