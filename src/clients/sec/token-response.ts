import { z } from 'zod';

/** The platform's answer to POST /api/v2/access/tokens. */
export const tokenResponseSchema = z.object({
  token: z.string().min(1),
  expiresAt: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'expected an RFC3339 timestamp'),
});
