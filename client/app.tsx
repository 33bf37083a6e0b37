import { type ReactNode, StrictMode, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { AppRoutes } from './routes';
import { setSessionLostHandler } from './session-lost';
import { Header } from './ui/Header';

function SessionWatcher() {
  const navigate = useNavigate();
  useEffect(() => {
    setSessionLostHandler(() => navigate('/login', { replace: true }));
  }, [navigate]);
  return null;
}

/**
 * The whole app inside a router. The browser (BrowserRouter) and the landing page's server render
 * (StaticRouter) both render this tree, so the pre-rendered HTML is what the browser hydrates. The API
 * layer (client/api.tsx) wraps each screen, not the shell, so it stays out of the first chunk.
 */
export function App({ Router }: { Router: (props: { children: ReactNode }) => ReactNode }) {
  return (
    <StrictMode>
      <Router>
        <SessionWatcher />
        <Header />
        <AppRoutes />
      </Router>
    </StrictMode>
  );
}
