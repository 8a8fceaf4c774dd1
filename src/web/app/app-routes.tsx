import { use, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { matchPath, Navigate, Route, Routes } from 'react-router';
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
    import('../features/projects/create-project-page').then((module) => ({
      Screen: module.CreateProjectPage,
    })),
  ),
  project: lazyScreen(() =>
    import('../features/projects/project-page').then((module) => ({ Screen: module.ProjectPage })),
  ),
  editProject: lazyScreen(() =>
    import('../features/projects/edit-project-page').then((module) => ({ Screen: module.EditProjectPage })),
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
  settings: lazyScreen(() =>
    import('../features/settings/settings-page').then((module) => ({ Screen: module.SettingsPage })),
  ),
  adminMembers: lazyScreen(() =>
    import('../features/admin/members-page').then((module) => ({ Screen: module.MembersPage })),
  ),
  adminInvitations: lazyScreen(() =>
    import('../features/admin/invitations-page').then((module) => ({ Screen: module.InvitationsPage })),
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

/** The route table of docs/product-spec.md#21-routes-and-access. */
export function AppRoutes() {
  const { user } = useAuthContext();
  const {
    dashboard,
    createProject,
    project,
    editProject,
    completed,
    login,
    signup,
    forgotPassword,
    resetPassword,
    settings,
    adminMembers,
    adminInvitations,
    notFound,
  } = screens;
  const paths = CLIENT_ROUTES;

  return (
    <Routes>
      <Route
        path={paths.dashboard}
        element={
          <RequireUser>
            <dashboard.Component />
          </RequireUser>
        }
      />
      <Route
        path={paths.createProject}
        element={
          <RequireUser>
            <createProject.Component />
          </RequireUser>
        }
      />
      <Route
        path={paths.project}
        element={
          <RequireUser>
            <project.Component />
          </RequireUser>
        }
      />
      <Route
        path={paths.editProject}
        element={
          <RequireUser>
            <editProject.Component />
          </RequireUser>
        }
      />
      <Route
        path={paths.completed}
        element={
          <RequireUser>
            <completed.Component />
          </RequireUser>
        }
      />
      <Route
        path={paths.login}
        element={user ? <Navigate to={paths.dashboard} replace /> : <login.Component />}
      />
      <Route
        path={paths.signup}
        element={user?.displayName ? <Navigate to={paths.dashboard} replace /> : <signup.Component />}
      />
      <Route
        path={paths.forgotPassword}
        element={user ? <Navigate to={paths.dashboard} replace /> : <forgotPassword.Component />}
      />
      <Route
        path={paths.resetPassword}
        element={user ? <Navigate to={paths.dashboard} replace /> : <resetPassword.Component />}
      />
      <Route
        path={paths.settings}
        element={
          <RequireUser>
            <settings.Component />
          </RequireUser>
        }
      />
      <Route
        path={paths.adminMembers}
        element={
          <RequireAdmin>
            <adminMembers.Component />
          </RequireAdmin>
        }
      />
      <Route
        path={paths.adminInvitations}
        element={
          <RequireAdmin>
            <adminInvitations.Component />
          </RequireAdmin>
        }
      />
      <Route path="*" element={<notFound.Component />} />
    </Routes>
  );
}
