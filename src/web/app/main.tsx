import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Poppins ships with the app (no font CDN, docs/product-spec.md#flaw-19): latin subset, the three weights we use.
import '@fontsource/poppins/latin-400.css';
import '@fontsource/poppins/latin-500.css';
import '@fontsource/poppins/latin-700.css';
import './global.css';
import { AuthContextProvider } from '../hooks/use-auth-context';
import { App } from './app';
import { preloadScreen } from './app-routes';
import { dojo } from '../lib/dojo-client';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const root = createRoot(container);
const render = () =>
  root.render(
    <StrictMode>
      <AuthContextProvider>
        <App />
      </AuthContextProvider>
    </StrictMode>,
  );

// Nothing is shown before the first auth state is known (docs/product-spec.md#41-auth-state); the SDK client asked for it when it
// was created. Meanwhile the code of the screen at this address is fetched, and the app renders once it is
// here too: a screen that suspends on its first render shows 'Loading...', and React then holds the screen
// back for up to 300 ms. A failed fetch still renders (the screen then fails as a lazy one would).
const screen = preloadScreen(location.pathname);
void screen.then(render, render);

// Once the user is known as well, the screen's live data is subscribed before the screen renders.
void Promise.all([screen, dojo.auth.whenReady()]).then(
  ([{ preloadData }]) => {
    const user = dojo.auth.currentUser;
    if (user) preloadData?.(user);
  },
  () => undefined,
);
