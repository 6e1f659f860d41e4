import { z } from 'zod';

export const SignInCodeSchema = z.strictObject({
  code: z.string().meta({ description: 'One-time code; single use.' }),
  url: z.string().meta({ description: 'The sign-in link: the UI at the API address, with the code in its fragment.' }),
  expiresAt: z.string().meta({ description: 'When the code stops working (10 minutes after issue).' }),
});

export const RedeemBody = z.strictObject({
  code: z.string().min(1).max(200).meta({ description: 'The code from a sign-in link.' }),
  switchAccount: z
    .boolean()
    .optional()
    .meta({
      description:
        'Confirms signing in although the request carries a session of another account (which then ends); ' +
        'without it such a request is 409 ACCOUNT_SWITCH_UNCONFIRMED and the code stays unspent.',
    }),
});

export const TokenBody = z.strictObject({
  code: z.string().min(1).max(200).meta({ description: 'The code from a sign-in link (`hookscope open --print`).' }),
});

export const IssuedTokenSchema = z
  .strictObject({
    token: z.string().meta({ description: 'A bearer token (JWT) for the code’s account, valid on every instance.' }),
    accountId: z.string(),
    account: z.string().meta({ description: 'The account’s name.' }),
    expiresAt: z.string().meta({ description: 'When the token stops working (the engine’s token lifetime).' }),
  })
  .meta({ id: 'IssuedToken' });

export const SessionSchema = z
  .strictObject({
    account: z.strictObject({ id: z.string(), name: z.string() }),
    owner: z
      .boolean()
      .meta({ description: "True for the install's owner account, which may change engine-wide settings." }),
  })
  .meta({ id: 'Session' });

export const SignedOutSchema = z.strictObject({ signedOut: z.literal(true) });

export type SignInCode = z.infer<typeof SignInCodeSchema>;
export type IssuedToken = z.infer<typeof IssuedTokenSchema>;
export type SessionView = z.infer<typeof SessionSchema>;
