import { z } from 'zod';
import type { CallOptions, SecHttp } from './http.js';
import { envelope, flag } from './wire.js';

export interface UserProfile {
  readonly username: string;
  readonly orgAccount: boolean;
  readonly url: string;
  readonly orgAdmin: boolean;
  readonly orgUser: boolean;
  readonly accounts: readonly UserProfileAccount[];
}

export interface UserProfileAccount {
  readonly admin: boolean;
  readonly accountName: string;
  readonly custGuid: string;
  readonly userGuid: string;
  /** Wire: integer 1/0. */
  readonly userEnabled: boolean;
}

export interface UserProfileApi {
  /** The API returns a list; normally one profile (the last one wins: docs/api/sec.md, "User profile"). */
  get(options?: CallOptions): Promise<UserProfile[]>;
}

const profileSchema = z.object({
  username: z.string(),
  orgAccount: z.boolean(),
  url: z.string(),
  orgAdmin: z.boolean(),
  orgUser: z.boolean(),
  accounts: z.array(
    z.object({
      admin: z.boolean(),
      accountName: z.string(),
      custGuid: z.string(),
      userGuid: z.string(),
      userEnabled: flag,
    }),
  ),
});

const PATH = '/api/v2/UserProfile';
const response = envelope(z.array(profileSchema));

export function userProfileApi(http: SecHttp): UserProfileApi {
  return {
    async get(options) {
      return (await http.json({ method: 'GET', path: PATH, operation: `GET ${PATH}` }, response, options)).data;
    },
  };
}
