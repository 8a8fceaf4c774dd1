import { lazy, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useAuthContext } from '../features/auth/auth-context';

// Each screen is its own chunk, so a first visit to /login does not load the dashboard's code.
const DashboardPage = lazy(() =>
  import('../features/dashboard/dashboard-page').then((module) => ({ default: module.DashboardPage })),
);
const CreateProjectPage = lazy(() =>
  import('../features/projects/create-project-page').then((module) => ({
    default: module.CreateProjectPage,
  })),
);
const ProjectPage = lazy(() =>
  import('../features/projects/project-page').then((module) => ({ default: module.ProjectPage })),
);
const LoginPage = lazy(() =>
  import('../features/auth/login-page').then((module) => ({ default: module.LoginPage })),
);
const SignupPage = lazy(() =>
  import('../features/auth/signup-page').then((module) => ({ default: module.SignupPage })),
);
const NotFoundPage = lazy(() =>
  import('./not-found-page').then((module) => ({ default: module.NotFoundPage })),
);

/** Signed-in only; everyone else goes to /login (spec §2). */
function RequireUser({ children }: { children: ReactNode }) {
  const { user } = useAuthContext();
  return user ? children : <Navigate to="/login" replace />;
}

/** The route table of spec §2. */
export function AppRoutes() {
  const { user } = useAuthContext();

  return (
    <Routes>
      <Route
        path="/"
        element={
          <RequireUser>
            <DashboardPage />
          </RequireUser>
        }
      />
      <Route
        path="/create"
        element={
          <RequireUser>
            <CreateProjectPage />
          </RequireUser>
        }
      />
      <Route
        path="/projects/:id"
        element={
          <RequireUser>
            <ProjectPage />
          </RequireUser>
        }
      />
      <Route path="/login" element={user ? <Navigate to="/" replace /> : <LoginPage />} />
      <Route path="/signup" element={user?.displayName ? <Navigate to="/" replace /> : <SignupPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
