import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Poppins ships with the app (no font CDN, ORIGINAL-FLAWS #19): latin subset, the three weights we use.
import '@fontsource/poppins/latin-400.css';
import '@fontsource/poppins/latin-500.css';
import '@fontsource/poppins/latin-700.css';
import './global.css';
import { AuthContextProvider } from '../features/auth/auth-context';
import { App } from './app';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <AuthContextProvider>
      <App />
    </AuthContextProvider>
  </StrictMode>,
);
