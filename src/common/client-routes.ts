/**
 * The web app's screens and their addresses (docs/product-spec.md#21-routes-and-access), in react-router's
 * syntax. The web route table and links use them, and the server answers exactly these with the app (any
 * other address gets the app's not-found page with a 404).
 */
export const CLIENT_ROUTES = {
  dashboard: '/',
  createProject: '/create',
  project: '/projects/:id',
  editProject: '/projects/:id/edit',
  completed: '/completed',
  calendar: '/calendar',
  login: '/login',
  signup: '/signup',
  settings: '/settings',
  adminMembers: '/admin/members',
  adminInvitations: '/admin/invitations',
  adminWebhooks: '/admin/webhooks',
  adminImports: '/admin/imports',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
} as const;

export type ClientRoute = keyof typeof CLIENT_ROUTES;

/** The address of a project's page. */
export function projectPath(id: string): string {
  return CLIENT_ROUTES.project.replace(':id', encodeURIComponent(id));
}

/** The address of a project's edit page. */
export function editProjectPath(id: string): string {
  return CLIENT_ROUTES.editProject.replace(':id', encodeURIComponent(id));
}

// A `:param` stands for exactly one non-empty path segment; nothing else in the paths is special.
const CLIENT_ROUTE_PATTERNS = Object.values(CLIENT_ROUTES).map(
  (path) => new RegExp(`^${path.replace(/:[^/]+/g, '[^/]+')}$`),
);

/** True when `pathname` (no query string) is the address of one of the app's screens. */
export function isClientRoute(pathname: string): boolean {
  return CLIENT_ROUTE_PATTERNS.some((pattern) => pattern.test(pathname));
}

/** The id of a comment's element on its project's page: a link to `projectPath(id)#<anchor>` lands on it. */
export const commentAnchor = (commentId: string): string => `comment-${commentId}`;
