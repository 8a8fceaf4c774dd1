import type { RouteDescription } from './api-docs';

/**
 * The route docs' families: routes that share a tag, a caller and refusals say so once, here, and each
 * route's doc is one call with only what is its own. A feature's own families (a team admin's route on one
 * member, a comment write, a one-time link) live beside its route docs and follow the same pattern.
 */
type OwnFields = Omit<RouteDescription, 'tag' | 'caller' | 'proof'>;

const FROM_A_BROWSER =
  'From a browser session (cookie or id token) only: a request signed with an API token is refused 403.';

/** A member's route on their own account, under the Account tag. */
export const onOwnAccount = (route: OwnFields): RouteDescription => ({
  ...route,
  tag: 'Account',
  caller: 'member',
});

/**
 * A member's route that a personal API token may not call (`apiTokensMayCall`): its description ends by
 * saying so and its refusals start with that 403. Under the Account tag unless it names its own.
 */
export const refusesApiTokens = (route: OwnFields & { tag?: string }): RouteDescription => ({
  tag: 'Account',
  ...route,
  caller: 'member',
  description: route.description ? `${route.description} ${FROM_A_BROWSER}` : FROM_A_BROWSER,
  errors: ['forbidden', ...(route.errors ?? [])],
});

/**
 * A member's passkeys, which only the session cookie may change or list (an id token or an API token
 * must not add a way to sign in): 403 for any other proof.
 */
export const onOwnPasskeys = (route: OwnFields): RouteDescription => ({
  ...route,
  tag: 'Account',
  caller: 'member',
  proof: 'session-cookie',
  errors: ['forbidden', ...(route.errors ?? [])],
});

/**
 * A step of signing in, called before there is a session: 403 for a deactivated account or a sign-in the
 * team does not allow, 429 past the limits; the step's own refusals come first.
 */
export const signInStep = (route: OwnFields): RouteDescription => ({
  ...route,
  tag: 'Auth',
  caller: 'anyone',
  errors: [...(route.errors ?? []), 'forbidden', 'too-many-requests'],
});

/** An admin's route on the team, under the Team tag. */
export const byAdmin = (route: OwnFields): RouteDescription => ({ ...route, tag: 'Team', caller: 'admin' });
