import { BrowserRouter } from 'react-router';
import { AnnouncerProvider } from '../hooks/use-announcer';
import { useAuthContext } from '../hooks/use-auth-context';
import { AppRoutes } from './app-routes';
import { Layout } from './layout';

export function App() {
  const { authIsReady } = useAuthContext();

  // docs/product-spec.md#41-auth-state: nothing is rendered until the first auth state is known (one quick session request).
  if (!authIsReady) return null;

  return (
    <BrowserRouter>
      <AnnouncerProvider>
        <Layout>
          <AppRoutes />
        </Layout>
      </AnnouncerProvider>
    </BrowserRouter>
  );
}
