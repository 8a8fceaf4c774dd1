import { use, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { matchPath, Navigate, useRoutes } from 'react-router';
import { CLIENT_ROUTES, type AuthUser, type ClientRoute } from '../../common';
import { useAuthContext } from '../hooks/use-auth-context';
import { AdminOnly } from './admin-only';

/** What a screen's chunk provides. */
export interface ScreenModule {
  Screen: ComponentType;
  /** Opens the live subscriptions the screen starts with, before it renders for this user. */
  preloadData?: (user: AuthUser) => void;
}

interface LazyScreen {
  /** Renders the screen; suspends (the layout shows 'Loading...') while its code is on its way. */
  Component: () => ReactNode;
  /** Starts fetching the screen's code; the same promise every time. */
  preload: () => Promise<ScreenModule>;
}

/**
 * Each screen is its own chunk, so a first visit to /login does not load the dashboard's code. Unlike
 * `React.lazy`, a screen whose code has already arrived renders at once: a lazy component always
 * suspends on its first render, and React then holds the revealed screen back for up to 300 ms after the
 * 'Loading...' fallback appeared, which delayed the dashboard's first render and its live subscription.
 */
function lazyScreen(load: () => Promise<ScreenModule>): LazyScreen {
  let loading: Promise<ScreenModule> | undefined;
  // Screens take no props, so one element serves every render.
  let element: ReactElement | undefined;
  const preload = () =>
    (loading ??= load().then((module) => {
      element = <module.Screen />;
      return module;
    }));
  const Component = () => {
    // Suspends only while the code is on its way; `element` is set by the time `use` returns.
    if (!element) use(preload());
    return element;
  };
  return { Component, preload };
}

const screens = {
  dashboard: lazyScreen(() =>
    import('../features/dashboard/dashboard-page').then((module) => ({
      Screen: module.DashboardPage,
      preloadData: (user) => module.preloadFirstPage(user.uid),
    })),
  ),
  createProject: lazyScreen(() =>
    import('./create-project-screen').then((module) => ({ Screen: module.CreateProjectScreen })),
  ),
  project: lazyScreen(() => import('./project-screen').then((module) => ({ Screen: module.ProjectScreen }))),
  editProject: lazyScreen(() =>
    import('./edit-project-screen').then((module) => ({ Screen: module.EditProjectScreen })),
  ),
  completed: lazyScreen(() =>
    import('../features/projects/completed-projects-page').then((module) => ({
      Screen: module.CompletedProjectsPage,
    })),
  ),
  login: lazyScreen(() =>
    import('../features/auth/login-page').then((module) => ({ Screen: module.LoginPage })),
  ),
  signup: lazyScreen(() =>
    import('../features/auth/signup-page').then((module) => ({ Screen: module.SignupPage })),
  ),
  forgotPassword: lazyScreen(() =>
    import('../features/auth/forgot-password-page').then((module) => ({
      Screen: module.ForgotPasswordPage,
    })),
  ),
  resetPassword: lazyScreen(() =>
    import('../features/auth/reset-password-page').then((module) => ({
      Screen: module.ResetPasswordPage,
    })),
  ),
  calendar: lazyScreen(() =>
    import('../features/calendar/calendar-page').then((module) => ({
      Screen: module.CalendarPage,
      preloadData: (user) => module.preloadCalendar(user.uid),
    })),
  ),
  settings: lazyScreen(() =>
    import('../features/settings/settings-page').then((module) => ({ Screen: module.SettingsPage })),
  ),
  adminMembers: lazyScreen(() =>
    import('../features/admin/members-page').then((module) => ({ Screen: module.MembersPage })),
  ),
  adminInvitations: lazyScreen(() =>
    import('../features/admin/invitations-page').then((module) => ({ Screen: module.InvitationsPage })),
  ),
  adminWebhooks: lazyScreen(() =>
    import('../features/webhooks/webhooks-page').then((module) => ({ Screen: module.WebhooksPage })),
  ),
  adminImports: lazyScreen(() =>
    import('../features/trello-import/trello-import-page').then((module) => ({
      Screen: module.TrelloImportPage,
    })),
  ),
  notFound: lazyScreen(() => import('./not-found-page').then((module) => ({ Screen: module.NotFoundPage }))),
};

/** Fetches the code of the screen at `pathname`; resolves once it has arrived. */
export function preloadScreen(pathname: string): Promise<ScreenModule> {
  const name = (Object.keys(CLIENT_ROUTES) as ClientRoute[]).find((key) =>
    matchPath(CLIENT_ROUTES[key], pathname),
  );
  return screens[name ?? 'notFound'].preload();
}

/** Signed-in only; everyone else goes to /login (docs/product-spec.md#21-routes-and-access). */
function RequireUser({ children }: { children: ReactNode }) {
  const { user } = useAuthContext();
  return user ? children : <Navigate to={CLIENT_ROUTES.login} replace />;
}

/**
 * Admins only: a member is told so rather than sent away, and the server
 * refuses the admin calls anyway. The role follows the user's live profile, so this changes as it does.
 */
function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useAuthContext();
  if (!user) return <Navigate to={CLIENT_ROUTES.login} replace />;
  if (user.role !== 'admin') return <AdminOnly />;
  return children;
}

/**
 * Who each screen is for: signed-in users, admins, or visitors (a signed-in user is sent to the dashboard;
 * from sign-up only once the account has a name).
 */
const AUDIENCES: Record<ClientRoute, 'users' | 'admins' | 'visitors' | 'visitors-and-unnamed'> = {
  dashboard: 'users',
  createProject: 'users',
  project: 'users',
  editProject: 'users',
  completed: 'users',
  calendar: 'users',
  login: 'visitors',
  signup: 'visitors-and-unnamed',
  forgotPassword: 'visitors',
  resetPassword: 'visitors',
  settings: 'users',
  adminMembers: 'admins',
  adminInvitations: 'admins',
  adminWebhooks: 'admins',
  adminImports: 'admins',
};

/** The screen at `route` for this user, or where they are sent instead. */
function routeElement(route: ClientRoute, user: AuthUser | null): ReactNode {
  const { Component } = screens[route];
  const audience = AUDIENCES[route];
  if (audience === 'users')
    return (
      <RequireUser>
        <Component />
      </RequireUser>
    );
  if (audience === 'admins')
    return (
      <RequireAdmin>
        <Component />
      </RequireAdmin>
    );
  const signedIn = audience === 'visitors' ? user : user?.displayName;
  return signedIn ? <Navigate to={CLIENT_ROUTES.dashboard} replace /> : <Component />;
}

/**
 * The route table of docs/product-spec.md#21-routes-and-access, given to `useRoutes` as data: what
 * `<Routes>` does with `<Route>` children, without the code that turns elements into that data in the
 * first page's bundle.
 */
export function AppRoutes() {
  const { user } = useAuthContext();
  return useRoutes([
    ...(Object.keys(AUDIENCES) as ClientRoute[]).map((route) => ({
      path: CLIENT_ROUTES[route],
      element: routeElement(route, user),
    })),
    { path: '*', element: <screens.notFound.Component /> },
  ]);
}
